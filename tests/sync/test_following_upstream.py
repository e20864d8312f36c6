"""Following upstream: the framework's plugin generated from the runtime's own tree, the forms upstream
writes that sync now reads (module-level aliases, registrations made under a branch), and one command,
``sync --all``, that generates every plugin of a tree with a record per plugin."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import famspec
from conftest import RUNTIME, SHIPPED, SOURCE, snapshot
from famspec.audit import run_audit
from famspec.sync import main, read_family
from famspec.sync.framework import exported, read_framework
from famspec.source.source_tree import SourceTree

MODELS = "hyper_parallel.models"
DEEPSEEK_V3_REGISTRATION = "hyper_parallel/models/deepseek_v3/adapter/registration.py"
V41_CP = f"{MODELS}.deepseek_v41.adapter.distributed.shared_attention_context_parallel"


def _all(root, out, *args, capsys) -> tuple[int, str, str]:
    code = main(["--source-root", str(root), "--all", "--out", str(out), *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_framework_plugin_declares_every_component_the_package_names():
    tree = SourceTree(RUNTIME)
    names = [name for name, _ in exported(tree)]
    # The eager import comes first in the file, then the lazy table, in its order.
    assert names == ["SharedExpert", "RMSNorm", "OffsetRMSNorm", "GQAAttention", "GroupedExperts", "MLAAttention",
                     "DSAAttention", "DeepseekV32DSAAttention", "EngramModule", "NgramHashMapping",
                     "PipelinedMhcModule", "SharedCompressedDSAAttention", "SwiGLUMLP", "ChunkedSwiGLUMLP",
                     "HeadChunkGQAAttention"]
    framework = read_framework(tree)
    assert framework.todos == []
    shared = next(c for c in framework.components if c.name == "SharedExpert")
    assert (shared.package, shared.submodule, str(shared.site)) == (
        "hyper_parallel.components.modules", "shared_expert", "hyper_parallel/components/modules/shared_expert.py:18")
    assert [(p.name, p.value.kind, p.value.value, p.keyword_only) for p in shared.signature] == [
        ("module", "required", None, True), ("module_fqn", "literal", "", True), ("context", "literal", None, True)]
    # Only the component a family renders (qwen3's factories hand GQAAttention a function) carries its
    # source, each block after the ones it needs.
    rendered = [c.name for c in framework.components if c.source]
    gqa = next(c for c in framework.components if c.name == "GQAAttention")
    assert rendered == ["GQAAttention"]
    assert [b.defines for b in gqa.source] == [["rotate_half"], ["_apply_gqa_rope"], ["_projections_can_fuse"],
                                              ["GQAAttention"]]
    assert gqa.source[-1].text == (SOURCE / "plugins/components/python/gqa_attention.py").read_text(encoding="utf-8")


def test_a_decorated_component_the_package_does_not_name_is_declared_too(tree):
    rel = "hyper_parallel/components/modules/shared_expert.py"
    text = tree.path(rel).read_text(encoding="utf-8")
    tree.path(rel.replace("shared_expert", "routed_expert")).write_text(
        text.replace("class SharedExpert", "class RoutedExpert"), encoding="utf-8")
    names = [name for name, _ in exported(SourceTree(tree.root))]
    assert names[-1] == "RoutedExpert" and names.count("RoutedExpert") == 1


def test_sync_framework_writes_plugins_components(tmp_path, capsys):
    out = tmp_path / "components"
    code = main(["--source-root", str(RUNTIME), "--framework", "--out", str(out)])
    captured = capsys.readouterr()
    assert (code, captured.err) == (0, "")
    assert captured.out == (f"famspec sync: components (15 components, 4 source blocks) -> {out}: .famspec-sync.json, "
                            "CMakeLists.txt, plugin.cpp, python/apply_gqa_rope.py, python/gqa_attention.py, "
                            "python/projections_can_fuse.py, python/rotate_half.py changed\n")
    shipped = SOURCE / "plugins" / "components"
    for rel in ("python/gqa_attention.py", "python/rotate_half.py"):
        assert (out / rel).read_bytes() == (shipped / rel).read_bytes()


def test_a_module_level_alias_of_a_cp_wrapper_is_declared_beside_it(declarations):
    family = read_family(RUNTIME, "deepseek_v41", declarations)
    targets = [(w.target, str(w.site)) for w in family.cp_wrappers if w.target.startswith(V41_CP)]
    assert targets == [
        (f"{V41_CP}.deepseek_v41_shared_attention_parallel_wrapper",
         "hyper_parallel/models/deepseek_v41/adapter/distributed/shared_attention_context_parallel.py:1"),
        (f"{V41_CP}.deepseek_v41_shared_attention_cp_wrapper",
         "hyper_parallel/models/deepseek_v41/adapter/distributed/shared_attention_context_parallel.py:6"),
    ]
    # The audit follows the alias to the def it names: ok, not unreadable.
    report = run_audit(declarations, RUNTIME, ["deepseek_v41"])
    alias = [f for f in report.findings if f.subject == f"{V41_CP}.deepseek_v41_shared_attention_cp_wrapper"]
    assert [f.status for f in alias] == ["ok"]


def test_a_module_level_alias_of_a_compute_function_is_a_compute_function(tree, declarations):
    rel = "hyper_parallel/models/kimi_k26/adapter/expert_parallel.py"
    with open(tree.path(rel), "a", encoding="utf-8") as handle:
        handle.write("\n\nkimi_k25_ep_compute_fn = kimi_k26_ep_compute_fn\n")
    line = tree.line_of(rel, "kimi_k25_ep_compute_fn =")
    family = read_family(tree.root, "kimi_k26", declarations)
    module = f"{MODELS}.kimi_k26.adapter.expert_parallel"
    assert (f"{module}.kimi_k25_ep_compute_fn", f"{rel}:{line}") in [(t, str(s)) for t, s in family.compute_functions]


def test_a_registration_under_if_else_is_refused_with_its_line(tree, tmp_path, sync):
    tree.replace(DEEPSEEK_V3_REGISTRATION,
                 "# DeepSeek-V2: its own identity, registered from this directory, with no replacement factories.\n"
                 "register_model_adapter(\n"
                 "    ModelAdapterSpec(\n"
                 "        model_type=\"deepseek_v2\",\n"
                 "        architecture=\"DeepseekV2ForCausalLM\",\n"
                 "    )\n"
                 ")\n",
                 "if importlib.util.find_spec(\"deepseek_v2_kernels\"):\n"
                 "    register_model_adapter(ModelAdapterSpec(model_type=\"deepseek_v2\",\n"
                 "                                            architecture=\"DeepseekV2ForCausalLM\"))\n"
                 "else:\n"
                 "    register_model_adapter(ModelAdapterSpec(model_type=\"deepseek_v2\",\n"
                 "                                            architecture=\"DeepseekV2ForCausalLM\"))\n")
    branch = tree.line_of(DEEPSEEK_V3_REGISTRATION, "if importlib")
    out = tmp_path / "deepseek_v3"
    code, stdout, stderr = sync(tree.root, "deepseek_v3", out)
    assert (code, stdout) == (1, "")
    assert stderr == (f"famspec sync: {DEEPSEEK_V3_REGISTRATION}:{branch + 1}: the registration of deepseek_v2 cannot "
                      f"be read: it is made inside the `if` statement at line {branch}, so whether (and which) "
                      "registration the runtime makes is decided when it runs; sync reads only a registration made "
                      "unconditionally at module level; nothing was written\n")
    assert not out.exists()


def test_a_spec_registered_only_inside_a_branch_is_refused(tree, tmp_path, sync):
    rel = "hyper_parallel/models/kimi_linear/adapter/registration.py"
    tree.replace(rel, "register_model_adapter(KIMI_LINEAR_ADAPTER_SPEC)",
                 "for _ in range(1):\n    register_model_adapter(KIMI_LINEAR_ADAPTER_SPEC)")
    line = tree.line_of(rel, "KIMI_LINEAR_ADAPTER_SPEC = ModelAdapterSpec(")
    code, _, stderr = sync(tree.root, "kimi_linear", tmp_path / "kimi_linear")
    assert code == 1
    assert stderr.startswith(f"famspec sync: {rel}:{line}: the registration of kimi_linear cannot be read: "
                             "KIMI_LINEAR_ADAPTER_SPEC is passed to register_model_adapter only inside a branch")


def test_sync_all_reproduces_every_shipped_plugin(tmp_path, capsys):
    out = tmp_path / "plugins"
    code, stdout, stderr = _all(RUNTIME, out, "--json", capsys=capsys)
    assert (code, stderr) == (0, "")
    records = [json.loads(line) for line in stdout.splitlines()]
    assert [r["family"] for r in records] == ["components", *sorted(SHIPPED)]
    assert {r["status"] for r in records} == {"generated"}
    for record in records:
        project = SOURCE / "plugins" / record["family"]
        generated = snapshot(out / record["family"])
        shipped = snapshot(project)
        # The version is its author's: a new project starts at 0.1.0, the shipped ones are at 1.0.0.
        for files in (generated, shipped):
            for rel in ("plugin.cpp", "CMakeLists.txt"):
                files[rel] = files[rel].replace(b"1.0.0", b"0.1.0")
        assert generated == shipped, record["family"]
    # Run again: every record says unchanged, and --check agrees.
    code, stdout, _ = _all(RUNTIME, out, capsys=capsys)
    assert code == 0
    assert stdout.splitlines()[0] == f"famspec sync: components -> {out / 'components'}: unchanged"
    assert all(line.endswith(": unchanged") for line in stdout.splitlines())
    assert _all(RUNTIME, out, "--check", capsys=capsys)[0] == 0


def test_sync_all_refuses_one_family_and_writes_the_others(tree, tmp_path, capsys):
    spec = "register_model_adapter(\n    ModelAdapterSpec(\n        model_type=\"deepseek_v2\""
    tree.replace(DEEPSEEK_V3_REGISTRATION, spec, "if True:\n  " + spec)
    out = tmp_path / "plugins"
    code, stdout, _ = _all(tree.root, out, "--json", capsys=capsys)
    records = {r["family"]: r for r in map(json.loads, stdout.splitlines())}
    assert code == 1
    refused = records["deepseek_v3"]
    assert refused["status"] == "refused" and refused["changed"] == []
    assert "the registration of deepseek_v2 cannot be read: it is made inside the `if` statement" in refused["reason"]
    assert not (out / "deepseek_v3").exists()
    assert [f for f, r in records.items() if r["status"] != "generated"] == ["deepseek_v3"]


def test_sync_all_declares_each_component_once(tree, tmp_path, capsys):
    """A component two families construct, and the framework does not declare, goes to the first family."""
    out = tmp_path / "plugins"
    code, _, _ = _all(tree.root, out, capsys=capsys)
    assert code == 0
    declared = [line for p in sorted(out.glob("*/plugin.cpp")) for line in p.read_text(encoding="utf-8").splitlines()
                if line.strip().startswith("{.name = ")]
    assert len(declared) == len(set(declared)) == 15 + 1  # the framework's, and acme_moe's AcmeNorm


def test_the_source_root_is_found_in_the_interpreter_without_importing_the_runtime(tmp_path):
    site = tmp_path / "site-packages"
    (site / "hyper_parallel" / "models").mkdir(parents=True)
    # Importing it would fail: sync must only locate it.
    (site / "hyper_parallel" / "__init__.py").write_text("raise SystemExit('imported')\n", encoding="utf-8")
    probe = ("import sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]\n"
             "from famspec.sync.installed import source_root\n"
             "print(source_root()); print('hyper_parallel' in sys.modules)")
    package = Path(famspec.__file__).parent.parent  # the built package, with its extension
    done = subprocess.run([sys.executable, "-c", probe, str(package), str(site)], capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{site}\nFalse\n", "")


def test_without_a_source_root_or_an_installed_runtime_sync_says_so(tmp_path):
    from famspec.sync.errors import SyncError
    from famspec.sync.installed import source_root

    try:
        source_root([str(tmp_path)])
    except SyncError as error:
        assert str(error).startswith("--source-root is not given and no hyper_parallel package is installed on ")
    else:
        raise AssertionError("no error")


def test_build_names_the_family_and_the_first_compiler_error():
    from famspec.sync.build import first_error

    output = ("[ 50%] Building CXX object CMakeFiles/x.dir/plugin.cpp.o\n"
              "/p/qwen3/plugin.cpp:12:5: error: expected '}' before ';' token\n"
              "/p/qwen3/plugin.cpp:14:1: error: expected declaration\n")
    assert first_error(output) == "/p/qwen3/plugin.cpp:12:5: error: expected '}' before ';' token"
    assert first_error("") == "no output"


DEEPSEEK_V3_ADAPTER = "hyper_parallel/models/deepseek_v3/adapter"


def _drop(tree, rel: str, name: str) -> None:
    text = tree.path(rel).read_text(encoding="utf-8")
    start = text.index(f"@module_replacement\ndef {name}(")
    end = text.find("\n\n\n", start)
    tree.path(rel).write_text(text[:start] + (text[end + 3:] if end >= 0 else ""), encoding="utf-8")


def test_two_layouts_that_share_no_factory_answer_each_factory_under_its_own_module(tree, declarations):
    """Upstream's deepseek_v3 at one commit: the low-precision factories in adapter.replacements, the others
    in adapter.conversion.module_replacement. Each is declared by its full path, with no provider that
    would place it under both."""
    _drop(tree, f"{DEEPSEEK_V3_ADAPTER}/replacements.py", "replace_linear")
    _drop(tree, f"{DEEPSEEK_V3_ADAPTER}/replacements.py", "replace_grouped_experts")
    _drop(tree, f"{DEEPSEEK_V3_ADAPTER}/conversion/module_replacement.py", "replace_mxfp8_grouped_experts")
    _drop(tree, f"{DEEPSEEK_V3_ADAPTER}/conversion/module_replacement.py", "replace_hifloat8_grouped_experts")
    family = read_family(tree.root, "deepseek_v3", declarations)
    assert (family.providers, family.todos) == ([], [])
    assert [f"{f.provider}.{f.name}" for f in family.factories] == [
        f"{MODELS}.deepseek_v3.adapter.replacements.replace_mxfp8_grouped_experts",
        f"{MODELS}.deepseek_v3.adapter.replacements.replace_hifloat8_grouped_experts",
        f"{MODELS}.deepseek_v3.adapter.conversion.module_replacement.replace_linear",
        f"{MODELS}.deepseek_v3.adapter.conversion.module_replacement.replace_grouped_experts",
    ]


def test_two_layouts_that_share_some_factories_declare_each_where_it_is_defined(tree, declarations):
    """replace_linear is left in adapter.replacements alone: it is declared there only, and every factory
    both layouts define is declared under each, so no target answers under a module that lacks it."""
    _drop(tree, f"{DEEPSEEK_V3_ADAPTER}/conversion/module_replacement.py", "replace_linear")
    family = read_family(tree.root, "deepseek_v3", declarations)
    assert (family.providers, family.todos) == ([], [])
    targets = [f"{f.provider}.{f.name}" for f in family.factories]
    replacements = f"{MODELS}.deepseek_v3.adapter.replacements"
    conversion = f"{MODELS}.deepseek_v3.adapter.conversion.module_replacement"
    assert f"{replacements}.replace_linear" in targets
    assert f"{conversion}.replace_linear" not in targets
    shared = sorted(t.rsplit(".", 1)[1] for t in targets if t.startswith(conversion + "."))
    assert shared and shared == sorted(t.rsplit(".", 1)[1] for t in targets
                                       if t.startswith(replacements + ".") and not t.endswith(".replace_linear"))
    assert len(targets) == len(set(targets)) == 2 * len(shared) + 1


def test_the_framework_declares_the_archetypes_and_cp_wrappers_of_no_family(tree, tmp_path):
    """As upstream lays it out: no family folder defines DeepseekV3MoE, and the framework's CP wrappers
    live in hyper_parallel/distributed/context_parallel/wrappers.py: the framework's plugin declares them
    at its top level, each once, and no family's plugin does."""
    rel = "hyper_parallel/distributed/context_parallel/wrappers.py"
    with open(tree.path(rel), "a", encoding="utf-8") as handle:
        handle.write("\n\nsdpa_hf_balanced_cp_wrapper = sdpa_hf_load_balance_cp_wrapper\n")
    framework = read_framework(SourceTree(tree.root))
    assert [(str(a.site), a.target_class, a.compute_factory) for a in framework.archetypes] == [
        ("hyper_parallel/distributed/expert_parallel/archetypes.py:26", "DeepseekV3MoE",
         "hyper_parallel.distributed.expert_parallel.recipes.deepseekv3_ep_compute_fn")]
    context_parallel = "hyper_parallel.distributed.context_parallel.wrappers"
    assert [(str(w.site), w.target[len(context_parallel) + 1:], [p.name for p in w.options])
            for w in framework.cp_wrappers] == [
        (f"{rel}:17", "sdpa_qkv_cp_wrapper", []),
        (f"{rel}:22", "sdpa_hf_cp_wrapper", []),
        (f"{rel}:27", "sdpa_hf_load_balance_cp_wrapper", []),
        (f"{rel}:32", "sdpa_hf_hybrid_cp_wrapper", ["ulysses_degree"]),
        (f"{rel}:36", "sdpa_hf_balanced_cp_wrapper", []),
    ]
    assert framework.todos == []
    out = tmp_path / "components"
    assert main(["--source-root", str(tree.root), "--framework", "--out", str(out)]) == 0
    plugin = (out / "plugin.cpp").read_text(encoding="utf-8")
    assert ('        .archetypes = {\n'
            '            {.fingerprint = {.router = MoeRouter::topk_router_module, .shared_experts = '
            'SharedExperts::additive, .expert_storage = ExpertStorage::batched_parameters},\n') in plugin
    assert ('        .cp_wrappers = {\n'
            f'            {{.target = "{context_parallel}.sdpa_qkv_cp_wrapper",\n'
            f'             .where = "{rel}:17"}},\n') in plugin
    assert (f'            {{.target = "{context_parallel}.sdpa_hf_hybrid_cp_wrapper",\n'
            '             .options = {param("ulysses_degree")},\n') in plugin


def test_a_function_or_constant_the_package_imports_is_no_component(tree):
    rel = "hyper_parallel/components/modules/shared_expert.py"
    with open(tree.path(rel), "a", encoding="utf-8") as handle:
        handle.write("\n\nEXPERT_ACTIVATIONS = ('silu',)\n\n\ndef fuse_experts(module):\n    return module\n")
    tree.replace("hyper_parallel/components/modules/__init__.py",
                 "import SharedExpert\n", "import EXPERT_ACTIVATIONS, SharedExpert, fuse_experts\n")
    names = [name for name, _ in exported(SourceTree(tree.root))]
    assert "SharedExpert" in names and "EXPERT_ACTIVATIONS" not in names and "fuse_experts" not in names


QWEN3_5_CP = "hyper_parallel.models.qwen3_5.adapter.distributed.context_parallel"


def test_a_family_borrowing_another_familys_cp_module_declares_its_wrappers_as_borrowed(tree, tmp_path, sync,
                                                                                        declarations):
    """A fork of upstream (2b589a2f): qwen3_5_moe's context_parallel provider is qwen3_5's module. Its plugin
    lists the wrappers as borrowed, so they answer for it under --strict; qwen3_5's plugin alone declares
    (and claims) them."""
    rel = "hyper_parallel/models/qwen3_5_moe/adapter/registration.py"
    tree.replace(rel, "from hyper_parallel.models.registry import register_model_adapter\n",
                 "from hyper_parallel.models.registry import register_model_adapter\n\n\n"
                 "def _load_context_parallel():\n"
                 f"    from {QWEN3_5_CP.rsplit('.', 1)[0]} import context_parallel\n"
                 "    return context_parallel\n")
    tree.replace(rel, '        architecture="Qwen3_5MoeForConditionalGeneration",\n',
                 '        architecture="Qwen3_5MoeForConditionalGeneration",\n'
                 "        context_parallel=_load_context_parallel,\n")
    family = read_family(tree.root, "qwen3_5_moe", declarations)
    cp = "hyper_parallel/models/qwen3_5/adapter/distributed/context_parallel.py"
    assert [(target, str(site)) for target, site in family.borrowed_cp_wrappers] == [
        (f"{QWEN3_5_CP}.qwen3_5_gdn_ulysses_cp_wrapper", f"{cp}:7"),
        (f"{QWEN3_5_CP}.qwen3_5_gdn_p2p_cp_wrapper", f"{cp}:13"),
    ]
    assert (family.cp_wrappers, family.todos) == ([], [])
    out = tmp_path / "qwen3_5_moe"
    assert sync(tree.root, "qwen3_5_moe", out)[0] == 0
    plugin = (out / "plugin.cpp").read_text(encoding="utf-8")
    assert ('             .borrowed_cp_wrappers = {\n'
            f'                 // {cp}:7\n'
            f'                 "{QWEN3_5_CP}.qwen3_5_gdn_ulysses_cp_wrapper",\n'
            f'                 // {cp}:13\n'
            f'                 "{QWEN3_5_CP}.qwen3_5_gdn_p2p_cp_wrapper",\n'
            '             }},\n') in plugin
    assert ".cp_wrappers" not in plugin
    # The lender's plugin still declares them, as its own.
    lender = read_family(tree.root, "qwen3_5", declarations)
    assert [w.target for w in lender.cp_wrappers] == [t for t, _ in family.borrowed_cp_wrappers]
