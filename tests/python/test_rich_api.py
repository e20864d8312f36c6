"""The rich API: Resolver and Resolution, plans and their errors, summaries equal to the CLI's bytes."""

import os
import pickle

import pytest

import famspec
from conftest import ATTENTION, PLANS, PLUGIN_DIR, QWEN_CP, QWEN_EP, QWEN_MODELING, RMS_NORM, run_cli


def test_resolution_is_tri_state_with_reason_gap_and_explanation(resolver):
    hit = resolver.replacement(RMS_NORM, "Qwen3MoeForCausalLM", module_type=QWEN_MODELING + "Qwen3MoeRMSNorm")
    assert hit.status == "resolved" and hit.resolved
    assert hit.value.new_ctor == "RMSNorm" and hit.gap is None and hit.diagnostics == ()
    assert hit.explanation.family == "qwen3_moe" and hit.explanation.channel == "factory"
    assert hit.explanation.plugin == "qwen3_moe"
    # The factory is the family's; the component it constructs is the shipped catalogue's.
    assert [(role, plugin) for role, _, plugin in hit.explanation.declared_by] == [
        ("family", "qwen3_moe"), ("factory", "qwen3_moe"), ("component", "components")]
    assert hit.explanation.declared_by[1][1] == RMS_NORM
    assert hit.explanation.declared_by[2][1] == "hyper_parallel.components.modules.rms_norm.RMSNorm"
    ep = resolver.strategy(QWEN_EP, "qwen3_moe")
    assert ep.explanation.declared_by == (("family", "qwen3_moe", "qwen3_moe"), ("archetype", QWEN_EP, "qwen3_moe"))

    miss = resolver.replacement(RMS_NORM, "qwen3_moe")
    assert miss.status == "not_covered" and miss.value is None
    assert miss.gap == "missing_module_type" and "module_type" in miss.reason

    unknown = resolver.replacement(ATTENTION, "unregistered_model", module_type="m.X")
    assert unknown.gap == "unknown_family" and "unregistered_model" in unknown.reason

    slot = resolver.strategy(QWEN_CP, slot="local_compute_fn")
    assert slot.status == "not_covered" and slot.gap == "wrong_slot"
    assert resolver.strategy(QWEN_CP, slot="inner_wrapper").value.kind == "cp_attention"
    with pytest.raises(ValueError):
        resolver.strategy(QWEN_EP, slot="replace_module")

    interface = resolver.interface_component_class("qwen3_moe")
    assert interface.status == "resolved" and interface.value == "GQAAttention"
    assert resolver.external_state_classes("qwen3_moe", [(QWEN_EP, None), (None, None)]) == ("Qwen3MoeSparseMoeBlock",)


def test_results_are_read_only_values(registry):
    resolver = famspec.Resolver(registry)
    module_type = QWEN_MODELING + "Qwen3MoeRMSNorm"
    first = resolver.replacement(RMS_NORM, "qwen3_moe", module_type=module_type)
    again = resolver.replacement(RMS_NORM, "qwen3_moe", module_type=module_type)
    assert first.explanation.cache_hit is False and again.explanation.cache_hit is True
    assert first != again and first.value is again.value
    same = famspec.Resolution(*(getattr(first, name) for name in first.__slots__))
    assert same == first and hash(same) == hash(first) and pickle.loads(pickle.dumps(first)) == first
    assert repr(first).startswith("Resolution(status='resolved', value=ReplacementSpec(")
    with pytest.raises(AttributeError, match="read-only"):
        first.status = "error"
    with pytest.raises(AttributeError, match="read-only"):
        registry.plugins[0].name = "other"
    assert famspec.Diagnostic("ignored_option", "m", suggestion=None).suggestion is None
    with pytest.raises(TypeError, match="missing 'suggestion'"):
        famspec.Diagnostic("ignored_option", "m")
    with pytest.raises(TypeError, match="no field 'hint'"):
        famspec.Diagnostic("ignored_option", "m", None, hint="x")


def test_the_same_spec_object_from_the_rich_api_and_from_equal_answers(resolver):
    module_type = QWEN_MODELING + "Qwen3MoeRMSNorm"
    first = resolver.replacement(RMS_NORM, module_type=module_type).value
    resolver.clear_cache()
    assert resolver.replacement(RMS_NORM, "qwen3moe", module_type=module_type).value is first


def test_bad_options_are_a_gap_not_a_crash(resolver):
    bad = resolver.strategy(QWEN_EP, options={"use_grouped_gemm": "yes"})
    assert bad.status == "not_covered" and bad.gap == "bad_option"
    with pytest.raises(TypeError):
        resolver.strategy(QWEN_EP, options=[("use_grouped_gemm", True)])
    with pytest.raises(TypeError):
        famspec.Resolver("registry")


def test_parse_plan_from_a_path_a_pathlike_and_text(tmp_path):
    path = os.path.join(PLANS, "qwen3_moe.yaml")
    plan = famspec.parse_plan(path)
    assert plan.file == path and plan.model_type == "qwen3_moe"
    slots = [t["slot"] for t in plan.targets]
    assert slots.count("replace_module") == 3 and "inner_wrapper" in slots and "local_compute_fn" in slots
    ep = [t for t in plan.targets if t["slot"] == "local_compute_fn"][0]
    assert ep["target"] == QWEN_EP and ep["options"] == {"use_grouped_gemm": True}
    assert sorted(ep) == ["column", "line", "module_type", "options", "slot", "target"]
    import pathlib
    assert famspec.parse_plan(pathlib.Path(path)).targets == plan.targets
    text = famspec.parse_plan("plan_overrides:\n- match: x\n  local_compute_fn: " + QWEN_EP + "\n")
    assert text.file == "<text>"
    assert (text.targets[0]["slot"], text.targets[0]["target"]) == ("local_compute_fn", QWEN_EP)


def test_plan_errors_name_file_line_and_column(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("plan_overrides:\n  - match: x\n    replace_module:\n      _target_: [1, 2]\n")
    with pytest.raises(famspec.PlanError) as caught:
        famspec.parse_plan(str(bad))
    error = caught.value
    assert error.file == str(bad) and error.line == 4 and error.column > 0 and error.message
    assert str(error).startswith(f"{bad}:4:{error.column}: ")
    assert isinstance(error, ValueError)
    with pytest.raises(famspec.PlanError) as missing:
        famspec.parse_plan(str(tmp_path / "missing.yaml"))
    assert missing.value.file.endswith("missing.yaml")
    with pytest.raises(TypeError):
        famspec.parse_plan(3)


@pytest.mark.parametrize("plan", sorted(p for p in os.listdir(PLANS) if p.endswith(".yaml")))
def test_summary_bytes_and_digest_equal_the_cli(resolver, plan):
    path = os.path.join(PLANS, plan)
    summary = resolver.summary(famspec.parse_plan(path))
    cli_json = run_cli("--plugin-path", PLUGIN_DIR, "summary", path)
    cli_digest = run_cli("--plugin-path", PLUGIN_DIR, "summary", "--digest", path)
    assert cli_json.returncode == 0 and cli_digest.returncode == 0, cli_json.stderr
    assert summary.canonical_json() + "\n" == cli_json.stdout
    assert summary.digest() + "\n" == cli_digest.stdout
    assert summary.digest().startswith("sha256:") and len(summary.digest()) == 71
    assert resolver.summary(path).digest() == summary.digest()  # a path is parsed first
    assert len(summary.entries) == len(famspec.parse_plan(path).targets)


def test_summary_with_an_explicit_model_type_equals_the_cli(resolver):
    path = os.path.join(PLANS, "qwen3_moe.yaml")
    cli = run_cli("--plugin-path", PLUGIN_DIR, "summary", "--digest", "--model-type", "Qwen3MoeForCausalLM", path)
    assert resolver.summary(path, "Qwen3MoeForCausalLM").digest() + "\n" == cli.stdout


def test_diagnostics_are_reported_and_strict_makes_them_gaps(registry, tmp_path):
    from famspec import framework_spec

    misspelt = {"use_grouped_gem": True}
    lenient = famspec.Resolver(registry).strategy(QWEN_EP, options=misspelt)
    assert lenient.status == "resolved"
    assert [d.kind for d in lenient.diagnostics] == ["ignored_option"]
    assert lenient.diagnostics[0].suggestion == "use_grouped_gemm"
    assert lenient.diagnostics[0].message.startswith("option 'use_grouped_gem' is ignored")

    strict = famspec.Resolver(registry, strict=True).strategy(QWEN_EP, options=misspelt)
    assert (strict.status, strict.gap, strict.value) == ("not_covered", "bad_option", None)
    assert strict.reason == lenient.diagnostics[0].message

    # The drop-in module follows the strictness use_registry was given.
    framework_spec.use_registry(registry)
    assert framework_spec.strategy_spec_for({"_target_": QWEN_EP, **misspelt}) == lenient.value
    framework_spec.use_registry(registry, strict=True)
    try:
        assert framework_spec.strategy_spec_for({"_target_": QWEN_EP, **misspelt}) is None
        assert framework_spec.strategy_spec_for(QWEN_EP) is not None
    finally:
        framework_spec.use_registry(registry)

    # A plan summary under strict equals `famspec summary --strict`, byte for byte.
    plan = tmp_path / "misspelt.yaml"
    plan.write_text("model_type: qwen3_moe\nplan_overrides:\n  - match: '*.mlp'\n    local_compute_fn:\n"
                    f"      _target_: {QWEN_EP}\n      use_grouped_gem: true\n")
    for strict_flag in (False, True):
        summary = famspec.Resolver(registry, strict=strict_flag).summary(str(plan))
        (entry,) = summary.entries
        assert [d.kind for d in entry.diagnostics] == ["ignored_option"]
        assert entry.status == ("not_covered" if strict_flag else "resolved")
        cli = run_cli("--plugin-path", PLUGIN_DIR, "summary", str(plan), *(["--strict"] if strict_flag else []))
        assert cli.returncode == 0, cli.stderr
        assert cli.stdout == summary.canonical_json() + "\n"


def test_a_plan_error_carries_every_error_of_the_plan():
    with pytest.raises(famspec.PlanError) as caught:
        famspec.parse_plan("plan_overrides:\n  - 42\n  - match: x\n    exact_type: maybe\n")
    error = caught.value
    assert [(e.line, e.column) for e in error.errors] == [(2, 5), (4, 17)]
    assert error.errors[0] is error
    assert error.errors[1].message == "'exact_type': expected true or false, found 'maybe'"
    assert str(error).endswith("(and 1 more: <text>:4:17: 'exact_type': expected true or false, found 'maybe')")
