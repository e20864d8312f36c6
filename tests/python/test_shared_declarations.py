"""Declarations that are not one family's own, through the Python package and the shipped plugins: the
framework's MoE archetype and CP wrappers (plugins/components, owned by no family), and the CP wrappers
kimi_linear borrows from kimi_k3's context-parallel module."""

import json

import pytest

import famspec

DEEPSEEK_EP = "hyper_parallel.distributed.expert_parallel.recipes.deepseekv3_ep_compute_fn"
FRAMEWORK_CP = "hyper_parallel.distributed.context_parallel.wrappers."
KIMI_K3_CP = "hyper_parallel.models.kimi_k3.adapter.distributed.context_parallel."


@pytest.fixture(scope="module")
def described(registry):
    return json.loads(registry.describe())


def test_one_plugin_declares_the_framework_archetype_and_no_family_lists_it(described):
    (archetype,) = described["archetypes"]
    assert (archetype["compute_factory"], archetype["target_class"], archetype["plugin"]) == (
        DEEPSEEK_EP, "DeepseekV3MoE", "components")
    assert archetype["where"] == "hyper_parallel/distributed/expert_parallel/archetypes.py:26"
    assert [a["compute_factory"] for f in described["families"] for a in f["archetypes"]] == [
        "hyper_parallel.models.qwen3_moe.adapter.distributed.expert_parallel.qwen3moe_ep_compute_fn"]
    assert [(w["target"], w["plugin"]) for w in described["cp_wrappers"]] == [
        (FRAMEWORK_CP + name, "components") for name in (
            "sdpa_hf_cp_wrapper", "sdpa_hf_hybrid_cp_wrapper", "sdpa_hf_load_balance_cp_wrapper",
            "sdpa_qkv_cp_wrapper")]


@pytest.mark.parametrize("model_type", ["kimi_k26", "deepseek_v3", "KimiK25ForConditionalGeneration", "qwen3_moe", None])
def test_the_deepseek_v3_ep_entry_of_a_recipe_answers_under_any_family_strict_too(registry, model_type):
    """As the reference does, whatever the model type: the EP spec of the archetype, with no diagnostic."""
    answer = famspec.Resolver(registry, strict=True).strategy(DEEPSEEK_EP, model_type, slot="local_compute_fn")
    assert (answer.status, answer.diagnostics) == ("resolved", ())
    assert (answer.value.kind, answer.value.target_class) == ("moe_ep_routed", "DeepseekV3MoE")
    assert answer.value.strip_boundary_subpatterns == ("experts.*", "shared_experts")


def test_a_framework_cp_wrapper_answers_for_any_family_with_its_options(registry):
    strict = famspec.Resolver(registry, strict=True)
    for model_type in ("qwen3_moe", "kimi_linear"):
        answer = strict.strategy(FRAMEWORK_CP + "sdpa_hf_hybrid_cp_wrapper", model_type, slot="inner_wrapper",
                                 options={"ulysses_degree": 2})
        assert (answer.status, answer.diagnostics, answer.value.kind) == ("resolved", (), "cp_attention")
    # Its declared options are checked as a family's wrapper's are: one it does not take is said, and strict drops it.
    lenient = famspec.Resolver(registry).strategy(FRAMEWORK_CP + "sdpa_hf_hybrid_cp_wrapper", "qwen3_moe",
                                                  slot="inner_wrapper", options={"ulysses_degree": 2, "chunk": 1})
    assert (lenient.status, [d.kind for d in lenient.diagnostics]) == ("resolved", ["ignored_option"])
    assert strict.strategy(FRAMEWORK_CP + "sdpa_hf_hybrid_cp_wrapper", "qwen3_moe", slot="inner_wrapper",
                           options={"ulysses_degree": 2, "chunk": 1}).status == "not_covered"
    # In the other slot it is named as the framework's.
    misplaced = strict.strategy(FRAMEWORK_CP + "sdpa_qkv_cp_wrapper", "qwen3_moe", slot="local_compute_fn")
    assert misplaced.status == "not_covered"
    assert misplaced.reason == (f"wrong slot: {FRAMEWORK_CP}sdpa_qkv_cp_wrapper is a CP wrapper of the framework; "
                                "it belongs in inner_wrapper")


def test_kimi_linear_answers_for_the_cp_wrappers_it_borrows_and_strict_keeps_them(registry, described):
    (kimi_linear,) = [f for f in described["families"] if f["model_type"] == "kimi_linear"]
    assert kimi_linear["cp_wrappers"] == []
    assert kimi_linear["borrowed_cp_wrappers"] == [KIMI_K3_CP + name for name in (
        "kimi_delta_attention_cp_wrapper", "kimi_delta_attention_p2p_cp_wrapper",
        "kimi_delta_attention_ulysses_cp_wrapper")]
    strict = famspec.Resolver(registry, strict=True)
    target = KIMI_K3_CP + "kimi_delta_attention_ulysses_cp_wrapper"
    answer = strict.strategy(target, "kimi_linear", slot="inner_wrapper", options={"backend": "eager"})
    assert (answer.status, answer.diagnostics, answer.value.kind) == ("resolved", (), "cp_attention")
    # The wrapper stays kimi_k3's: a family that does not borrow it is told so, and strict drops it.
    other = famspec.Resolver(registry).strategy(target, "qwen3_5", slot="inner_wrapper")
    assert [(d.kind, d.message) for d in other.diagnostics] == [
        ("unregistered_wrapper", f"CP wrapper {target} is registered by family 'kimi_k3', not by 'qwen3_5'")]
    assert strict.strategy(target, "qwen3_5", slot="inner_wrapper").status == "not_covered"
