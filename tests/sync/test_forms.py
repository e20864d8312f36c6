"""Every form in which the runtime's registrations name their providers, read by sync and by the audit
alike; archetypes attributed by where they are defined; and the forms nothing reads, refused with
their position and nothing written."""

from __future__ import annotations

import json

import pytest

from conftest import RUNTIME, snapshot
from famspec.audit import run_audit
from famspec.source.source_tree import SourceTree
from famspec.sync import read_family
from famspec.sync.framework import read_framework

MODELS = "hyper_parallel.models"
QWEN_REGISTRATION = "hyper_parallel/models/qwen3_moe/adapter/registration.py"
LOADER = '''def _load_replacements():
    """The replacement factories, imported when first needed."""
    from hyper_parallel.models.qwen3_moe.adapter import replacements  # pylint: disable=C0415

    return replacements
'''
QWEN_PROVIDERS = [f"{MODELS}.qwen3_moe.adapter.replacements", f"{MODELS}.qwen3_moe.adapter.conversion.module_replacement"]


def _providers(family) -> list[str]:
    return [p for p, _ in family.providers]


def test_a_named_loader_that_imports_from_a_package(declarations):
    family = read_family(RUNTIME, "qwen3_moe", declarations)
    assert _providers(family) == QWEN_PROVIDERS
    # The site is the loader's return, where the module is handed over.
    assert str(family.providers[0][1]) == f"{QWEN_REGISTRATION}:11"
    assert [f.name for f in family.factories] == [
        "replace_qwen3_moe_rms_norm", "replace_qwen3_moe_flash_attention", "replace_qwen3_moe_grouped_experts"]


def test_a_named_loader_with_importlib_inside(declarations):
    family = read_family(RUNTIME, "deepseek_v32", declarations)
    assert _providers(family) == [f"{MODELS}.deepseek_v32.adapter.conversion.module_replacement"]
    assert len(family.factories) == 3


def test_a_lambda(declarations):
    family = read_family(RUNTIME, "deepseek_v3", declarations)
    assert _providers(family) == [f"{MODELS}.deepseek_v3.adapter.replacements",
                                  f"{MODELS}.deepseek_v3.adapter.conversion.module_replacement"]
    # Factories that convert a module at runtime (from_module / from_linear) have nothing to sink.
    assert [(f.name, f.mode, f.runtime_only_reason) for f in family.factories] == [
        ("replace_linear", "runtime_only", "builds through LowPrecisionLinear.from_linear at runtime"),
        ("replace_grouped_experts", "runtime_only", "builds through GroupedExperts.from_module at runtime"),
        ("replace_mxfp8_grouped_experts", "runtime_only", "builds through MXFP8GroupedExperts.from_module at runtime"),
        ("replace_hifloat8_grouped_experts", "runtime_only",
         "builds through HiFloat8GroupedExperts.from_module at runtime"),
    ]


@pytest.mark.parametrize("loader", [
    "import hyper_parallel.models.qwen3_moe.adapter.replacements as replacements\n\n\n"
    "def _load_replacements():\n    return replacements\n",
    "def _load_replacements():\n    import hyper_parallel.models.qwen3_moe.adapter.replacements as module\n"
    "    return module\n",
    "def _load_replacements():\n    import hyper_parallel.models.qwen3_moe.adapter.replacements\n"
    "    return hyper_parallel.models.qwen3_moe.adapter.replacements\n",
    "def _load_replacements():\n    from ..adapter import replacements\n    return replacements\n",
    "def _load_replacements():\n    import importlib\n\n"
    "    return importlib.import_module('hyper_parallel.models.qwen3_moe.adapter.replacements')\n",
    "from hyper_parallel.models.qwen3_moe.adapter import replacements as _load_replacements\n",
], ids=["module-level-import-as", "import-as-inside", "dotted-import-inside", "relative-import-inside",
        "importlib-returned", "module-object"])
def test_every_other_way_of_writing_the_loader(tree, declarations, loader):
    tree.replace(QWEN_REGISTRATION, LOADER, loader)
    family = read_family(tree.root, "qwen3_moe", declarations)
    assert _providers(family) == QWEN_PROVIDERS
    assert len(family.factories) == 3 and family.todos == []


def test_a_provider_borrowed_from_another_family(declarations):
    family = read_family(RUNTIME, "kimi_linear", declarations)
    assert [(k, m, str(s), f) for k, m, s, f in family.borrowed] == [
        ("context_parallel", f"{MODELS}.kimi_k3.adapter.distributed.context_parallel",
         "hyper_parallel/models/kimi_k3/adapter/__init__.py:8", "kimi_k3")]
    # What the borrowed module holds is kimi_k3's to declare: declared once, by that plugin.
    assert family.cp_wrappers == [] and family.factories == []
    lender = read_family(RUNTIME, "kimi_k3", declarations)
    assert lender.borrowed == []
    assert [w.target.rsplit(".", 1)[1] for w in lender.cp_wrappers] == [
        "kimi_delta_attention_ulysses_cp_wrapper", "kimi_delta_attention_p2p_cp_wrapper",
        "kimi_delta_attention_cp_wrapper"]


def test_inner_wrapper_options_keyword_only_with_literal_values_and_positional_with_defaults(declarations):
    (mla,) = read_family(RUNTIME, "deepseek_v3", declarations).cp_wrappers
    assert [(p.name, p.value.value, p.keyword_only, p.choices) for p in mla.options] == [
        ("strategy", "expanded_ulysses", True, ("expanded_ulysses", "latent_kv_head")),
        ("backend", "npu", True, ("npu", "sdpa")),
    ]
    wrappers = {w.target.rsplit(".", 1)[1]: w for w in read_family(RUNTIME, "kimi_k3", declarations).cp_wrappers}
    assert [(p.name, p.value.value, p.keyword_only, p.choices)
            for p in wrappers["kimi_delta_attention_cp_wrapper"].options] == [
        ("backend", "triton", False, ()),
        ("state_cp_method", "p2p", False, ()),
        ("ulysses_degree", 1, False, ()),
        ("group_size", 1, False, ()),
    ]
    for name in ("kimi_delta_attention_p2p_cp_wrapper", "kimi_delta_attention_ulysses_cp_wrapper"):
        assert [(p.name, p.value.value, p.keyword_only) for p in wrappers[name].options] == [
            ("backend", "eager", False), ("chunk_size", 64, False)]
    qwen = read_family(RUNTIME, "qwen3_moe", declarations)
    assert [w.target[len(f"{MODELS}.qwen3_moe.adapter.distributed."):] for w in qwen.cp_wrappers] == [
        "context_parallel.qwen3_moe_flash_attention_cp_wrapper",
        "context_parallel.qwen3_moe_flash_attention_cp_mask_wrapper",
        "context_parallel.qwen3_moe_flash_attention_ulysses_cp_wrapper",
        "context_parallel_async.qwen3_moe_async_colossal_cp_wrapper",
        "context_parallel_async.qwen3_moe_async_ulysses_cp_wrapper",
        "context_parallel_async.qwen3_moe_async_hybrid_cp_wrapper",
        "context_parallel_async.qwen3_moe_flash_attention_cp_mask_wrapper",
    ]
    # A parameter after the runtime's five positional arguments is an option even without a default:
    # the plan must give it.
    hybrid = next(w for w in qwen.cp_wrappers if w.target.endswith("hybrid_cp_wrapper"))
    assert [(p.name, p.value.kind, p.keyword_only) for p in hybrid.options] == [("ulysses_degree", "required", False)]


def test_a_compute_factory_takes_the_module_and_the_meshes_from_the_runtime(declarations):
    # @local_compute def f(*, module, mesh, tp_mesh, cp_mesh, ep_mesh, use_grouped_gemm=False)
    (archetype,) = read_family(RUNTIME, "qwen3_moe", declarations).archetypes
    assert [(p.name, p.value.value, p.keyword_only) for p in archetype.options] == [("use_grouped_gemm", False, True)]


def test_compute_functions_under_the_modules_the_runtime_has(declarations):
    family = read_family(RUNTIME, "deepseek_v41", declarations)
    adapter = f"{MODELS}.deepseek_v41.adapter."
    assert [t[len(adapter):] for t, _ in family.compute_functions] == [
        "distributed.moe_engram_expert_parallel.deepseek_v41_ep_compute_fn",
        "distributed.moe_engram_expert_parallel.deepseek_v41_megamoe_compute_fn",
        "distributed.moe_engram_expert_parallel.deepseek_v41_engram_compute_fn",
        "expert_parallel.deepseek_v41_ep_compute_fn",
        "expert_parallel.deepseek_v41_engram_compute_fn",
    ]


def test_an_archetype_belongs_to_the_family_that_defines_it_not_to_a_name_prefix(tree, declarations):
    assert [a.target_class for a in read_family(RUNTIME, "qwen3_moe", declarations).archetypes] == [
        "Qwen3MoeSparseMoeBlock"]
    # Qwen3MoeSparseMoeBlock starts like qwen3's name; it is still not qwen3's.
    qwen3 = read_family(RUNTIME, "qwen3", declarations)
    assert (qwen3.archetypes, [f.component for f in qwen3.factories]) == ([], ["RMSNorm", "GQAAttention", "SwiGLUMLP"])
    # A generic compute factory: as upstream lays it out, no family folder defines DeepseekV3MoE, so it
    # is the framework's; a family whose folder defines the target class owns it.
    assert read_family(RUNTIME, "deepseek_v3", declarations).archetypes == []
    assert [a.target_class for a in read_framework(SourceTree(RUNTIME)).archetypes] == ["DeepseekV3MoE"]
    tree.path("hyper_parallel/models/deepseek_v32/model.py").write_text(
        "class DeepseekV3MoE:\n    pass\n", encoding="utf-8")
    assert read_family(tree.root, "deepseek_v3", declarations).archetypes == []
    assert [a.target_class for a in read_family(tree.root, "deepseek_v32", declarations).archetypes] == [
        "DeepseekV3MoE"]
    assert read_framework(SourceTree(tree.root)).archetypes == []


def test_a_registration_file_with_two_identities_is_one_plugin(tmp_path, sync):
    out = tmp_path / "qwen3_5_moe"
    assert sync(RUNTIME, "qwen3_5_moe", out)[0] == 0
    plugin = (out / "plugin.cpp").read_text(encoding="utf-8")
    assert ('            {.model_type = "qwen3_5_moe",\n'
            '             .architecture = "Qwen3_5MoeForConditionalGeneration",\n'
            '             .where = "hyper_parallel/models/qwen3_5_moe/adapter/registration.py:6",\n'
            "             .directory_aliases = {\n"
            "                 // hyper_parallel/models/registry.py:8\n"
            '                 "qwen35moetext",\n'
            "             }},\n"
            '            {.model_type = "qwen3_5_moe_text",\n'
            '             .architecture = "Qwen3_5MoeForCausalLM",\n'
            '             .where = "hyper_parallel/models/qwen3_5_moe/adapter/registration.py:14"},\n'
            "        },\n") in plugin


def _refused(sync, root, family, out, message):
    code, stdout, stderr = sync(root, family, out)
    assert (code, stdout, stderr) == (1, "", f"famspec sync: {message}\n")
    assert not out.exists()


def test_a_loader_whose_body_cannot_be_read(tree, tmp_path, sync, declarations):
    tree.replace(QWEN_REGISTRATION, "    return replacements\n", "    return _PROVIDERS.get('replacements')\n")
    line = tree.line_of(QWEN_REGISTRATION, "_PROVIDERS.get")
    message = (f"{QWEN_REGISTRATION}:{line}: the replacements provider of qwen3_moe cannot be read: the loader "
               "_load_replacements returns `_PROVIDERS.get('replacements')`, not a module it imports; write it as a "
               "loader that imports one module and returns it, a lambda returning importlib.import_module(\"<module>\"), "
               "or a module; nothing was written")
    _refused(sync, tree.root, "qwen3_moe", tmp_path / "qwen3_moe", message)
    # An existing project is left as it was.
    out = tmp_path / "existing"
    assert sync(RUNTIME, "qwen3_moe", out)[0] == 0
    before = snapshot(out)
    assert sync(tree.root, "qwen3_moe", out)[0] == 1
    assert snapshot(out) == before
    # The audit reads the registration with the same reader and says the same, at the same line.
    report = run_audit(declarations, tree.root, ["qwen3_moe"])
    hits = [f for f in report.findings if f.check == "registration_provider"]
    assert [(f.status, f.file, f.line, f.found) for f in hits] == [
        ("unreadable", QWEN_REGISTRATION, line,
         "the loader _load_replacements returns `_PROVIDERS.get('replacements')`, not a module it imports")]


def test_a_loader_that_does_more_than_import_and_return(tree, tmp_path, sync):
    tree.replace(QWEN_REGISTRATION, "    return replacements\n",
                 "    replacements.warm_up()\n    return replacements\n")
    line = tree.line_of(QWEN_REGISTRATION, "warm_up")
    _refused(sync, tree.root, "qwen3_moe", tmp_path / "qwen3_moe",
             f"{QWEN_REGISTRATION}:{line}: the replacements provider of qwen3_moe cannot be read: the loader "
             "_load_replacements does more than import and return a module (`replacements.warm_up()`); write it as a "
             "loader that imports one module and returns it, a lambda returning "
             "importlib.import_module(\"<module>\"), or a module; nothing was written")


def test_a_provider_borrowed_from_a_family_not_in_the_tree(tree, tmp_path, sync):
    import shutil

    shutil.rmtree(tree.path("hyper_parallel/models/kimi_k3"))
    rel = "hyper_parallel/models/kimi_linear/adapter/registration.py"
    line = tree.line_of(rel, "context_parallel=load_context_parallel")
    _refused(sync, tree.root, "kimi_linear", tmp_path / "kimi_linear",
             f"{rel}:{line}: the context_parallel provider of kimi_linear cannot be read: it is borrowed from "
             "hyper_parallel.models.kimi_k3.adapter.load_context_parallel, and the family folder kimi_k3 is not in "
             "the source tree; give the source root of a runtime that holds that family too; nothing was written")


def test_an_unreadable_form_through_json(tree, tmp_path, declarations_file, capsys):
    from famspec.sync import main

    tree.replace(QWEN_REGISTRATION, "replacements=_load_replacements", "replacements=_LOADERS[0]")
    out = tmp_path / "qwen3_moe"
    code = main(["--source-root", str(tree.root), "--family", "qwen3_moe", "--out", str(out),
                 "--declarations", str(declarations_file), "--json"])
    error = json.loads(capsys.readouterr().out)["error"]
    assert (code, error["kind"]) == (1, "unreadable")
    assert "`_LOADERS[0]` is neither a loader function, a lambda nor a module" in error["message"]
    assert not out.exists()


def test_a_literal_alias_imported_from_another_module_under_the_root(declarations):
    # deepseek_v3's wrapper annotates `strategy: MLACPStrategy`, imported from the shared MLA module.
    (wrapper,) = read_family(RUNTIME, "deepseek_v3", declarations).cp_wrappers
    assert [(p.name, p.choices) for p in wrapper.options] == [
        ("strategy", ("expanded_ulysses", "latent_kv_head")), ("backend", ("npu", "sdpa"))]


def test_a_local_compute_function_anywhere_in_the_adapter_is_a_compute_function(declarations):
    family = read_family(RUNTIME, "kimi_k26", declarations)
    adapter = f"{MODELS}.kimi_k26.adapter."
    assert [t[len(adapter):] for t, _ in family.compute_functions] == [
        "distributed.ep_compute.kimi_k26_ep_compute_fn",  # @local_compute; describe_router beside it is not
        "expert_parallel.kimi_k26_ep_compute_fn",
        "expert_parallel.kimi_k26_moe_compute_fn",
    ]


def test_a_loader_returning_a_submodule_whose_file_is_missing_names_the_module(tree, tmp_path, sync):
    tree.path("hyper_parallel/models/qwen3_moe/adapter/replacements.py").unlink()
    line = tree.line_of(QWEN_REGISTRATION, "    return replacements")
    _refused(sync, tree.root, "qwen3_moe", tmp_path / "qwen3_moe",
             f"{QWEN_REGISTRATION}:{line}: the replacements provider of qwen3_moe cannot be read: it names the module "
             "hyper_parallel.models.qwen3_moe.adapter.replacements, which is neither a file nor a package under the "
             "source root; give the source root of a runtime tree that holds the module; nothing was written")


def test_a_loader_returning_a_name_its_package_binds_is_not_a_module(tree, tmp_path, sync):
    tree.path("hyper_parallel/models/qwen3_moe/adapter/replacements.py").unlink()
    tree.path("hyper_parallel/models/qwen3_moe/adapter/__init__.py").write_text(
        "def replacements():\n    return None\n", encoding="utf-8")
    line = tree.line_of(QWEN_REGISTRATION, "    return replacements")
    _refused(sync, tree.root, "qwen3_moe", tmp_path / "qwen3_moe",
             f"{QWEN_REGISTRATION}:{line}: the replacements provider of qwen3_moe cannot be read: the loader "
             "_load_replacements returns replacements, a name of hyper_parallel.models.qwen3_moe.adapter, not a "
             "module; write it as a loader that imports one module and returns it, a lambda returning "
             "importlib.import_module(\"<module>\"), or a module; nothing was written")


def test_a_factory_option_typed_literal_is_declared_with_its_values(tree, tmp_path, sync):
    for rel in ("hyper_parallel/models/qwen3_moe/adapter/replacements.py",
                "hyper_parallel/models/qwen3_moe/adapter/conversion/module_replacement.py"):
        tree.replace(rel, 'def replace_qwen3_moe_rms_norm(module, module_fqn="", context=None):',
                     'def replace_qwen3_moe_rms_norm(module, module_fqn="", context=None, *, '
                     'backend: Literal["npu", "sdpa"] = "npu"):')
        tree.replace(rel, "from hyper_parallel.models.replacement import module_replacement\n",
                     "from typing import Literal\n\nfrom hyper_parallel.models.replacement import module_replacement\n")
    out = tmp_path / "qwen3_moe"
    assert sync(tree.root, "qwen3_moe", out)[0] == 0
    assert '.options = {kw_only, param("backend", "npu", one_of{"npu", "sdpa"})},' in (out / "plugin.cpp").read_text()
