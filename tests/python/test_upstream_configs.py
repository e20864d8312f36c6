"""Whole configs written as upstream's recipes are, through the Python package: the family of a
config, an explicit family no plugin registers, and the shipped families as upstream declares them."""

import pytest

import famspec
from conftest import QWEN, QWEN_CP, QWEN_EP, QWEN_MODELING, RMS_NORM, run_cli

V3 = "hyper_parallel.models.deepseek_v3.adapter."
MLA_CP = V3 + "distributed.context_parallel.mla_cp_wrapper"
V41 = "hyper_parallel.models.deepseek_v41.adapter."
V41_WRAPPER = "deepseek_v41_shared_attention_parallel_wrapper"
SHARED_ATTENTION = "hyper_parallel.components.modules.shared_compressed_dsa_attention.SharedCompressedDSAAttention"


def qwen_recipe(model_target, model_type=None):
    head = f"model_type: {model_type}\n" if model_type else ""
    return head + f"""model:
  _target_: {model_target}
  model_name_or_path: /ckpt/qwen3-moe
training: &training
  global_batch_size: 512
  max_steps: 10
model_init_dtype: bfloat16
loss_fn: {{_target_: hyper_parallel.losses.cross_entropy}}
plan_overrides:
  - match: ['*.input_layernorm']
    module_type: {QWEN_MODELING}Qwen3MoeRMSNorm
    replace_module:
      _target_: {RMS_NORM}
  - match: '*.mlp.experts'
    module_type: {QWEN_MODELING}Qwen3MoeExperts
    replace_module:
      _target_: >-
        {QWEN}conversion.module_replacement.replace_qwen3_moe_grouped_experts
  - match: '*.self_attn'
    when: cp
    inner_target: self
    inner_wrapper:
      _target_: {QWEN_CP}
  - match: '*.mlp'
    when: ep
    local_compute_fn:
      _target_: {QWEN_EP}
"""


@pytest.mark.parametrize("builder", ["hyper_parallel.models.HyperAutoModelForCausalLM.from_pretrained",
                                     "hyper_parallel.models._transformers.HyperAutoModelForCausalLM.from_pretrained"])
def test_a_generic_builder_names_no_family(registry, tmp_path, builder):
    path = tmp_path / "config.yaml"
    path.write_text(qwen_recipe(builder))
    summary = famspec.Resolver(registry, strict=True).summary(str(path))
    assert [e.status for e in summary.entries] == ["resolved"] * 4
    assert [e.diagnostics for e in summary.entries] == [()] * 4
    cli = run_cli("summary", str(path), "--strict")
    assert cli.returncode == 0, cli.stderr
    assert cli.stdout == summary.canonical_json() + "\n"


def test_an_explicit_unknown_family_raises_under_strict_only(registry, tmp_path):
    path = tmp_path / "config.yaml"
    path.write_text(qwen_recipe("hyper_parallel.models.HyperAutoModelForCausalLM.from_pretrained", "qwen3_mo"))
    strict = famspec.Resolver(registry, strict=True)
    with pytest.raises(famspec.ResolutionError, match=r"unknown family 'qwen3_mo' .*did you mean `qwen3_moe`"):
        strict.summary(str(path))
    # Qwen3-VL-MoE is not registered upstream (qwen3 is).
    with pytest.raises(famspec.ResolutionError, match=r"unknown family 'qwen3_vl_moe' .*`qwen3_5_moe`.*`qwen3_moe`"):
        strict.replacement(RMS_NORM, "qwen3_vl_moe", module_type=QWEN_MODELING + "Qwen3MoeRMSNorm")
    with pytest.raises(famspec.ResolutionError, match="given by model_type"):
        strict.strategy(QWEN_EP, "qwen3_mo")
    # Not strict: the reference's answer, every target under the unknown family.
    lenient = famspec.Resolver(registry).summary(str(path))
    assert {e.gap for e in lenient.entries if e.slot == "replace_module"} == {"unknown_family"}
    assert run_cli("summary", str(path), "--digest").returncode == 1
    assert run_cli("summary", str(path), "--digest", "--allow-partial").stdout == lenient.digest() + "\n"


def test_the_drop_in_keeps_the_reference_answer_for_an_unknown_family(framework_spec):
    module_type = QWEN_MODELING + "Qwen3MoeRMSNorm"
    assert framework_spec.replacement_spec_for(RMS_NORM, "qwen3_mo", module_type=module_type) is None
    assert framework_spec.replacement_spec_for(RMS_NORM, "qwen3_moe", module_type=module_type) is not None
    overrides = [{"module_type": module_type, "replace_module": {"_target_": RMS_NORM}}]
    assert framework_spec.declaration_summary("qwen3_mo", overrides) == {
        "replacement_specs": {RMS_NORM: None}, "strategy_specs": {}}
    # Strict or not: the drop-in answers as the reference does.
    framework_spec.use_registry(framework_spec._loaded().resolver.registry, strict=True)
    try:
        assert framework_spec.replacement_spec_for(RMS_NORM, "qwen3_mo", module_type=module_type) is None
    finally:
        framework_spec.use_registry(framework_spec._loaded().resolver.registry)


DIRECT_NORM = "hyper_parallel.components.modules.RMSNorm"
QWEN3_NORM = "transformers.models.qwen3.modeling_qwen3.Qwen3RMSNorm"


def test_the_drop_in_answers_a_component_named_directly_under_any_family(framework_spec):
    plain = framework_spec.replacement_spec_for(DIRECT_NORM, module_type=QWEN3_NORM)
    assert (plain.old_ctor, plain.new_ctor) == ("Qwen3RMSNorm", "RMSNorm")
    for family in ("MistralForCausalLM", "LlamaForCausalLM", "qwen3_moe", "qwen3_mo"):
        assert framework_spec.replacement_spec_for(DIRECT_NORM, family, module_type=QWEN3_NORM) is plain
    overrides = [{"module_type": QWEN3_NORM, "replace_module": {"_target_": DIRECT_NORM}}]
    assert framework_spec.declaration_summary("LlamaForCausalLM", overrides) == \
        framework_spec.declaration_summary(None, overrides)
    assert framework_spec.declaration_summary("MistralForCausalLM", overrides)["replacement_specs"][DIRECT_NORM][
        "new_ctor"] == "RMSNorm"


def test_a_component_named_directly_needs_no_registered_family_even_under_strict(registry, tmp_path):
    strict = famspec.Resolver(registry, strict=True)
    answer = strict.replacement(DIRECT_NORM, "MistralForCausalLM", module_type=QWEN3_NORM)
    assert answer.status == "resolved" and answer.value.new_ctor == "RMSNorm"
    assert answer.explanation.family == "" and answer.explanation.channel == "direct-component"
    path = tmp_path / "config.yaml"
    path.write_text(f"model_type: MistralForCausalLM\nplan_overrides:\n  - match: '*.norm'\n"
                    f"    module_type: {QWEN3_NORM}\n    replace_module: {DIRECT_NORM}\n")
    summary = strict.summary(str(path))
    assert [e.status for e in summary.entries] == ["resolved"]
    assert strict.summary(str(path), "LlamaForCausalLM").digest() == summary.digest()
    assert run_cli("summary", str(path), "--digest").stdout == summary.digest() + "\n"
    # A target that reads the family still needs a registered one.
    with pytest.raises(famspec.ResolutionError, match="unknown family 'MistralForCausalLM'"):
        strict.replacement(RMS_NORM, "MistralForCausalLM", module_type=QWEN3_NORM)


def test_shared_compressed_attention_ignores_use_fused_ops(registry, framework_spec):
    module_type = "hyper_parallel.models.deepseek_v41.modeling_deepseek_v41.DeepseekV41SharedAttention"
    resolver = famspec.Resolver(registry)
    fused = resolver.replacement(SHARED_ATTENTION, module_type=module_type, options={"use_fused_ops": False})
    assert fused.status == "resolved"
    assert fused.value.keyword_args == ("module_fqn=''", "context=None")
    assert [d.kind for d in fused.diagnostics] == ["ignored_option"]
    strict = famspec.Resolver(registry, strict=True)
    refused = strict.replacement(SHARED_ATTENTION, module_type=module_type, options={"use_fused_ops": False})
    assert (refused.status, refused.gap) == ("not_covered", "bad_option")
    assert framework_spec.replacement_spec_for({"_target_": SHARED_ATTENTION, "use_fused_ops": False},
                                               module_type=module_type) == fused.value


def test_cp_wrappers_upstream_ships_are_registered(registry):
    strict = famspec.Resolver(registry, strict=True)
    for layout in ("distributed.shared_attention_context_parallel.", "context_parallel."):
        answer = strict.strategy(V41 + layout + V41_WRAPPER, slot="inner_wrapper")
        assert (answer.status, answer.diagnostics, answer.value.kind) == ("resolved", (), "cp_attention")
    good = strict.strategy(MLA_CP, "deepseek_v3", slot="inner_wrapper",
                           options={"strategy": "expanded_ulysses", "backend": "sdpa"})
    assert (good.status, good.diagnostics) == ("resolved", ())
    lenient = famspec.Resolver(registry).strategy(MLA_CP, slot="inner_wrapper", options={"backend": "tpu"})
    assert lenient.status == "resolved"
    assert [(d.kind, d.message, d.suggestion) for d in lenient.diagnostics] == [
        ("disallowed_value", f"option 'backend' is 'tpu', not one of the values CP wrapper {MLA_CP} allows: "
                             "'npu', 'sdpa'", "'npu', 'sdpa'")]
    bad = strict.strategy(MLA_CP, slot="inner_wrapper", options={"backend": "tpu"})
    assert (bad.status, bad.gap) == ("not_covered", "bad_option")


def test_deepseek_v3_runtime_only_factories_answer_under_both_layouts(registry):
    resolver = famspec.Resolver(registry)
    module_type = "transformers.models.deepseek_v3.modeling_deepseek_v3.DeepseekV3NaiveMoe"
    for provider in ("replacements.", "conversion.module_replacement."):
        answer = resolver.replacement(V3 + provider + "replace_mxfp8_grouped_experts", module_type=module_type)
        assert answer.status == "native"
        assert [d.kind for d in answer.diagnostics] == ["runtime_only"]


QWEN_HYBRID = "hyper_parallel.models.qwen3_moe.adapter.distributed.context_parallel_async.qwen3_moe_async_hybrid_cp_wrapper"


def test_a_cp_wrapper_option_the_runtime_takes_after_its_five_arguments_is_no_ignored_option(registry):
    # `def qwen3_moe_async_hybrid_cp_wrapper(target_module, mesh, tp_mesh, cp_mesh, ep_mesh, ulysses_degree: int)`
    strict = famspec.Resolver(registry, strict=True)
    answer = strict.strategy(QWEN_HYBRID, "qwen3_moe", slot="inner_wrapper", options={"ulysses_degree": 2})
    assert (answer.status, answer.diagnostics, answer.value.kind) == ("resolved", (), "cp_attention")
    # The MLA strategies are those of the shared MLA module's alias.
    latent = strict.strategy(MLA_CP, "deepseek_v3", slot="inner_wrapper", options={"strategy": "latent_kv_head"})
    assert (latent.status, latent.diagnostics) == ("resolved", ())


def test_kimi_k26_recipe_names_its_own_compute_function(registry, tmp_path):
    # As Kimi K2.6's training recipe writes its MoE layers' expert parallelism.
    path = tmp_path / "train.yaml"
    path.write_text("""model:
  _target_: hyper_parallel.models.kimi_k26.adapter.validation.cropped_model.build_cropped_kimi_vlm
  pretrained_model_name_or_path: moonshotai/Kimi-K2.6
plan_overrides:
  - match: "model.language_model.layers.[123456789]*.mlp"
    when: ep
    region_dispatch: false
    local_compute_fn:
      _target_: hyper_parallel.models.kimi_k26.adapter.distributed.ep_compute.kimi_k26_ep_compute_fn
      fix_router: true
      use_grouped_gemm: true
""")
    (entry,) = famspec.Resolver(registry).summary(str(path)).entries
    assert (entry.status, [d.kind for d in entry.diagnostics]) == ("native", ["runtime_only"])
    assert "belongs to family 'kimi_k26'" in entry.diagnostics[0].message
    cli = run_cli("check", str(path))
    assert cli.returncode == 0, cli.stdout + cli.stderr
