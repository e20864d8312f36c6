"""The generated projects built against an installed famspec (one install, one standalone build and
one build of the others together) and loaded instead of the shipped plugins: the same answers on
every target of the example plans, no drift in the audit, and the reference's answers on acme_moe.
Slow (a few plugin builds): ctest runs it once, with the label `package`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import HERE, SHIPPED, SOURCE, TEMPLATES, make_tree
from runtime_tree import required as _required
from test_templates import FILES, new_family, values_of

DEFAULT_TAIL = "        .amendments = {},\n"
AMENDED_TAIL = '        .amendments = {{.model_type = "acme_moe", .aliases = {"acme-moe-by-hand"}}},\n'
PLANS = {
    "qwen3_moe": ["qwen3_moe.yaml", "qwen3_moe_training.yaml"],
    "deepseek_v3": ["deepseek_v3.yaml"],
    "deepseek_v32": ["deepseek_v32.yaml"],
    "deepseek_v41": ["deepseek_v41.yaml"],
}


def run(argv, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=1200, **kwargs)
    assert result.returncode == 0, f"{argv}\n{result.stdout}\n{result.stderr}"
    return result


def _configure(source: Path, build: Path, prefix: Path) -> None:
    flags = os.environ.get("FAMSPEC_TEST_PLUGIN_FLAGS", "")
    run([_required("FAMSPEC_TEST_CMAKE"), "-S", source, "-B", build, "-G", _required("FAMSPEC_TEST_GENERATOR"),
         f"-DCMAKE_CXX_COMPILER={_required('FAMSPEC_TEST_CXX_COMPILER')}", "-DCMAKE_BUILD_TYPE=Release",
         f"-DCMAKE_PREFIX_PATH={prefix}", "-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF", f"-DCMAKE_CXX_FLAGS={flags}",
         f"-DCMAKE_MODULE_LINKER_FLAGS={flags}"])
    run([_required("FAMSPEC_TEST_CMAKE"), "--build", build, "-j2"])


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Installs famspec once, syncs every family with the installed command, and builds the projects."""
    work = tmp_path_factory.mktemp("sync build")
    prefix = work / "prefix"
    run([_required("FAMSPEC_TEST_CMAKE"), "--install", _required("FAMSPEC_BUILD_DIR"), "--prefix", prefix])
    tree = make_tree(work / "runtime")
    projects = work / "projects"
    for family in (*SHIPPED, "acme_moe"):
        result = run([prefix / "bin" / "famspec", "sync", "--source-root", tree.root, "--family", family,
                      "--out", projects / family])
        assert result.stdout.startswith(f"famspec sync: {family} (")
    # What its author adds after the generated region: an amendment of the generated family.
    acme = projects / "acme_moe" / "plugin.cpp"
    text = acme.read_text(encoding="utf-8")
    assert text.count(DEFAULT_TAIL) == 1
    acme.write_text(text.replace(DEFAULT_TAIL, AMENDED_TAIL), encoding="utf-8")
    # The command a family author runs, on the project with Python assets...
    qwen = projects / "qwen3_moe"
    _configure(qwen, qwen / "build", prefix)
    # ...and the others in one build, to keep the number of configure steps small.
    together = work / "together"
    together.mkdir()
    (together / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.25)\nproject(synced LANGUAGES CXX)\n"
        + "".join(f'add_subdirectory("{projects / f}" {f})\n' for f in (*SHIPPED[1:], "acme_moe")),
        encoding="utf-8")
    _configure(together, together / "build", prefix)
    plugins = {"qwen3_moe": qwen / "build" / "plugins" / "famspec_qwen3_moe.so"}
    for family in (*SHIPPED[1:], "acme_moe"):
        plugins[family] = together / "build" / "plugins" / f"famspec_{family}.so"
    # A project from new-family, written from the same templates by the installed command, built alone.
    zeta = new_family(work / "zeta moe", cli=prefix / "bin" / "famspec")
    _configure(zeta, zeta / "build", prefix)
    return {"prefix": prefix, "tree": tree, "projects": projects, "plugins": plugins, "work": work, "zeta": zeta}


def _plugin_dir(built, family: str, replace: bool) -> Path:
    """The installed plugins, with the family's shipped plugin swapped for the generated one."""
    directory = built["work"] / f"plugins-{family}"
    if not directory.exists():
        directory.mkdir()
        for shipped in sorted((built["prefix"] / "lib" / "famspec" / "plugins").glob("*.so")):
            if not (replace and shipped.name == f"famspec_{family}.so"):
                shutil.copy2(shipped, directory / shipped.name)
        shutil.copy2(built["plugins"][family], directory / f"famspec_{family}.so")
        os.chmod(directory, 0o755)
    return directory


def _famspec(built, *args) -> subprocess.CompletedProcess:
    return subprocess.run([str(built["prefix"] / "bin" / "famspec"), *map(str, args)], capture_output=True, text=True,
                          timeout=300)


def test_new_family_and_sync_projects_from_the_installed_templates_build_and_pass_their_tests(built):
    installed = sorted((built["prefix"] / "lib").glob("python3*/*-packages/famspec/templates/family"))
    assert len(installed) == 1
    assert sorted(p.name for p in installed[0].iterdir()) == FILES
    assert all((installed[0] / name).read_bytes() == (TEMPLATES / name).read_bytes() for name in FILES)
    ctest = Path(_required("FAMSPEC_TEST_CMAKE")).with_name("ctest")
    for project, family, test in ((built["zeta"], "zeta_moe", "resolve_zeta_moe_rms_norm"),
                                  (built["projects"] / "qwen3_moe", "qwen3_moe", "verify_qwen3_moe")):
        assert values_of(project)["CMakeLists.txt"]["TEST_NAME"] == test
        assert (project / "build" / "plugins" / f"famspec_{family}.so").is_file()
        # The project's own test, run by the installed famspec it was configured against.
        result = run([ctest, "--test-dir", project / "build", "--no-tests=error"])
        assert f": {test} " in result.stdout and "100% tests passed, 0 tests failed out of 1" in result.stdout


def test_the_standalone_build_leaves_exactly_one_plugin(built):
    build = built["projects"] / "qwen3_moe" / "build"
    assert [p.relative_to(build).as_posix() for p in sorted(build.rglob("*.so"))] == ["plugins/famspec_qwen3_moe.so"]


@pytest.mark.parametrize("family", sorted(PLANS))
def test_generated_plugins_answer_like_the_shipped_ones(built, family):
    shipped = built["prefix"] / "lib" / "famspec" / "plugins"
    generated = _plugin_dir(built, family, replace=True)
    for plan in PLANS[family]:
        path = SOURCE / "examples" / "plans" / plan
        want = _famspec(built, "--plugin-path", shipped, "summary", path, "--json")
        got = _famspec(built, "--plugin-path", generated, "summary", path, "--json")
        assert (got.returncode, got.stderr) == (want.returncode, want.stderr) == (0, "")
        want, got = json.loads(want.stdout), json.loads(got.stdout)
        # Every target's spec, exactly: the generated file a runtime writes from them is the same.
        assert (got["replacement_specs"], got["strategy_specs"]) == (want["replacement_specs"], want["strategy_specs"])
        assert len(got["entries"]) >= 4
        assert got == want, plan  # and every entry, diagnostics included
        digests = [_famspec(built, "--plugin-path", d, "summary", path, "--digest").stdout for d in (shipped, generated)]
        assert digests[0] == digests[1] and digests[0].startswith("sha256:")


def test_every_generated_plugin_loads_together_with_the_components_and_answers_alike(built):
    """Only the hand-written component catalogue is kept: each component, identity and archetype is
    declared by exactly one plugin, so they all load, and every example plan is answered alike."""
    directory = built["work"] / "plugins-generated"
    directory.mkdir()
    shutil.copy2(built["prefix"] / "lib" / "famspec" / "plugins" / "famspec_components.so", directory)
    for family, plugin in built["plugins"].items():
        shutil.copy2(plugin, directory / f"famspec_{family}.so")
    listed = _famspec(built, "--plugin-path", directory, "list")
    assert (listed.returncode, listed.stderr) == (0, f"plugin search path (--plugin-path): {directory}\n")
    rows = [line.split() for line in listed.stdout.splitlines()[1:] if line.strip()]
    assert sorted((row[0], row[3]) for row in rows) == sorted((p, "ok") for p in ["components", *built["plugins"]])
    shipped = built["prefix"] / "lib" / "famspec" / "plugins"
    for plan in sorted(p for plans in PLANS.values() for p in plans):
        path = SOURCE / "examples" / "plans" / plan
        want = _famspec(built, "--plugin-path", shipped, "summary", path, "--json")
        got = _famspec(built, "--plugin-path", directory, "summary", path, "--json")
        assert (got.returncode, got.stderr, json.loads(got.stdout)) == (0, "", json.loads(want.stdout)), plan


@pytest.mark.parametrize("family", (*SHIPPED, "acme_moe"))
def test_the_audit_finds_no_drift_in_a_generated_plugin(built, family):
    directory = _plugin_dir(built, family, replace=family != "acme_moe")
    result = _famspec(built, "--plugin-path", directory, "audit", "--source-root", built["tree"].root,
                      "--family", family, "--json", "--strict")
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["counts"]["drift"] == 0 and report["counts"]["unreadable"] == 0
    assert report["counts"]["ok"] > 0


def test_sync_check_of_the_built_projects_is_clean(built):
    for family in (*SHIPPED, "acme_moe"):
        result = _famspec(built, "sync", "--source-root", built["tree"].root, "--family", family,
                          "--out", built["projects"] / family, "--check")
        assert (result.returncode, result.stdout) == (0, ""), result.stderr


def test_an_amendment_written_after_the_region_is_part_of_the_family(built):
    directory = _plugin_dir(built, "acme_moe", replace=False)
    result = _famspec(built, "--plugin-path", directory, "show", "acme-moe-by-hand", "--json")
    assert (result.returncode, result.stderr) == (0, "")
    shown = json.loads(result.stdout)
    assert (shown["model_type"], shown["aliases"]) == ("acme_moe", ["acme-moe-by-hand"])


def test_acme_moe_gets_the_references_answers(built):
    directory = _plugin_dir(built, "acme_moe", replace=False)
    config = HERE / "configs" / "acme_moe.yaml"
    result = _famspec(built, "--plugin-path", directory, "summary", config, "--model-type", "AcmeMoeForCausalLM",
                      "--json")
    assert (result.returncode, result.stderr) == (0, "")
    entries = {(e["target"].rsplit(".", 1)[1], e["slot"]): e for e in json.loads(result.stdout)["entries"]}
    assert len(entries) == 7
    norm = entries["replace_acme_moe_norm", "replace_module"]["spec"]
    # A wrap: arguments bound to the factory's own parameters take the component's defaults; a
    # literal is passed as the factory writes it; the class comes from where the factory imports it.
    assert norm == {
        "imports": [{"module": "hyper_parallel.models.acme_moe.modules", "names": ["AcmeNorm"], "raw": None}],
        "keyword_args": ["module_fqn=''", "context=None", "eps=1e-05"],
        "mode": "wrap_source", "new_ctor": "AcmeNorm", "old_ctor": "AcmeMoeRMSNorm", "remove_class": False,
        "replacement_note": "AcmeNorm wraps AcmeMoeRMSNorm; the original class is kept as the wrapper input.",
        "snippets": [],
    }
    # A handed-over function: the component is rendered with it, its helpers first, in the order its
    # module defines them.
    attention = entries["replace_acme_moe_attention", "replace_module"]["spec"]
    assert attention["keyword_args"] == ["module_fqn=''", "context=None", "attention_interface=acme_attention"]
    assert (attention["mode"], attention["new_ctor"], attention["remove_class"]) == ("wrap_source", "GQAAttention",
                                                                                       False)
    assert [i["raw"] for i in attention["imports"]] == [
        "from hyper_parallel.components.functional.attention import npu_fusion_attention_forward",
        "from hyper_parallel.core.checkpoint.transforms import InterleaveQKV", "from torch import nn",
        "from torch.nn import functional as F", "import math", "import torch",
    ]
    [snippet] = attention["snippets"]
    text = snippet["text"]
    assert text.startswith("_SOFTMAX_DTYPE = torch.float32\n\n\ndef _scaled(query, scaling):\n")
    assert text.index("def _scaled(") < text.index("def acme_attention(") < text.index(
        "# famspec: rendered component GQAAttention (interface: acme_attention)\nclass GQAAttention(")
    experts = entries["replace_acme_moe_experts", "replace_module"]["spec"]
    assert (experts["new_ctor"], experts["keyword_args"]) == ("GroupedExperts", ["module_fqn=''", "context=None"])
    linear = entries["replace_acme_moe_linear", "replace_module"]
    assert linear["spec"] is None
    assert linear["diagnostics"] == [{"kind": "runtime_only", "suggestion": None,
                                      "message": "runtime-only factory: builds through LowPrecisionLinear.from_linear "
                                                 "at runtime"}]
    # CP wrappers are imports-only strategy specs; the ring wrapper takes its declared options.
    cp = {"body_template": None, "imports": [], "kind": "cp_attention", "method_name": "forward", "snippets": [],
          "strip_boundary_subpatterns": [], "target_class": None}
    assert entries["acme_moe_ring_attention", "inner_wrapper"]["spec"] == cp
    assert entries["acme_moe_attention_cp_wrapper", "inner_wrapper"]["spec"] == cp
    # An EP compute function that is no archetype is runtime-only.
    ep = entries["acme_moe_ep_compute_fn", "local_compute_fn"]
    assert ep["spec"] is None and [d["kind"] for d in ep["diagnostics"]] == ["runtime_only"]
    bad = _famspec(built, "--plugin-path", directory, "resolve", "--target",
                   "hyper_parallel.models.acme_moe.adapter.distributed.context_parallel.acme_moe_ring_attention",
                   "--slot", "inner_wrapper", "--option", "ring_size=4", "--strict")
    assert bad.returncode == 1 and "declares: strategy, backend" in bad.stderr


def test_sync_all_build_makes_a_plugin_directory_that_answers_as_the_shipped_one(built):
    """One command follows upstream: every project of the tree generated and built into one directory,
    which alone answers every example plan as the shipped plugins do, and the audit finds no drift."""
    projects, plugins = built["work"] / "all-projects", built["work"] / "all-plugins"
    result = _famspec(built, "sync", "--all", "--source-root", SOURCE / "tests" / "audit" / "fixtures" / "runtime",
                      "--out", projects, "--build", plugins, "--json", "--quiet")
    assert result.returncode == 0, result.stdout + result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["family"], r["status"], r["build_error"]) for r in records] == [
        (f, "generated", None) for f in ["components", *sorted(SHIPPED)]]
    assert sorted(p.name for p in plugins.glob("*.so")) == sorted(f"famspec_{r['family']}.so" for r in records)
    shipped = built["prefix"] / "lib" / "famspec" / "plugins"
    for plan in sorted((SOURCE / "examples" / "plans").glob("*.yaml")):
        want = _famspec(built, "--plugin-path", shipped, "summary", plan, "--json")
        got = _famspec(built, "--plugin-path", plugins, "summary", plan, "--json")
        assert (got.returncode, got.stdout, got.stderr) == (want.returncode, want.stdout, want.stderr), plan.name
    audit = _famspec(built, "--plugin-path", plugins, "audit", "--source-root",
                     SOURCE / "tests" / "audit" / "fixtures" / "runtime", "--json")
    report = json.loads(audit.stdout)
    assert (audit.returncode, report["counts"]["drift"]) == (0, 0), audit.stdout
