"""famspec sync in-process: what it reads from the runtime tree, what it writes, and how it refuses."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import RUNTIME, SHIPPED, SOURCE, snapshot
from famspec import __version__
from famspec.sync import read_family
from runtime_tree import required as _required

QWEN = "hyper_parallel/models/qwen3_moe/adapter"
ACME_ADAPTER = "hyper_parallel/models/acme_moe/adapter"
# A declaration written by hand after the generated region: an amendment of the generated family.
AMENDED = ('        .amendments = {{.model_type = "qwen3_moe",\n'
           '                        .aliases = {"qwen3moe_local"},\n'
           '                        .factories = {{.target = "replace_qwen3_moe_by_hand", .where = FAMSPEC_HERE}}}},\n')


def _python(value):
    # repr, as the registry describes a default (1 is 1, not True: no dict lookup keyed by bools).
    return repr(value)


def _parameters(params) -> list[dict]:
    out = []
    for p in params:
        entry = {"name": p.name, "kind": "keyword_only" if p.keyword_only else "positional"}
        if p.value.kind == "literal":
            entry["default"] = _python(p.value.value)
        out.append(entry)
    return out


def _as_described(family) -> dict:
    """What the registry would describe for the generated declarations (the fields sync decides)."""
    providers = [p for p, _ in family.providers]

    def factory(f):
        construction = None
        if f.mode != "runtime_only":
            binding = {"bind": "parameter", "pass": "literal", "hand_over": "interface"}
            construction = {
                "component": f.component,
                "import_module": f.import_module,
                "module_passed": {"wraps": "keyword", "wraps_positionally": "positional", "replaces": "none"}[f.mode],
                "arguments": [{"name": a.keyword, "binding": binding[a.binding], "value": a.value}
                              for a in f.arguments],
            }
        out = {"target": f"{f.provider}.{f.name}", "runtime_only": f.mode == "runtime_only",
               "construction": construction, "parameters": _parameters(f.options)}
        if f.mode == "runtime_only":
            out["runtime_only_reason"] = f.runtime_only_reason
        return out

    return {
        "model_type": family.model_type,
        "architecture": family.architecture,
        "aliases": [a for a, _ in family.aliases],
        "directory_aliases": [a for a, _ in family.directory_aliases],
        "provider_modules": sorted(providers),
        "factories": sorted((factory(f) for f in family.factories), key=lambda f: f["target"]),
        "cp_wrappers": sorted(({"target": w.target, "options": _parameters(w.options)} for w in family.cp_wrappers),
                              key=lambda w: w["target"]),
        "compute_functions": sorted(t for t, _ in family.compute_functions),
        "archetypes": sorted(({"compute_factory": a.compute_factory, "fingerprint": list(a.fingerprint),
                               "kind": a.kind, "target_class": a.target_class, "router_kind": a.router_kind,
                               "shared": a.shared, "strip_boundary_subpatterns": list(a.strip_boundary_subpatterns),
                               "options": _parameters(a.options)} for a in family.archetypes),
                             key=lambda a: a["compute_factory"]),
    }


def _shipped(declarations: dict, model_type: str) -> dict:
    family = next(f for f in declarations["families"] if f["model_type"] == model_type)
    out = {k: family[k] for k in ("model_type", "architecture", "aliases", "directory_aliases", "compute_functions")}
    # A family that names no provider resolves its factories in the modules their targets name.
    out["provider_modules"] = family["provider_modules"] or sorted(
        {f["target"].rsplit(".", 1)[0] for f in family["factories"]})
    out["factories"] = [
        {k: f[k] for k in ("target", "runtime_only", "construction", "parameters", "runtime_only_reason") if k in f}
        for f in family["factories"]
    ]
    for f in out["factories"]:  # every factory takes the runtime's three; the others are its options
        f["parameters"] = [p for p in f["parameters"] if p["name"] not in ("module", "module_fqn", "context")]
    for f in out["factories"]:
        if f["construction"]:
            f["construction"] = {k: v for k, v in f["construction"].items() if k != "mode"}
    out["cp_wrappers"] = [{"target": w["target"], "options": [{k: o[k] for k in ("name", "kind", "default") if k in o}
                                                              for o in w["options"]]} for w in family["cp_wrappers"]]
    out["archetypes"] = [{k: v for k, v in a.items() if k not in ("plugin", "where")} for a in family["archetypes"]]
    return out


@pytest.mark.parametrize("model_type", SHIPPED)
def test_what_sync_reads_is_what_the_shipped_plugin_declares(declarations, model_type):
    family = read_family(RUNTIME, model_type, declarations)
    assert family.todos == []
    assert family.components == []  # the shipped components plugin declares every one of them
    assert _as_described(family) == _shipped(declarations, model_type)


def test_the_handed_over_function_is_the_shipped_plugins_python(declarations):
    family = read_family(RUNTIME, "Qwen3MoeForCausalLM", declarations)
    assets = SOURCE / "plugins" / "qwen3_moe" / "python"
    assert [b.defines for b in family.interface] == [
        ["run_qwen3_moe_flash_attention"],
        ["_get_compressed_causal_mask"],
        ["_COMPRESSED_CAUSAL_MASK_SIZE", "_COMPRESSED_CAUSAL_MASKS"],
    ]
    assert [b.text for b in family.interface] == [
        (assets / name).read_text(encoding="utf-8")
        for name in ("run_qwen3_moe_flash_attention.py", "get_compressed_causal_mask.py",
                     "compressed_causal_mask_size.py")
    ]
    assert [b.imports for b in family.interface] == [["import torch", "import torch_npu"], ["import torch"], []]
    assert family.interface[0].needs == ["torch", "torch_npu", "_get_compressed_causal_mask"]
    assert [str(b.site) for b in family.interface] == [f"{QWEN}/attention.py:18", f"{QWEN}/attention.py:8",
                                                       f"{QWEN}/attention.py:4"]


def test_qwen3_moe_project_reads_like_a_shipped_plugin(tmp_path, sync):
    out = tmp_path / "qwen3_moe"
    code, stdout, stderr = sync(RUNTIME, "qwen3moe", out)
    assert code == 0, stderr
    assert stderr == ""
    assert stdout.startswith("famspec sync: qwen3_moe (3 factories, 7 CP wrappers, 1 archetypes, 0 compute functions")
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        ".famspec-sync.json", "CMakeLists.txt", "plugin.cpp", "python/compressed_causal_mask_size.py",
        "python/get_compressed_causal_mask.py", "python/run_qwen3_moe_flash_attention.py",
    ]
    plugin = (out / "plugin.cpp").read_text(encoding="utf-8")
    # Each declaration's runtime file:line is its `where`, which messages about it name.
    expected = f"""                 {{.target = "replace_qwen3_moe_flash_attention",
                  .constructs = wraps("GQAAttention", "hyper_parallel.components.modules"),
                  .arguments = {{bind("module_fqn"), bind("context"),
                                hand_over("attention_interface", "run_qwen3_moe_flash_attention")}},
                  .where = "{QWEN}/replacements.py:13"}},
"""
    assert expected in plugin
    assert ('FAMSPEC_PLUGIN(\n    "qwen3_moe", "0.1.0", "Qwen3MoeForCausalLM family, generated by famspec sync",\n'
            f'    Plugin{{\n        .families = {{\n            {{.model_type = "qwen3_moe",\n'
            f'             .architecture = "Qwen3MoeForCausalLM",\n             .where = "{QWEN}/registration.py:22",\n'
            f'             .providers = {{\n                 // {QWEN}/registration.py:11\n') in plugin
    assert plugin.index("replace_qwen3_moe_rms_norm") < plugin.index("replace_qwen3_moe_flash_attention") < \
        plugin.index("replace_qwen3_moe_grouped_experts") < plugin.index(".cp_wrappers = {") < \
        plugin.index(".archetypes = {")
    assert '                  .options = {kw_only, param("use_grouped_gemm", false)},\n' in plugin
    assert "                  .text = famspec_assets::run_qwen3_moe_flash_attention}," in plugin
    assert '#include "qwen3_moe_assets.hpp"' in plugin
    assert "TODO" not in plugin
    cmake = (out / "CMakeLists.txt").read_text(encoding="utf-8")
    assert "famspec_add_plugin(qwen3_moe\n    SOURCES plugin.cpp\n    INSTALL_DESTINATION ${famspec_PLUGIN_DIR}\n" in cmake
    assert "    ASSETS\n        python/run_qwen3_moe_flash_attention.py\n" in cmake
    # Alone it finds the installed famspec; in famspec's tree (plugins/) it is a subdirectory of the build.
    requirement = ".".join(__version__.split(".")[:2])
    assert f"if(NOT DEFINED FAMSPEC_PLUGIN_OUTPUT_DIR)\n    find_package(famspec {requirement} CONFIG REQUIRED)\nendif()\n" \
        in cmake
    assert "    add_test(NAME verify_qwen3_moe\n        COMMAND famspec::famspec verify --plugin-path ${CMAKE_BINARY_DIR}" \
        "/plugins)\n" in cmake
    # The project under plugins/ is this one, the version its author set aside.
    shipped = (SOURCE / "plugins" / "qwen3_moe" / "plugin.cpp").read_text(encoding="utf-8")
    assert shipped == plugin.replace('    "qwen3_moe", "0.1.0",', '    "qwen3_moe", "1.0.0",')
    shipped = (SOURCE / "plugins" / "qwen3_moe" / "CMakeLists.txt").read_text(encoding="utf-8")
    assert shipped == cmake.replace("project(qwen3_moe_family VERSION 0.1.0", "project(qwen3_moe_family VERSION 1.0.0")


def test_a_new_family_declares_its_own_component_and_wrapper_options(tree, tmp_path, sync):
    out = tmp_path / "acme"
    code, _, stderr = sync(tree.root, "acme_moe", out)
    assert code == 0, stderr
    plugin = (out / "plugin.cpp").read_text(encoding="utf-8")
    # AcmeNorm is declared by no shipped plugin: the generated one declares it, from its __init__.
    assert """        .components = {
            {.package = "hyper_parallel.models.acme_moe",
             .components = {
                 {.name = "AcmeNorm",
                  .submodule = "modules",
                  .signature = {kw_only, param("module"), param("module_fqn", ""), param("context", famspec::none),
                                param("eps", 1e-06)},
                  .where = "hyper_parallel/models/acme_moe/modules.py:4"},
             }},
        },
""" in plugin
    # GQAAttention and GroupedExperts are the shipped components plugin's: not declared again.
    assert plugin.count(".name = ") == 1
    assert '.arguments = {bind("module_fqn"), bind("context"), pass("eps", "1e-05")},\n' in plugin
    assert '.options = {param("use_grouped_gemm", true)},\n' in plugin
    assert f"""                 {{.target = "replace_acme_moe_linear",
                  .runtime_only = "builds through LowPrecisionLinear.from_linear at runtime",
                  .where = "{ACME_ADAPTER}/conversion/module_replacement.py:26"}},
""" in plugin
    line = tree.line_of(f"{ACME_ADAPTER}/distributed/context_parallel.py", "def acme_moe_ring_attention")
    assert f"""                 {{.target = "hyper_parallel.models.acme_moe.adapter.distributed.context_parallel.acme_moe_ring_attention",
                  .options = {{kw_only, param("strategy", "zigzag", one_of{{"zigzag", "striped"}}),
                              param("backend", "npu", one_of{{"npu", "sdpa"}})}},
                  .where = "{ACME_ADAPTER}/distributed/context_parallel.py:{line}"}},
""" in plugin
    assert "_split_sequence" not in plugin  # a private helper of the module is no wrapper
    assert f"""             .compute_functions = {{
                 // {ACME_ADAPTER}/distributed/expert_parallel.py:5
                 "hyper_parallel.models.acme_moe.adapter.distributed.expert_parallel.acme_moe_ep_compute_fn",
             }},
""" in plugin
    assert (out / "python" / "acme_attention.py").read_text(encoding="utf-8").startswith("def acme_attention(")
    assert (out / "python" / "softmax_dtype.py").read_text(encoding="utf-8") == "_SOFTMAX_DTYPE = torch.float32\n"
    assert '.imports = {"import torch", "from torch.nn import functional as F"},' in plugin


def test_check_is_0_when_current_and_1_with_a_diff_after_a_source_change(tree, tmp_path, sync):
    out = tmp_path / "qwen3_moe"
    assert sync(tree.root, "qwen3_moe", out)[0] == 0
    before = snapshot(out)
    code, stdout, stderr = sync(tree.root, "qwen3_moe", out, "--check")
    assert (code, stdout, stderr) == (0, "", "")
    tree.replace(f"{QWEN}/replacements.py", "return RMSNorm(module=module, module_fqn=module_fqn, context=context)",
                 "return RMSNorm(module=module, module_fqn=module_fqn, context=context, eps=1e-06)")
    code, stdout, stderr = sync(tree.root, "qwen3_moe", out, "--check")
    assert code == 1
    assert stdout.startswith("--- a/plugin.cpp\n+++ b/plugin.cpp\n")
    assert ('-                  .arguments = {bind("module_fqn"), bind("context")},\n'
            '+                  .arguments = {bind("module_fqn"), bind("context"), pass("eps", "1e-06")},\n') in stdout
    assert "is not what the source generates" in stderr
    assert snapshot(out) == before  # --check writes nothing


def test_edits_outside_the_region_are_kept(tree, tmp_path, sync):
    out = tmp_path / "qwen3_moe"
    assert sync(tree.root, "qwen3_moe", out)[0] == 0
    plugin = out / "plugin.cpp"
    text = plugin.read_text(encoding="utf-8")
    edited = ("// Reviewed by the Qwen team.\n" + text).replace("        .amendments = {},\n", AMENDED)
    plugin.write_text(edited, encoding="utf-8")
    tree.replace(f"{QWEN}/distributed/context_parallel.py", "def qwen3_moe_flash_attention_cp_mask_wrapper",
                 "def qwen3_moe_flash_attention_cp_masked_wrapper")
    tree.replace(f"{QWEN}/distributed/context_parallel_async.py", "def qwen3_moe_flash_attention_cp_mask_wrapper",
                 "def qwen3_moe_flash_attention_cp_masked_wrapper")
    code, stdout, stderr = sync(tree.root, "qwen3_moe", out)
    assert code == 0, stderr
    assert stdout.endswith(f"-> {out}: plugin.cpp changed\n")
    regenerated = plugin.read_text(encoding="utf-8")
    assert regenerated.startswith("// Reviewed by the Qwen team.\n")
    assert regenerated.endswith(f"        // famspec sync: end generated region\n{AMENDED}    }});\n// clang-format on\n")
    assert "qwen3_moe_flash_attention_cp_masked_wrapper" in regenerated
    assert "qwen3_moe_flash_attention_cp_mask_wrapper\"" not in regenerated


def test_an_amendment_after_the_region_adds_to_the_generated_family_when_the_plugin_compiles(tmp_path, sync):
    """The plugin as the compiler makes it: the amendment's alias and factory are the family's own, its
    bare factory name placed in the family's first provider."""
    out = tmp_path / "deepseek_v3"
    assert sync(RUNTIME, "deepseek_v3", out)[0] == 0
    plugin = out / "plugin.cpp"
    amended = ('        .amendments = {{.model_type = "deepseek_v3",\n'
               '                        .aliases = {"deepseek-v3-local"},\n'
               '                        .factories = {{.target = "replace_by_hand", .where = FAMSPEC_HERE}}}},\n')
    plugin.write_text(plugin.read_text(encoding="utf-8").replace("        .amendments = {},\n", amended) + """
constexpr auto& tables = famspec_plugin_tables;
using namespace famspec::tables;
constexpr const auto& families = tables.rows<FamilyRow>();
static_assert(families.size() == 2 && tables.text(families[1].model_type) == "deepseek_v2");
static_assert(families[0].aliases.count == 1 && families[0].factories.count == 5);
static_assert(tables.text(tables.rows<Text>()[families[0].aliases.first]) == "deepseek-v3-local");
static_assert(tables.text(tables.rows<FactoryRow>()[4].target) ==
              "hyper_parallel.models.deepseek_v3.adapter.replacements.replace_by_hand");
""", encoding="utf-8")
    assert sync(RUNTIME, "deepseek_v3", out, "--check")[:2] == (0, "")  # the author's text is not sync's
    build = Path(_required("FAMSPEC_BUILD_DIR"))
    result = subprocess.run([shutil.which("c++") or "g++", "-std=c++20", "-fsyntax-only", "-Wall", "-Werror",
                             f"-I{SOURCE / 'sdk' / 'include'}", f"-I{build / 'include'}", plugin],
                            capture_output=True, text=True, timeout=120)
    assert (result.returncode, result.stderr) == (0, "")
    # An amendment of a family the plugin does not declare stops the build, naming the mistake.
    plugin.write_text(plugin.read_text(encoding="utf-8").replace('.amendments = {{.model_type = "deepseek_v3"',
                                                                 '.amendments = {{.model_type = "deepseek_v4"'),
                      encoding="utf-8")
    result = subprocess.run([shutil.which("c++") or "g++", "-std=c++20", "-fsyntax-only",
                             f"-I{SOURCE / 'sdk' / 'include'}", f"-I{build / 'include'}", plugin],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0 and "refused_an_amendment_names_no_family_of_this_plugin" in result.stderr


def test_a_plugin_sync_wrote_as_a_register_function_gets_the_table_forms_tail(tmp_path, sync):
    out = tmp_path / "qwen3_next"
    assert sync(RUNTIME, "qwen3_next", out)[0] == 0
    plugin = out / "plugin.cpp"
    text = plugin.read_text(encoding="utf-8")
    region_end = text.index("        // famspec sync: end generated region\n") + len("        // famspec sync: end generated region\n")
    register_form = text[:region_end] + "    family.register_into(registrar);\n}\n"
    plugin.write_text(register_form, encoding="utf-8")
    assert sync(RUNTIME, "qwen3_next", out)[0] == 0
    assert plugin.read_text(encoding="utf-8") == text
    # Declarations its author added to the register function cannot be carried over: refused, untouched.
    edited = register_form.replace("    family.register_into", '    family.alias("next");\n    family.register_into')
    plugin.write_text(edited, encoding="utf-8")
    code, stdout, stderr = sync(RUNTIME, "qwen3_next", out)
    assert (code, stdout) == (2, "")
    assert stderr == (f"famspec sync: {plugin}: what follows the generated region is the end of a register function "
                      "(famspec before ABI 4), with declarations added by hand: write each as an entry of "
                      ".amendments after the region (docs/plugin-authors.md), or move the file away and run sync "
                      "again; nothing was written\n")
    assert plugin.read_text(encoding="utf-8") == edited


def test_a_file_without_the_markers_or_an_edited_asset_is_never_overwritten(tmp_path, sync):
    out = tmp_path / "qwen3_moe"
    out.mkdir()
    (out / "plugin.cpp").write_text("// my own plugin\n", encoding="utf-8")
    code, stdout, stderr = sync(RUNTIME, "qwen3_moe", out)
    assert code == 2 and stdout == ""
    assert f"{out / 'plugin.cpp'} exists and does not hold exactly one region" in stderr
    assert snapshot(out) == {"plugin.cpp": b"// my own plugin\n"}

    (out / "plugin.cpp").unlink()
    assert sync(RUNTIME, "qwen3_moe", out)[0] == 0
    asset = out / "python" / "run_qwen3_moe_flash_attention.py"
    asset.write_text(asset.read_text(encoding="utf-8") + "# tuned by hand\n", encoding="utf-8")
    before = snapshot(out)
    code, _, stderr = sync(RUNTIME, "qwen3_moe", out)
    assert code == 2
    assert f"{asset} was not written by sync (or was edited since): refusing to overwrite it" in stderr
    assert snapshot(out) == before


def test_an_unreadable_factory_is_a_todo_with_its_position(tree, tmp_path, sync):
    rel = f"{QWEN}/replacements.py"
    tree.replace(rel, "return GroupedExperts(module=module, module_fqn=module_fqn, context=context)",
                 "return EXPERT_BUILDERS[type(module)](module)")
    line = tree.line_of(rel, "EXPERT_BUILDERS")
    out = tmp_path / "qwen3_moe"
    code, _, stderr = sync(tree.root, "qwen3_moe", out)
    message = (f"{rel}:{line}: hyper_parallel.models.qwen3_moe.adapter.replacements.replace_qwen3_moe_grouped_experts: "
               "calls `EXPERT_BUILDERS[type(module)]`, a computed callee")
    assert code == 1
    assert f"famspec sync: TODO {message}\n" in stderr
    assert "pass --allow-incomplete" in stderr
    plugin = (out / "plugin.cpp").read_text(encoding="utf-8")
    assert f"        // TODO(famspec sync) {message}; declare it by hand in .amendments, after the region\n" in plugin
    # The same factory in the other layout is still read: it is declared once, from there.
    assert '{.target = "hyper_parallel.models.qwen3_moe.adapter.conversion.module_replacement.' \
           'replace_qwen3_moe_grouped_experts",' in plugin
    assert sync(tree.root, "qwen3_moe", out, "--allow-incomplete")[0] == 0
    assert sync(tree.root, "qwen3_moe", out, "--allow-incomplete", "--check")[0] == 0


def test_a_syntax_error_in_a_provider_is_bad_input_and_nothing_is_written(tree, tmp_path, sync):
    rel = f"{QWEN}/conversion/module_replacement.py"
    tree.replace(rel, "def replace_qwen3_moe_rms_norm(module, module_fqn=\"\", context=None):",
                 "def replace_qwen3_moe_rms_norm(module, module_fqn=\"\", context=None)")
    line = tree.line_of(rel, "def replace_qwen3_moe_rms_norm")
    out = tmp_path / "qwen3_moe"
    code, stdout, stderr = sync(tree.root, "qwen3_moe", out)
    assert (code, stdout) == (2, "")
    assert stderr.startswith(f"famspec sync: {rel}:{line}: does not parse: ")
    assert "(a provider module); fix the file and run sync again" in stderr
    assert not out.exists()


def test_providers_importing_each_other_are_bad_input(tree, tmp_path, sync):
    tree.replace(f"{QWEN}/replacements.py", "from hyper_parallel.models.replacement import module_replacement",
                 "from hyper_parallel.models.replacement import module_replacement\n"
                 "from hyper_parallel.models.qwen3_moe.adapter.conversion.module_replacement import RMSNorm")
    tree.replace(f"{QWEN}/conversion/module_replacement.py",
                 "from hyper_parallel.models.replacement import module_replacement",
                 "from hyper_parallel.models.replacement import module_replacement\n"
                 "from hyper_parallel.models.qwen3_moe.adapter import replacements")
    out = tmp_path / "qwen3_moe"
    code, _, stderr = sync(tree.root, "qwen3_moe", out)
    assert code == 2
    assert ("provider modules import each other in a cycle: hyper_parallel.models.qwen3_moe.adapter.replacements -> "
            "hyper_parallel.models.qwen3_moe.adapter.conversion.module_replacement -> "
            "hyper_parallel.models.qwen3_moe.adapter.replacements") in stderr
    assert not out.exists()


def test_an_identity_only_family_gets_a_plugin_of_its_own(tmp_path, sync):
    out = tmp_path / "qwen3_next"
    code, stdout, stderr = sync(RUNTIME, "Qwen3NextForCausalLM", out)
    assert (code, stderr) == (0, "")
    assert stdout == (f"famspec sync: qwen3_next (0 factories, 0 CP wrappers, 0 archetypes, 0 compute functions, "
                      f"0 handed-over blocks, 0 components) -> {out}: .famspec-sync.json, CMakeLists.txt, plugin.cpp "
                      "changed\n")
    plugin = (out / "plugin.cpp").read_text(encoding="utf-8")
    assert plugin.endswith('        .families = {\n'
                           '            {.model_type = "qwen3_next",\n'
                           '             .architecture = "Qwen3NextForCausalLM",\n'
                           '             .where = "hyper_parallel/models/qwen3_next/adapter/registration.py:4"},\n'
                           "        },\n"
                           "        // famspec sync: end generated region\n"
                           "        .amendments = {},\n"
                           "    });\n"
                           "// clang-format on\n")
    assert "covered" not in stdout + stderr


def test_unknown_family_and_a_root_that_is_no_runtime(tmp_path, sync):
    code, _, stderr = sync(RUNTIME, "acme", tmp_path / "x")
    assert code == 2
    assert stderr.startswith(f"famspec sync: --family acme: no registration in {RUNTIME} declares it (families: ")
    code, _, stderr = sync(tmp_path, "qwen3_moe", tmp_path / "x")
    assert code == 2 and "no hyper_parallel/ in it" in stderr
    assert not (tmp_path / "x").exists()


def test_any_spelling_and_a_directory_alias_name_the_family(tmp_path, sync, declarations):
    for spelling in ("DeepseekV3ForCausalLM", "deepseek-v3", "DeepSeek_V3"):
        family = read_family(RUNTIME, spelling, declarations)
        assert family.model_type == "deepseek_v3"
    # DeepSeek-V2 is registered from DeepSeek-V3's file: that file's one plugin declares it.
    family = read_family(RUNTIME, "deepseek_v3", declarations)
    assert [(c.model_type, c.architecture, str(c.site)) for c in family.companions] == [
        ("deepseek_v2", "DeepseekV2ForCausalLM", "hyper_parallel/models/deepseek_v3/adapter/registration.py:17")]
    code, _, stderr = sync(RUNTIME, "deepseekv2", tmp_path / "v2")
    assert code == 2
    assert stderr == ("famspec sync: deepseek_v2 is registered at hyper_parallel/models/deepseek_v3/adapter/"
                      "registration.py:17, beside deepseek_v3: one plugin declares every family of that file; run "
                      "famspec sync --family deepseek_v3\n")
    assert not (tmp_path / "v2").exists()


def test_json_and_quiet(tree, tmp_path, sync):
    rel = f"{QWEN}/replacements.py"
    tree.replace(rel, "return GroupedExperts(module=module, module_fqn=module_fqn, context=context)",
                 "return build_experts(module)")
    line = tree.line_of(rel, "build_experts")
    out = tmp_path / "qwen3_moe"
    code, stdout, stderr = sync(tree.root, "qwen3_moe", out, "--json", "--quiet")
    assert (code, stderr) == (1, "")
    report = json.loads(stdout)
    assert report["exit_code"] == 1 and report["family"] == "qwen3_moe"
    assert report["changed"][:3] == [".famspec-sync.json", "CMakeLists.txt", "plugin.cpp"]
    assert report["todos"] == [{"file": rel, "line": line,
                                "subject": "hyper_parallel.models.qwen3_moe.adapter.replacements."
                                           "replace_qwen3_moe_grouped_experts",
                                "reason": "build_experts is neither imported nor defined"}]
    code, stdout, _ = sync(tree.root, "qwen3_moe", out, "--json", "--check", "--allow-incomplete")
    assert code == 0 and json.loads(stdout)["up_to_date"] is True
    code, stdout, _ = sync(tree.root, "nothing", out, "--json")
    assert code == 2
    assert json.loads(stdout)["error"]["kind"] == "bad_input"


def test_a_factory_that_differs_between_layouts_is_a_todo(tree, tmp_path, sync):
    rel = f"{QWEN}/conversion/module_replacement.py"
    tree.replace(rel, "    return RMSNorm(module=module, module_fqn=module_fqn, context=context)",
                 "    return RMSNorm(module=module, module_fqn=module_fqn, context=context, eps=1e-06)")
    line = tree.line_of(rel, "def replace_qwen3_moe_rms_norm")
    code, _, stderr = sync(tree.root, "qwen3_moe", tmp_path / "qwen3_moe")
    assert code == 1
    assert (f"famspec sync: TODO {rel}:{line}: hyper_parallel.models.qwen3_moe.adapter.conversion.module_replacement."
            f"replace_qwen3_moe_rms_norm: builds differently from the same factory at {QWEN}/replacements.py:6, "
            "which is the one declared\n") in stderr


def test_aliases_are_read_as_the_registry_writes_them(tree, tmp_path, sync):
    tree.replace("hyper_parallel/models/registry.py", "_FAMILY_ALIASES = {}",
                 '_FAMILY_ALIASES = {\n    "Acme-MoE": "acme_moe",\n    "qwen3": "qwen3_moe",\n}')
    out = tmp_path / "acme"
    code, _, stderr = sync(tree.root, "acme-moe", out)
    assert code == 0, stderr
    plugin = (out / "plugin.cpp").read_text(encoding="utf-8")
    assert ('             .aliases = {\n                 // hyper_parallel/models/registry.py:3\n'
            '                 "Acme-MoE",\n             },\n') in plugin
    assert "qwen3" not in plugin


def test_components_no_plugin_declares_are_read_through_the_lazy_export_table(tmp_path, capsys):
    from famspec.sync import main

    empty = tmp_path / "no-components.json"
    empty.write_text('{"families": [], "components": []}', encoding="utf-8")
    out = tmp_path / "qwen3_moe"
    code = main(["--source-root", str(RUNTIME), "--family", "qwen3_moe", "--out", str(out), "--declarations", str(empty)])
    stderr = capsys.readouterr().err
    assert (code, stderr) == (0, "")
    plugin = (out / "plugin.cpp").read_text(encoding="utf-8")
    modules = "hyper_parallel/components/modules"
    # hyper_parallel.components.modules re-exports through _EXPORTS and __getattr__: the class is found
    # in the submodule the table names, and declared under the package the factory imports from.
    assert f"""            {{.package = "hyper_parallel.components.modules",
             .components = {{
                 {{.name = "RMSNorm",
                  .submodule = "rms_norm",
                  .signature = {{param("hidden_size", famspec::none), param("eps", 1e-05), kw_only,
                                param("module", famspec::none), param("module_fqn", ""),
                                param("context", famspec::none)}},
                  .where = "{modules}/rms_norm.py:4"}},
""" in plugin
    assert '                 {.name = "GroupedExperts",\n                  .submodule = "grouped_experts",\n' in plugin
    # GQAAttention is rendered with the handed-over function: its own source is taken too, each block
    # after the ones it needs, the class from its own lines.
    assert f"""                  .source = {{
                      // {modules}/gqa_attention.py:10
                      {{.defines = {{"rotate_half"}},
                       .needs = {{"torch"}},
                       .imports = {{"import torch"}},
                       .text = famspec_assets::rotate_half}},
""" in plugin
    assert (out / "python" / "gqa_attention.py").read_bytes() == (
        SOURCE / "plugins" / "components" / "python" / "gqa_attention.py").read_bytes()
