"""The audit on the clean runtime tree and on one mutation per kind of drift."""

from __future__ import annotations

import pytest

MODULES = "hyper_parallel/components/modules"
QWEN = "hyper_parallel/models/qwen3_moe/adapter"
V32 = "hyper_parallel/models/deepseek_v32/adapter"
V41 = "hyper_parallel/models/deepseek_v41/adapter"


def only(report, status="drift", **fields):
    """The one finding with this status and these fields; fails if there are none or several."""
    hits = [
        f
        for f in report["findings"]
        if f["status"] == status and all(f[key] == value for key, value in fields.items())
    ]
    assert len(hits) == 1, f"expected one {status} {fields}, got {hits}; all not-ok: " + str(
        [(f["status"], f["kind"], f["subject"]) for f in report["findings"] if f["status"] != "ok"]
    )
    return hits[0]


def not_ok(report):
    return [f for f in report["findings"] if f["status"] != "ok"]


# ---- the clean tree ---------------------------------------------------------------------------


def test_clean_tree_has_no_drift_for_any_shipped_family(audit, tree, declarations):
    code, report, _ = audit(tree.root)
    assert not_ok(report) == []
    assert code == 0
    families = sorted(f["model_type"] for f in declarations["families"])
    assert sorted(report["families"]) == families
    registered = {f["family"] for f in report["findings"] if f["check"] == "registration"}
    assert registered == set(families)
    # Each factory is audited in every provider module its family declares.
    audited = {f["subject"] for f in report["findings"] if f["check"] == "factory"}
    assert audited == {
        f"{provider}.{f['target'].rsplit('.', 1)[1]}"
        for family in declarations["families"]
        for f in family["factories"]
        for provider in family["provider_modules"]
    }
    assert {f["target"] for family in declarations["families"] for f in family["factories"]} <= audited
    components = {f["subject"] for f in report["findings"] if f["check"] == "signature"}
    assert components == {f"{c['defining_module']}.{c['name']}" for c in declarations["components"]}
    assert report["counts"]["drift"] == 0 and report["counts"]["ok"] == len(report["findings"])


def test_every_family_alone_is_clean(audit, tree, declarations):
    for family in declarations["families"]:
        code, report, _ = audit(tree.root, "--family", family["model_type"])
        assert (code, report["families"], not_ok(report)) == (0, [family["model_type"]], [])


def test_family_selected_by_architecture_audits_only_its_components(audit, tree):
    code, report, _ = audit(tree.root, "--family", "DeepseekV32ForCausalLM")
    assert code == 0 and report["families"] == ["deepseek_v32"]
    components = sorted(f["subject"].rsplit(".", 1)[1] for f in report["findings"] if f["check"] == "signature")
    assert components == ["DeepseekV32DSAAttention", "GroupedExperts", "RMSNorm"]


# ---- component signatures -----------------------------------------------------------------------


def test_parameter_added(audit, tree):
    tree.replace(f"{MODULES}/engram.py", "def __init__(self, assets, layer_id):",
                 "def __init__(self, assets, layer_id, seed=0):")
    code, report, _ = audit(tree.root)
    f = only(report, kind="parameter_added")
    assert (f["subject"], f["file"], f["line"]) == (
        "hyper_parallel.components.modules.engram.NgramHashMapping", f"{MODULES}/engram.py", 5)
    assert (f["declared"], f["found"].split(" in ")[0]) == ("(absent)", "seed=0")
    assert code == 1


def test_parameter_removed(audit, tree):
    rel = f"{MODULES}/mla_attention.py"
    tree.replace(rel, "        attention_interface=npu_fusion_attention_forward,\n", "")
    tree.replace(rel, "self.attention_interface = attention_interface", "pass")
    code, report, _ = audit(tree.root)
    f = only(report, kind="parameter_removed")
    assert (f["subject"], f["file"], f["line"], f["declared"]) == (
        "hyper_parallel.components.modules.mla_attention.MLAAttention",
        rel, 9, "attention_interface=npu_fusion_attention_forward")
    assert code == 1


def test_a_removed_constructor_option_reappearing_is_drift(audit, tree):
    # SharedCompressedDSAAttention's newest constructor has no use_fused_ops; a runtime that brings
    # it back is a signature the shipped declaration no longer matches.
    rel = f"{MODULES}/shared_compressed_dsa_attention.py"
    tree.replace(rel, 'def __init__(self, module, module_fqn="", context=None):',
                 'def __init__(self, module, module_fqn="", context=None, *, use_fused_ops=False):')
    code, report, _ = audit(tree.root)
    f = only(report, kind="parameter_added")
    assert (f["subject"], f["file"], f["line"], f["declared"], f["found"].split(" in ")[0]) == (
        "hyper_parallel.components.modules.shared_compressed_dsa_attention.SharedCompressedDSAAttention",
        rel, 16, "(absent)", "use_fused_ops=False")
    assert code == 1


def test_parameter_renamed(audit, tree):
    tree.replace(f"{MODULES}/rms_norm.py", "hidden_size=None, eps=1e-05,", "hidden_size=None, epsilon=1e-05,")
    tree.replace(f"{MODULES}/rms_norm.py", "self.eps = eps if", "self.eps = epsilon if")
    code, report, _ = audit(tree.root)
    f = only(report, kind="parameter_renamed")
    assert (f["file"], f["line"], f["declared"], f["found"].split(" in ")[0]) == (
        f"{MODULES}/rms_norm.py", 5, "eps=1e-05", "epsilon=1e-05")
    assert f["subject"].endswith(".rms_norm.RMSNorm") and "rename" in f["remedy"]
    assert code == 1


def test_parameter_new_default_compared_by_value(audit, tree):
    # 0.00001 is the declared 1e-05 written differently: not drift. 1e-06 is.
    tree.replace(f"{MODULES}/rms_norm.py", "eps=1e-05", "eps=0.00001")
    code, report, _ = audit(tree.root)
    assert (code, not_ok(report)) == (0, [])
    tree.replace(f"{MODULES}/rms_norm.py", "eps=0.00001", "eps=1e-06")
    code, report, _ = audit(tree.root)
    f = only(report, kind="parameter_default")
    assert (f["file"], f["line"], f["declared"], f["found"].split(" in ")[0]) == (
        f"{MODULES}/rms_norm.py", 5, "eps=1e-05", "eps=1e-06")
    assert code == 1


def test_default_type_matters(audit, tree):
    # 1e-05 and 1 differ by value too; what matters here is that a literal compares with its type:
    # the CP wrapper option's "npu" is not b"npu".
    rel = "hyper_parallel/models/deepseek_v3/adapter/distributed/context_parallel.py"
    tree.replace(rel, 'backend: Literal["npu", "sdpa"] = "npu"', 'backend: Literal["npu", "sdpa"] = b"npu"')
    code, report, _ = audit(tree.root)
    f = only(report, kind="cp_wrapper_option_default")
    assert (f["declared"], f["found"], code) == ("option backend='npu'", "option backend=b'npu'", 1)


def test_keyword_only_made_positional(audit, tree):
    tree.replace(f"{MODULES}/mhc.py", "def __init__(self, *, module,", "def __init__(self, module,")
    code, report, _ = audit(tree.root)
    kinds = [f for f in not_ok(report)]
    assert [(f["kind"], f["declared"], f["found"].split(" in ")[0]) for f in kinds] == [
        ("parameter_kind", "module keyword-only", "module positional"),
        ("parameter_kind", "module_fqn keyword-only", "module_fqn positional"),
        ("parameter_kind", "context keyword-only", "context positional"),
    ]
    assert {(f["file"], f["line"]) for f in kinds} == {(f"{MODULES}/mhc.py", 5)}
    assert code == 1


def test_expression_default_compared_as_source(audit, tree):
    tree.replace(f"{MODULES}/gqa_attention.py", "attention_interface=npu_fusion_attention_forward)",
                 "attention_interface=None)")
    code, report, _ = audit(tree.root)
    f = only(report, kind="parameter_default")
    assert (f["line"], f["declared"], f["found"].split(" in ")[0], code) == (
        tree.line_of(f"{MODULES}/gqa_attention.py", "attention_interface=None"),
        "attention_interface=npu_fusion_attention_forward", "attention_interface=None", 1)


def test_component_moved_to_another_submodule(audit, tree):
    source = tree.path(f"{MODULES}/mhc.py")
    tree.path(f"{MODULES}/hyper_connections.py").write_text(source.read_text())
    source.write_text("")
    code, report, _ = audit(tree.root)
    f = only(report, kind="component_missing")
    assert (f["file"], f["line"]) == (f"{MODULES}/mhc.py", None)
    assert "hyper_parallel.components.modules.hyper_connections" in f["remedy"]
    assert code == 1


def test_init_inherited_is_unreadable_not_a_guess(audit, tree):
    tree.replace(f"{MODULES}/mhc.py", "    def __init__(self, *, module, module_fqn=\"\", context=None):\n"
                 "        super().__init__()\n        self.inner = module\n", "    pass\n")
    code, report, _ = audit(tree.root)
    f = only(report, status="unreadable", check="signature")
    assert (f["file"], f["line"], code) == (f"{MODULES}/mhc.py", 4, 0)
    assert main_strict_exit(audit, tree) == 1


def main_strict_exit(audit, tree):
    code, _, _ = audit(tree.root, "--strict")
    return code


# ---- factories ------------------------------------------------------------------------------------


def test_factory_removed(audit, tree):
    text = tree.path(f"{QWEN}/replacements.py").read_text()
    start = text.index("@module_replacement\ndef replace_qwen3_moe_grouped_experts")
    tree.path(f"{QWEN}/replacements.py").write_text(text[:start])
    code, report, _ = audit(tree.root)
    f = only(report, kind="factory_missing")
    assert (f["subject"], f["file"], f["line"], f["family"]) == (
        "hyper_parallel.models.qwen3_moe.adapter.replacements.replace_qwen3_moe_grouped_experts",
        f"{QWEN}/replacements.py", None, "qwen3_moe")
    # The plugin's declaration, named by the runtime line sync read it from (the fixture's, unedited).
    assert (f["where"], f["plugin"]) == (f"{QWEN}/replacements.py:25", "qwen3_moe")
    assert code == 1


def test_factory_renamed(audit, tree):
    tree.replace(f"{V32}/conversion/module_replacement.py", "def replace_deepseek_v32_rms_norm(",
                 "def replace_deepseek_v32_rmsnorm(")
    code, report, _ = audit(tree.root)
    f = only(report, kind="factory_renamed")
    assert (f["file"], f["line"]) == (f"{V32}/conversion/module_replacement.py", 6)
    assert f["remedy"] == ("if it was renamed, declare the target "
                           "hyper_parallel.models.deepseek_v32.adapter.conversion.module_replacement."
                           "replace_deepseek_v32_rmsnorm")
    assert code == 1


def test_factory_without_decorator(audit, tree):
    tree.replace(f"{V41}/replacements.py", "@module_replacement\n", "")
    code, report, _ = audit(tree.root)
    f = only(report, kind="factory_undecorated")
    assert (f["file"], f["line"], code) == (f"{V41}/replacements.py", 5, 1)


def test_factory_builds_another_component(audit, tree):
    tree.replace(f"{QWEN}/replacements.py", "import RMSNorm\n\n    return RMSNorm(",
                 "import OffsetRMSNorm\n\n    return OffsetRMSNorm(")
    code, report, _ = audit(tree.root)
    f = only(report, kind="construction_component")
    assert (f["file"], f["line"]) == (f"{QWEN}/replacements.py", tree.line_of(f"{QWEN}/replacements.py",
                                                                             "return OffsetRMSNorm("))
    assert f["found"] == "builds OffsetRMSNorm from hyper_parallel.components.modules"
    assert f["declared"].startswith("RMSNorm(module=module, module_fqn=module_fqn, context=context)")
    assert code == 1


def test_factory_passes_module_positionally(audit, tree):
    tree.replace(f"{V32}/conversion/module_replacement.py", "return RMSNorm(module=module,", "return RMSNorm(module,")
    code, report, _ = audit(tree.root)
    f = only(report, kind="module_positional")
    assert (f["file"], f["line"], f["found"]) == (f"{V32}/conversion/module_replacement.py", 7,
                                                  "passes the module positionally")
    assert ".wraps_positionally" in f["remedy"] and code == 1


def test_factory_passes_module_by_keyword_where_declared_positional(audit, tree):
    tree.replace(f"{V41}/replacements.py", "SharedCompressedDSAAttention(module)",
                 "SharedCompressedDSAAttention(module=module)")
    code, report, _ = audit(tree.root)
    f = only(report, kind="module_keyword")
    assert (f["file"], f["line"], code) == (f"{V41}/replacements.py", 7, 1)


def test_factory_imports_component_from_another_module(audit, tree):
    # The factory imports the class from its defining submodule, as upstream's does.
    tree.replace(f"{V41}/replacements.py", "from hyper_parallel.components.modules.shared_compressed_dsa_attention import",
                 "from hyper_parallel.components.modules import")
    code, report, _ = audit(tree.root)
    f = only(report, kind="construction_import")
    assert f["found"] == "imports SharedCompressedDSAAttention from hyper_parallel.components.modules"
    assert (f["line"], code) == (7, 1)


def test_bound_parameter_and_interface_as_declared(audit, tree):
    tree.replace(f"{QWEN}/replacements.py", "attention_interface=run_qwen3_moe_flash_attention,",
                 "attention_interface=None,")
    code, report, _ = audit(tree.root)
    f = only(report, kind="argument_value")
    assert (f["found"], f["line"], code) == (
        "passes attention_interface=None", tree.line_of(f"{QWEN}/replacements.py", "return GQAAttention("), 1)

    tree.replace(f"{QWEN}/replacements.py", "attention_interface=None,", "")
    tree.replace(f"{QWEN}/replacements.py", "return GroupedExperts(module=module, module_fqn=module_fqn,",
                 "return GroupedExperts(module=module, module_fqn='experts',")
    code, report, _ = audit(tree.root)
    assert only(report, kind="argument_missing")["found"] == "does not pass attention_interface="
    assert only(report, kind="argument_value")["found"] == "passes module_fqn='experts'"


def test_interface_the_provider_does_not_define(audit, tree):
    tree.replace(f"{QWEN}/replacements.py",
                 "from hyper_parallel.models.qwen3_moe.adapter.attention import run_qwen3_moe_flash_attention\n", "")
    code, report, _ = audit(tree.root)
    f = only(report, kind="interface_missing")
    assert (f["line"], code) == (tree.line_of(f"{QWEN}/replacements.py", "return GQAAttention("), 1)


def test_undeclared_keyword_and_factory_option(audit, tree):
    rel = f"{V32}/conversion/module_replacement.py"
    tree.replace(rel, "experts = GroupedExperts(module=module, module_fqn=module_fqn, context=context)",
                 "experts = GroupedExperts(module=module, module_fqn=module_fqn, context=context, capacity=capacity)")
    tree.replace(rel, 'def replace_deepseek_v32_grouped_experts(module, module_fqn="", context=None):',
                 'def replace_deepseek_v32_grouped_experts(module, module_fqn="", context=None, capacity=2.0):')
    code, report, _ = audit(tree.root)
    assert only(report, kind="argument_added")["found"] == "passes capacity=capacity"
    f = only(report, kind="factory_parameter_added")
    assert (f["found"], f["line"], code) == ("parameter capacity=2.0", 16, 1)


def test_in_place_conversion_must_be_declared_runtime_only(audit, tree):
    tree.replace(f"{V32}/conversion/module_replacement.py",
                 "experts = GroupedExperts(module=module, module_fqn=module_fqn, context=context)",
                 "experts = GroupedExperts.from_module(module)")
    code, report, _ = audit(tree.root)
    f = only(report, kind="construction_in_place")
    assert (f["file"], f["line"]) == (f"{V32}/conversion/module_replacement.py", 17)
    assert "runtime_only" in f["remedy"] and code == 1


def test_runtime_only_factory_that_builds_directly(audit, tree):
    tree.replace("hyper_parallel/models/deepseek_v3/adapter/replacements.py",
                 "return GroupedExperts.from_module(module)", "return GroupedExperts(module=module)")
    code, report, _ = audit(tree.root)
    f = only(report, kind="construction_sinkable")
    assert (f["line"], f["found"], code) == (
        tree.line_of("hyper_parallel/models/deepseek_v3/adapter/replacements.py", "return GroupedExperts("),
        "builds GroupedExperts(...) from hyper_parallel.components.modules.grouped_experts", 1)


def test_provider_module_missing(audit, tree):
    tree.path(f"{V41}/replacements.py").unlink()
    code, report, _ = audit(tree.root)
    f = only(report, kind="provider_missing")
    assert (f["subject"], f["file"], code) == (
        "hyper_parallel.models.deepseek_v41.adapter.replacements", f"{V41}/replacements.py", 1)
    assert [x for x in not_ok(report) if x["check"] == "factory"] == []  # reported once, by the provider


def test_provider_as_a_package_reexporting_its_factories(audit, tree):
    package = tree.path(f"{V32}/conversion/module_replacement")
    package.mkdir()
    tree.path(f"{V32}/conversion/module_replacement.py").rename(package / "factories.py")
    (package / "__init__.py").write_text(
        "from .factories import (\n    replace_deepseek_v32_dsa_attention,\n"
        "    replace_deepseek_v32_grouped_experts,\n    replace_deepseek_v32_rms_norm,\n)\n")
    code, report, _ = audit(tree.root)
    assert (code, not_ok(report)) == (0, [])
    f = [x for x in report["findings"] if x["subject"].endswith("replace_deepseek_v32_rms_norm")][0]
    assert (f["file"], f["line"]) == (f"{V32}/conversion/module_replacement/factories.py", 6)


# ---- wrappers, compute functions, registrations ------------------------------------------------------


def test_cp_wrapper_missing(audit, tree):
    declared_at = tree.line_of(f"{QWEN}/distributed/context_parallel.py", "def qwen3_moe_flash_attention_cp_mask_wrapper(")
    tree.replace(f"{QWEN}/distributed/context_parallel.py", "def qwen3_moe_flash_attention_cp_mask_wrapper(",
                 "def qwen3_moe_flash_attention_cp_masked_wrapper(")
    code, report, _ = audit(tree.root)
    f = only(report, kind="cp_wrapper_missing")
    assert (f["subject"], f["file"], f["line"]) == (
        "hyper_parallel.models.qwen3_moe.adapter.distributed.context_parallel.qwen3_moe_flash_attention_cp_mask_wrapper",
        f"{QWEN}/distributed/context_parallel.py", declared_at)
    assert code == 1


V3_CP = "hyper_parallel/models/deepseek_v3/adapter/distributed/context_parallel.py"
MLA_CP = "hyper_parallel.models.deepseek_v3.adapter.distributed.context_parallel.mla_cp_wrapper"


def test_cp_wrapper_options_are_audited_as_keyword_only_parameters(audit, tree, declarations):
    deepseek = next(f for f in declarations["families"] if f["model_type"] == "deepseek_v3")
    mla = next(w for w in deepseek["cp_wrappers"] if w["target"] == MLA_CP)
    assert mla["options"] == [
        {"allowed": ["'expanded_ulysses'", "'latent_kv_head'"], "default": "'expanded_ulysses'", "kind": "keyword_only",
         "name": "strategy"},
        {"allowed": ["'npu'", "'sdpa'"], "default": "'npu'", "kind": "keyword_only", "name": "backend"},
    ]
    code, report, _ = audit(tree.root, "--family", "deepseek_v3")
    f = only(report, status="ok", check="cp_wrapper", subject=MLA_CP)
    assert (f["file"], code) == (V3_CP, 0)


def test_cp_wrapper_option_added_removed_and_values(audit, tree):
    tree.replace(V3_CP, '    backend: Literal["npu", "sdpa"] = "npu",\n',
                 '    backend: Literal["npu", "sdpa", "xla"] = "npu",\n    chunks: int = 2,\n')
    tree.replace(V3_CP, '    strategy: MLACPStrategy = "expanded_ulysses",\n', "")
    code, report, _ = audit(tree.root, "--family", "deepseek_v3")
    kinds = sorted((f["kind"], f["declared"], f["found"]) for f in not_ok(report))
    assert kinds == [
        ("cp_wrapper_option_added", "(absent)", "option chunks=2"),
        ("cp_wrapper_option_removed", "option strategy='expanded_ulysses'", "(absent)"),
        ("cp_wrapper_option_values", "option backend: Literal['npu', 'sdpa']",
         "option backend: Literal['npu', 'sdpa', 'xla']"),
    ]
    assert all(f["subject"] == MLA_CP and f["file"] == V3_CP for f in not_ok(report))
    assert code == 1


def test_cp_wrapper_option_values_through_an_alias_imported_from_the_shared_mla_module(audit, tree):
    tree.replace("hyper_parallel/distributed/context_parallel/mla_context_parallel.py",
                 'Literal["expanded_ulysses", "latent_kv_head"]', 'Literal["expanded_ulysses", "head_split"]')
    code, report, _ = audit(tree.root, "--family", "deepseek_v3")
    f = only(report, kind="cp_wrapper_option_values")
    assert (f["subject"], f["declared"], f["found"], code) == (
        MLA_CP, "option strategy: Literal['expanded_ulysses', 'latent_kv_head']", "option strategy: Literal['expanded_ulysses', 'head_split']", 1)


def test_v41_shared_attention_wrapper_is_audited_under_both_layouts(audit, tree):
    code, report, _ = audit(tree.root, "--family", "deepseek_v41")
    wrappers = sorted(f["file"] for f in report["findings"] if f["check"] == "cp_wrapper")
    # Each module's wrapper and its module-level alias, followed to the same def.
    assert (wrappers, code) == ([f"{V41}/context_parallel.py"] * 2
                                + [f"{V41}/distributed/shared_attention_context_parallel.py"] * 2, 0)
    tree.path(f"{V41}/context_parallel.py").unlink()
    code, report, _ = audit(tree.root, "--family", "deepseek_v41")
    missing = sorted(f["subject"] for f in report["findings"] if f.get("kind") == "cp_wrapper_missing")
    module = "hyper_parallel.models.deepseek_v41.adapter.context_parallel"
    assert missing == [f"{module}.deepseek_v41_shared_attention_cp_wrapper",
                       f"{module}.deepseek_v41_shared_attention_parallel_wrapper"]
    assert code == 1


def test_deepseek_v3_factories_are_audited_under_both_providers(audit, tree):
    code, report, _ = audit(tree.root, "--family", "deepseek_v3")
    providers = sorted(f["subject"] for f in report["findings"] if f["check"] == "provider_module")
    assert providers == ["hyper_parallel.models.deepseek_v3.adapter.conversion.module_replacement",
                         "hyper_parallel.models.deepseek_v3.adapter.replacements"]
    factories = [f["subject"] for f in report["findings"] if f["check"] == "factory"]
    assert len(factories) == 8 and code == 0


def test_compute_function_missing(audit, tree):
    text = tree.path(f"{V41}/expert_parallel.py").read_text()
    tree.path(f"{V41}/expert_parallel.py").write_text(text.split("\n\n\n@local_compute\ndef deepseek_v41_engram")[0] + "\n")
    code, report, _ = audit(tree.root)
    f = only(report, kind="compute_function_missing")
    assert f["subject"].endswith(".deepseek_v41_engram_compute_fn") and f["family"] == "deepseek_v41"
    assert (f["file"], code) == (f"{V41}/expert_parallel.py", 1)


def test_archetype_compute_factory_module_missing(audit, tree):
    tree.path("hyper_parallel/distributed/expert_parallel/recipes.py").unlink()
    code, report, _ = audit(tree.root)
    f = only(report, kind="archetype_missing")
    # The framework's archetype, declared by plugins/components for no family.
    assert (f["subject"], f["file"], f["line"], f["family"], f["plugin"]) == (
        "hyper_parallel.distributed.expert_parallel.recipes.deepseekv3_ep_compute_fn",
        "hyper_parallel/distributed/expert_parallel/recipes.py", None, None, "components")
    assert code == 1


def test_registration_architecture_changed(audit, tree):
    rel = "hyper_parallel/models/qwen4_exp/adapter/registration.py"
    tree.replace(rel, 'architecture="Qwen4ExpForConditionalGeneration"', 'architecture="Qwen4ExpForCausalLM"')
    code, report, _ = audit(tree.root)
    f = only(report, kind="registration_architecture")
    assert (f["family"], f["file"], f["line"]) == ("qwen4_exp", rel, 10)
    assert (f["declared"], f["found"]) == ("architecture 'Qwen4ExpForConditionalGeneration'",
                                           "architecture 'Qwen4ExpForCausalLM'")
    assert code == 1


def test_registration_model_type_changed(audit, tree):
    rel = "hyper_parallel/models/kimi_k3/adapter/registration.py"
    tree.replace(rel, 'model_type="kimi_k3"', 'model_type="kimi_k3_1"')
    code, report, _ = audit(tree.root)
    f = only(report, kind="registration_missing")
    assert (f["family"], f["file"], f["line"]) == ("kimi_k3", rel, 6)
    assert "registers 'kimi_k3_1'" in f["found"] and code == 1


def test_text_registration_removed(audit, tree):
    rel = "hyper_parallel/models/qwen4_exp/adapter/registration.py"
    tree.replace(rel, 'model_type="qwen4_exp_text"', 'model_type="qwen4_exp_chat"')
    code, report, _ = audit(tree.root)
    f = only(report, kind="registration_missing")
    assert (f["family"], f["file"], f["line"]) == ("qwen4_exp_text", None, None)
    assert (f["found"], code) == ("no registration declares this model_type", 1)


def test_factory_checked_under_both_provider_layouts(audit, tree, declarations):
    qwen = next(f for f in declarations["families"] if f["model_type"] == "qwen3_moe")
    assert qwen["provider_modules"] == [
        "hyper_parallel.models.qwen3_moe.adapter.conversion.module_replacement",
        "hyper_parallel.models.qwen3_moe.adapter.replacements",
    ]
    code, report, _ = audit(tree.root, "--family", "qwen3_moe")
    checked = sorted(f["subject"] for f in report["findings"] if f["check"] == "factory")
    assert len(checked) == 6 and code == 0
    rel = f"{QWEN}/conversion/module_replacement.py"
    tree.replace(rel, "def replace_qwen3_moe_rms_norm(", "def replace_qwen3_moe_rmsnorm(")
    code, report, _ = audit(tree.root)
    f = only(report, kind="factory_renamed")
    assert (f["subject"], f["file"], code) == (
        "hyper_parallel.models.qwen3_moe.adapter.conversion.module_replacement.replace_qwen3_moe_rms_norm", rel, 1)


def test_directory_alias_changed(audit, tree):
    tree.replace("hyper_parallel/models/registry.py", '"deepseekv2": "deepseek_v3",', '"deepseekv2": "deepseek_v2",')
    code, report, _ = audit(tree.root)
    f = only(report, kind="directory_alias_target")
    assert (f["family"], f["file"], f["line"], code) == ("deepseek_v3", "hyper_parallel/models/registry.py", 6, 1)


# ---- source the audit cannot read --------------------------------------------------------------------


def test_star_import_is_unreadable(audit, tree):
    rel = f"{V41}/replacements.py"
    tree.path(f"{V41}/_factories.py").write_text(tree.path(rel).read_text())
    tree.path(rel).write_text('"""Factories."""\n\nfrom ._factories import *  # noqa: F403\n')
    code, report, _ = audit(tree.root)
    f = only(report, status="unreadable", check="factory")
    assert (f["file"], f["line"], code) == (rel, 3, 0)
    assert "star import" in f["found"]


def test_computed_component_is_unreadable(audit, tree):
    rel = f"{MODULES}/engram.py"
    tree.replace(rel, "class NgramHashMapping:", "class _NgramHashMapping:")
    tree.path(rel).write_text(tree.path(rel).read_text() + "\n\nNgramHashMapping = type('NgramHashMapping', "
                                                            "(_NgramHashMapping,), {})\n")
    code, report, _ = audit(tree.root)
    f = only(report, status="unreadable", check="component")
    assert (f["file"], f["line"], f["found"], code) == (rel, 16, "NgramHashMapping is computed", 0)


def test_computed_callee_and_registration_are_unreadable(audit, tree):
    tree.replace(f"{V41}/replacements.py", "return SharedCompressedDSAAttention(module)",
                 "return _CLASSES['shared'](module)")
    rel = "hyper_parallel/models/jt_deepseek_v3/adapter/registration.py"
    tree.replace(rel, 'model_type="jt_deepseek_v3"', 'model_type=MODEL_TYPE')
    code, report, _ = audit(tree.root)
    f = only(report, status="unreadable", check="construction")
    assert (f["line"], f["found"]) == (7, "calls `_CLASSES['shared']`, a computed callee")
    g = only(report, status="unreadable", check="registration")
    assert (g["family"], g["file"], g["line"]) == ("jt_deepseek_v3", rel, 8)
    assert code == 0


def test_file_that_does_not_parse_is_unreadable(audit, tree):
    rel = f"{MODULES}/dsa_attention.py"
    tree.replace(rel, "class DSAAttention(nn.Module):", "class DSAAttention(nn.Module)")
    code, report, _ = audit(tree.root)
    hits = [f for f in not_ok(report)]
    assert {(f["status"], f["file"], f["line"]) for f in hits} == {("unreadable", rel, 4)}
    assert {f["subject"].rsplit(".", 1)[1] for f in hits} == {"DSAAttention", "DeepseekV32DSAAttention"}
    assert code == 0


# ---- bad input ----------------------------------------------------------------------------------------


def test_bad_root_and_bad_arguments(audit, tree, tmp_path):
    code, report, err = audit(tmp_path / "nowhere")
    assert (code, report) == (2, None) and "not a directory" in err
    code, report, err = audit(tmp_path)
    assert (code, report) == (2, None) and "no hyper_parallel/" in err
    code, report, err = audit(tree.root, "--family", "no_such_family")
    assert (code, report) == (2, None) and "no_such_family" in err and "qwen3_moe" in err
    code, report, err = audit(tree.root, "--no-such-flag")
    assert (code, report) == (2, None)


@pytest.mark.parametrize("spelling", ["qwen3_moe", "Qwen3MoeForCausalLM", "qwen3moe"])
def test_family_spellings(audit, tree, spelling):
    code, report, _ = audit(tree.root, "--family", spelling)
    assert (code, report["families"]) == (0, ["qwen3_moe"])


@pytest.mark.parametrize(
    "spelling, family",
    [
        ("deepseekv2", "deepseek_v2"),  # a family's own name before another's directory alias
        ("DeepseekV2ForCausalLM", "deepseek_v2"),
        ("qwen35text", "qwen3_5_text"),
        ("Qwen3_5ForCausalLM", "qwen3_5"),  # qwen3_5's own name outranks qwen3_5_text's architecture
        ("qwen3_5_moe_text", "qwen3_5_moe_text"),  # its own registration, before the directory alias
    ],
)
def test_family_lookup_as_the_registry(audit, tree, spelling, family):
    code, report, _ = audit(tree.root, "--family", spelling)
    assert (code, report["families"]) == (0, [family])


def test_runtime_only_factory_returning_a_helper_call_is_ok(audit, tree):
    rel = "hyper_parallel/models/deepseek_v3/adapter/replacements.py"
    tree.replace(rel, "return LowPrecisionLinear.from_linear(module)", "return convert_linear(module)")
    tree.replace(rel, "from hyper_parallel.models.replacement import module_replacement",
                 "from hyper_parallel.models.replacement import module_replacement\n"
                 "from hyper_parallel.components.low_precision import convert_linear")
    low_precision = tree.path("hyper_parallel/components/low_precision.py")
    low_precision.write_text(low_precision.read_text() + "\n\ndef convert_linear(linear):\n"
                             "    return LowPrecisionLinear.from_linear(linear)\n")
    code, report, _ = audit(tree.root)
    assert (code, not_ok(report)) == (0, [])


def test_a_framework_cp_wrapper_renamed_is_drift_of_no_family(audit, tree):
    rel = "hyper_parallel/distributed/context_parallel/wrappers.py"
    tree.replace(rel, "def sdpa_hf_cp_wrapper(", "def sdpa_hf_primitive_cp_wrapper(")
    code, report, _ = audit(tree.root)
    f = only(report, kind="cp_wrapper_missing")
    assert (f["subject"], f["file"], f["family"], f["plugin"]) == (
        "hyper_parallel.distributed.context_parallel.wrappers.sdpa_hf_cp_wrapper", rel, None, "components")
    assert code == 1
    # Audited for one family, the framework's declarations are not in scope.
    code, report, _ = audit(tree.root, "--family", "qwen3_moe")
    assert (code, [x for x in report["findings"] if x["status"] != "ok"]) == (0, [])
