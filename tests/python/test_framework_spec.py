"""The upstream resolver's test contracts ("given X, expect Y"), asked through famspec.framework_spec."""

import dataclasses
import pickle

import pytest

import famspec
from conftest import ATTENTION, DEEPSEEK_EP, EXPERTS, QWEN_CP, QWEN_EP, QWEN_MODELING, RMS_NORM

RUNTIME_ARGS = ("module_fqn=''", "context=None")


def test_public_names_match_the_reference(framework_spec):
    assert framework_spec.__all__ == [
        "CP_ATTENTION_KIND",
        "declaration_summary",
        "external_state_classes_for",
        "interface_component_class",
        "replacement_spec_for",
        "strategy_spec_for",
    ]
    assert framework_spec.CP_ATTENTION_KIND == "cp_attention"


def test_spec_classes_have_the_reference_fields_order_and_defaults():
    def fields(cls):
        return [(f.name, f.default if f.default is not dataclasses.MISSING else "required")
                for f in dataclasses.fields(cls)]

    assert fields(famspec.ReplacementSpec) == [
        ("old_ctor", "required"), ("new_ctor", "required"), ("imports", "required"), ("mode", "name"),
        ("keyword_args", ()), ("snippets", ()), ("remove_class", True), ("replacement_note", None)]
    assert fields(famspec.StrategySpec) == [
        ("kind", "required"), ("imports", "required"), ("target_class", None), ("method_name", "forward"),
        ("body_template", None), ("snippets", ()), ("strip_boundary_subpatterns", ())]
    assert fields(famspec.ImportPatch) == [("module", "required"), ("names", "required"), ("raw", None)]
    assert fields(famspec.ModuleSnippetPatch) == [("text", "required")]
    spec = famspec.ReplacementSpec("A", "B", [famspec.ImportPatch("m", ["B"])])
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.mode = "wrap_source"
    assert spec.imports == (famspec.ImportPatch("m", ("B",)),) and hash(spec) == hash(
        famspec.ReplacementSpec("A", "B", (famspec.ImportPatch("m", ("B",)),)))


# The oracle: what `@dataclass(frozen=True)` with the reference's fields gives.
@dataclasses.dataclass(frozen=True)
class ImportPatch:
    module: str
    names: tuple
    raw: object = None


@dataclasses.dataclass(frozen=True)
class ReplacementSpec:
    old_ctor: str
    new_ctor: str
    imports: tuple
    mode: str = "name"
    keyword_args: tuple = ()
    snippets: tuple = ()
    remove_class: bool = True
    replacement_note: object = None


def test_specs_behave_as_the_frozen_dataclasses_they_replace():
    ours = famspec.ReplacementSpec("A", "B", (famspec.ImportPatch("m", ("B",)),), "wrap_source", ("x=1",))
    oracle = ReplacementSpec("A", "B", (ImportPatch("m", ("B",)),), "wrap_source", ("x=1",))
    assert repr(ours) == repr(oracle)
    assert hash(ours) == hash(oracle)
    assert dataclasses.asdict(ours) == dataclasses.asdict(oracle)
    assert dataclasses.is_dataclass(ours) and type(ours).__dataclass_params__.frozen
    assert ours != oracle and ours == famspec.ReplacementSpec(**{**dataclasses.asdict(ours), "imports": ours.imports})
    assert dataclasses.replace(ours, mode="name").mode == "name" and ours.mode == "wrap_source"
    assert pickle.loads(pickle.dumps(ours)) == ours
    with pytest.raises(dataclasses.FrozenInstanceError):
        del ours.new_ctor
    with pytest.raises(TypeError):
        famspec.ModuleSnippetPatch()


def test_strategy_spec_keeps_the_reference_invariants():
    with pytest.raises(ValueError, match="provided together"):
        famspec.StrategySpec(kind="k", imports=(), target_class="C")
    with pytest.raises(ValueError, match="nonempty"):
        famspec.StrategySpec(kind="k", imports=(), target_class="C", body_template="  ")
    with pytest.raises(ValueError, match="identifier"):
        famspec.StrategySpec(kind="k", imports=(), method_name="not an identifier")


def test_qwen_rms_norm_wraps_the_source_module(framework_spec):
    spec = framework_spec.replacement_spec_for(RMS_NORM, module_type=QWEN_MODELING + "Qwen3MoeRMSNorm")
    assert isinstance(spec, famspec.ReplacementSpec)
    assert (spec.old_ctor, spec.new_ctor) == ("Qwen3MoeRMSNorm", "RMSNorm")
    assert spec.mode == "wrap_source"
    assert spec.keyword_args == RUNTIME_ARGS
    assert spec.remove_class is False
    assert [i.module for i in spec.imports] == ["hyper_parallel.components.modules"]
    assert spec.imports == (famspec.ImportPatch("hyper_parallel.components.modules", ("RMSNorm",), None),)
    assert spec.replacement_note == "RMSNorm wraps Qwen3MoeRMSNorm; the original class is kept as the wrapper input."


def test_qwen_grouped_experts(framework_spec):
    spec = framework_spec.replacement_spec_for(EXPERTS, "qwen3_moe", module_type=QWEN_MODELING + "Qwen3MoeExperts")
    assert spec.new_ctor == "GroupedExperts" and spec.mode == "wrap_source"
    assert spec.keyword_args == RUNTIME_ARGS
    assert spec.remove_class is False and spec.snippets == ()


def test_qwen_attention_is_rendered_with_its_interface(framework_spec):
    spec = framework_spec.replacement_spec_for(ATTENTION, "qwen3_moe", module_type=QWEN_MODELING + "Qwen3MoeAttention")
    assert spec.new_ctor == "GQAAttention" and spec.mode == "wrap_source"
    assert spec.keyword_args == RUNTIME_ARGS + ("attention_interface=run_qwen3_moe_flash_attention",)
    assert spec.snippets and "class GQAAttention" in spec.snippets[0].text
    assert all(i.module == "" and i.names == () and i.raw for i in spec.imports)
    assert framework_spec.interface_component_class("qwen3_moe") == "GQAAttention"
    assert framework_spec.interface_component_class("Qwen3MoeForCausalLM") == "GQAAttention"


def test_every_spelling_returns_the_same_object(framework_spec):
    module_type = QWEN_MODELING + "Qwen3MoeAttention"
    inferred = framework_spec.replacement_spec_for(ATTENTION, module_type=module_type)
    assert inferred is not None
    assert framework_spec.replacement_spec_for(ATTENTION, "qwen3_moe", module_type=module_type) is inferred
    assert framework_spec.replacement_spec_for(ATTENTION, "Qwen3MoeForCausalLM", module_type=module_type) is inferred
    assert framework_spec.replacement_spec_for({"_target_": ATTENTION}, "qwen3moe", module_type=module_type) is inferred
    assert framework_spec.strategy_spec_for(QWEN_EP) is framework_spec.strategy_spec_for(QWEN_EP, "Qwen3MoeForCausalLM")


def test_unknown_identity_and_missing_module_type_are_none(framework_spec):
    module_type = QWEN_MODELING + "Qwen3MoeAttention"
    assert framework_spec.replacement_spec_for(ATTENTION, "unregistered_model", module_type=module_type) is None
    assert framework_spec.replacement_spec_for("unknown.replace") is None
    assert framework_spec.replacement_spec_for(None) is None
    assert framework_spec.strategy_spec_for(None) is None
    assert framework_spec.replacement_spec_for(ATTENTION) is None
    assert framework_spec.replacement_spec_for(ATTENTION, "qwen3_moe") is None


def test_ep_strategies_of_both_archetypes(framework_spec):
    qwen = framework_spec.strategy_spec_for(QWEN_EP, "qwen3_moe")
    assert qwen.kind == "moe_ep_routed" and qwen.target_class == "Qwen3MoeSparseMoeBlock"
    assert qwen.method_name == "forward" and qwen.snippets == ()
    assert "router_kind='topk_router_module'" in qwen.body_template and "shared='none'" in qwen.body_template
    assert qwen.imports == (famspec.ImportPatch("hyper_parallel.distributed.expert_parallel.experts",
                                                ("moe_ep_forward",)),)
    deepseek = framework_spec.strategy_spec_for(DEEPSEEK_EP)
    assert deepseek.target_class == "DeepseekV3MoE"
    assert deepseek.strip_boundary_subpatterns == ("experts.*", "shared_experts")
    assert "router_kind='sigmoid_group'" in deepseek.body_template


def test_cp_wrapper_only_in_the_inner_wrapper_slot(framework_spec):
    assert framework_spec.strategy_spec_for(QWEN_CP) is None
    spec = framework_spec.strategy_spec_for(QWEN_CP, inner_wrapper=True)
    assert spec == famspec.StrategySpec(kind=framework_spec.CP_ATTENTION_KIND, imports=())
    assert spec.body_template is None


def test_external_state_classes(framework_spec):
    assert framework_spec.external_state_classes_for("qwen3_moe", ({"local_compute_fn": QWEN_EP},)) == (
        "Qwen3MoeSparseMoeBlock",)
    assert framework_spec.external_state_classes_for("qwen3_moe", ()) == ()
    assert framework_spec.external_state_classes_for("qwen3_moe") == ()
    both = framework_spec.external_state_classes_for(None, [
        {"local_compute_fn": {"_target_": DEEPSEEK_EP}}, {"local_compute_fn": QWEN_EP},
        {"local_compute_fn": QWEN_EP}, {"inner_wrapper": QWEN_CP}, {"local_compute_fn": "unknown.fn"}])
    assert both == ("DeepseekV3MoE", "Qwen3MoeSparseMoeBlock")
    assert isinstance(both, tuple)


def test_declaration_summary_has_exactly_the_reference_shape(framework_spec):
    overrides = [
        {"replace_module": {"_target_": RMS_NORM}, "module_type": QWEN_MODELING + "Qwen3MoeRMSNorm"},
        {"replace_module": "unknown.replace"},
        {"local_compute_fn": {"_target_": QWEN_EP, "use_grouped_gemm": True}},
        {"inner_wrapper": {"target": QWEN_CP}},
        {"local_compute_fn": QWEN_CP},  # the same CP target in the other slot: later entries win
    ]
    summary = framework_spec.declaration_summary("Qwen3MoeForCausalLM", overrides)
    assert list(summary) == ["replacement_specs", "strategy_specs"]
    norm = framework_spec.replacement_spec_for(RMS_NORM, "qwen3_moe", module_type=QWEN_MODELING + "Qwen3MoeRMSNorm")
    assert summary["replacement_specs"] == {RMS_NORM: dataclasses.asdict(norm), "unknown.replace": None}
    assert summary["replacement_specs"][RMS_NORM]["imports"] == (
        {"module": "hyper_parallel.components.modules", "names": ("RMSNorm",), "raw": None},)
    ep = framework_spec.strategy_spec_for(QWEN_EP, "qwen3_moe")
    assert summary["strategy_specs"] == {QWEN_EP: dataclasses.asdict(ep), QWEN_CP: None}
    assert framework_spec.declaration_summary("qwen3_moe") == {"replacement_specs": {}, "strategy_specs": {}}


def test_static_options_change_the_spec_as_the_cli_option_does(framework_spec):
    target = "hyper_parallel.components.modules.shared_compressed_dsa_attention.SharedCompressedDSAAttention"
    module_type = "hyper_parallel.models.deepseek_v41.modeling_deepseek_v41.DeepseekV41SharedAttention"
    plain = framework_spec.replacement_spec_for(target, module_type=module_type)
    # use_fused_ops is gone from the component's constructor: ignored, as the reference ignores it.
    fused = framework_spec.replacement_spec_for({"_target_": target, "use_fused_ops": True}, module_type=module_type)
    assert plain.keyword_args == RUNTIME_ARGS
    assert fused == plain
    norm = "hyper_parallel.components.modules.rms_norm.RMSNorm"
    tuned = framework_spec.replacement_spec_for({"_target_": norm, "eps": 1e-6}, module_type=module_type)
    assert tuned.keyword_args[-1] == "eps=1e-06"


def test_qwen_factories_answer_under_both_provider_layouts(framework_spec):
    module_type = QWEN_MODELING + "Qwen3MoeRMSNorm"
    newer = RMS_NORM.replace(".adapter.replacements.", ".adapter.conversion.module_replacement.")
    assert newer != RMS_NORM
    spec = framework_spec.replacement_spec_for(newer, module_type=module_type)
    assert spec == framework_spec.replacement_spec_for(RMS_NORM, module_type=module_type)
    assert spec.new_ctor == "RMSNorm" and spec.keyword_args == RUNTIME_ARGS


def test_upstream_families_describe_as_registered(registry):
    import json
    families = {f["model_type"]: f for f in json.loads(registry.describe())["families"]}
    expected = {
        "deepseek_v2": "DeepseekV2ForCausalLM",
        "deepseek_v3": "DeepseekV3ForCausalLM",
        "qwen3_5": "Qwen3_5ForConditionalGeneration",
        "qwen3_5_text": "Qwen3_5ForCausalLM",
        "qwen4_exp": "Qwen4ExpForConditionalGeneration",
        "qwen4_exp_text": "Qwen4ExpForCausalLM",
    }
    assert {name: families[name]["architecture"] for name in expected} == expected
    assert families["qwen3_moe"]["provider_modules"] == [
        "hyper_parallel.models.qwen3_moe.adapter.conversion.module_replacement",
        "hyper_parallel.models.qwen3_moe.adapter.replacements",
    ]
    assert families["deepseek_v2"]["provider_modules"] == []


def test_a_registry_replaced_with_use_registry_is_used_from_then_on(framework_spec, tmp_path):
    module_type = QWEN_MODELING + "Qwen3MoeRMSNorm"
    assert framework_spec.replacement_spec_for(RMS_NORM, module_type=module_type) is not None
    # An empty plugin directory is a failure: such a registry answers only when the caller accepts it.
    with pytest.raises(famspec.PartialRegistryError):
        framework_spec.use_registry(famspec.load_plugins([str(tmp_path)]))
    assert framework_spec.replacement_spec_for(RMS_NORM, module_type=module_type) is not None
    framework_spec.use_registry(famspec.load_plugins([str(tmp_path)]), allow_partial=True)
    assert framework_spec.replacement_spec_for(RMS_NORM, module_type=module_type) is None
    assert framework_spec.strategy_spec_for(DEEPSEEK_EP) is None
    with pytest.raises(TypeError):
        framework_spec.use_registry("not a registry")
    with pytest.raises(TypeError):
        framework_spec.use_registry(famspec.load_plugins([str(tmp_path)]), strict="yes")


@pytest.mark.parametrize("call", [
    lambda fs: fs.replacement_spec_for(42),
    lambda fs: fs.replacement_spec_for(["a.b"]),
    lambda fs: fs.replacement_spec_for(RMS_NORM, 3),
    lambda fs: fs.replacement_spec_for(RMS_NORM, module_type=b"x.Y"),
    lambda fs: fs.replacement_spec_for({"_target_": 7}),
    lambda fs: fs.replacement_spec_for({"_target_": RMS_NORM, "opt": [1]}, module_type="m.X"),
    lambda fs: fs.replacement_spec_for({"_target_": RMS_NORM, 1: 2}, module_type="m.X"),
    lambda fs: fs.strategy_spec_for(QWEN_EP, inner_wrapper="yes"),
    lambda fs: fs.strategy_spec_for(object()),
    lambda fs: fs.interface_component_class(1.5),
    lambda fs: fs.external_state_classes_for("qwen3_moe", 5),
    lambda fs: fs.external_state_classes_for("qwen3_moe", ["not a mapping"]),
    lambda fs: fs.external_state_classes_for("qwen3_moe", {"local_compute_fn": QWEN_EP}),
    lambda fs: fs.declaration_summary(None, [None]),
    lambda fs: fs.declaration_summary(3),
])
def test_wrong_argument_types_raise_type_error(framework_spec, call):
    with pytest.raises(TypeError):
        call(framework_spec)


def test_odd_values_of_the_right_type_never_crash(framework_spec):
    for target in ("", ".", "..", "hyper_parallel.models..adapter.", "\x00", "é" * 10000,
                   "hyper_parallel.models.qwen3_moe.adapter"):
        assert framework_spec.replacement_spec_for(target, "", module_type="") is None
        assert framework_spec.strategy_spec_for(target, "\x00", inner_wrapper=True) in (
            None, famspec.StrategySpec(kind="cp_attention", imports=()))
    assert framework_spec.interface_component_class("") is None
    assert framework_spec.interface_component_class(None) is None
    with pytest.raises(ValueError):
        framework_spec.replacement_spec_for({"_target_": RMS_NORM, "big": 2 ** 70}, module_type="m.X")
    with pytest.raises(ValueError):
        framework_spec.replacement_spec_for({"_target_": RMS_NORM, "nan": float("nan")}, module_type="m.X")


def test_equal_option_values_of_other_types_are_answered_apart_in_any_order(framework_spec):
    # 1, 1.0 and True are one dict key in Python; each is its own answer here, whichever comes first.
    def ask(value):
        return framework_spec.strategy_spec_for({"_target_": QWEN_EP, "use_grouped_gemm": value})

    framework_spec.clear_cache()
    forward = [ask(value) for value in (1, 1.0, True)]
    framework_spec.clear_cache()
    backward = [ask(value) for value in (True, 1.0, 1)][::-1]
    assert forward == backward
    assert forward[2] is not None and forward[2].kind == "moe_ep_routed"
    assert forward[0] is None and forward[1] is None  # not a bool: the option's declared type
    norm = "hyper_parallel.components.modules.rms_norm.RMSNorm"
    module_type = QWEN_MODELING + "Qwen3MoeRMSNorm"
    zero = framework_spec.replacement_spec_for({"_target_": norm, "eps": 0.0}, module_type=module_type)
    negative = framework_spec.replacement_spec_for({"_target_": norm, "eps": -0.0}, module_type=module_type)
    assert (zero.keyword_args[-1], negative.keyword_args[-1]) == ("eps=0.0", "eps=-0.0")


def test_clear_cache_forgets_every_answer_the_drop_in_keeps(framework_spec):
    module_type = QWEN_MODELING + "Qwen3MoeRMSNorm"
    spec = framework_spec.replacement_spec_for(RMS_NORM, module_type=module_type)
    state = framework_spec._loaded()
    assert state.answers and len(state.resolver._interned) > 0
    assert state.resolver.replacement(RMS_NORM, module_type=module_type).explanation.cache_hit
    framework_spec.clear_cache()
    assert state.answers == {}
    assert not state.resolver.replacement(RMS_NORM, module_type=module_type).explanation.cache_hit
    # Equal answers stay one object while a caller holds one; the intern table itself keeps none alive.
    assert framework_spec.replacement_spec_for(RMS_NORM, module_type=module_type) is spec
    framework_spec.clear_cache()
    del spec
    assert len(state.resolver._interned) == 0


def test_the_memo_is_bounded_and_keeps_answering(framework_spec, monkeypatch):
    monkeypatch.setattr(framework_spec, "_MEMO_CAPACITY", 8)
    framework_spec.clear_cache()
    state = framework_spec._loaded()
    for i in range(40):
        spec = framework_spec.replacement_spec_for(RMS_NORM, module_type=f"m.Norm{i}")
        assert spec.old_ctor == f"Norm{i}"
        assert len(state.answers) <= 8
    assert framework_spec.replacement_spec_for(RMS_NORM, module_type="m.Norm0").old_ctor == "Norm0"
    # The intern table keeps no spec alive: only those the memo (or a caller) still holds.
    assert len(state.resolver._interned) <= 8 + 1


def test_a_full_memo_evicting_under_many_threads_still_answers_every_call(framework_spec, monkeypatch):
    import threading

    monkeypatch.setattr(framework_spec, "_MEMO_CAPACITY", 4)
    framework_spec.clear_cache()
    wrong = []

    def ask(offset):
        for i in range(300):
            name = f"Norm{(i + offset) % 12}"
            try:
                if framework_spec.replacement_spec_for(RMS_NORM, module_type=f"m.{name}").old_ctor != name:
                    wrong.append(name)
            except Exception as error:  # a thread's exception would not reach the test otherwise
                wrong.append(repr(error))

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []
    assert len(framework_spec._loaded().answers) <= 4
