"""The hints of `famspec check` through the Python package, from the core's one rule: a near miss of
a slot key refuses the plan (parse_plan and the drop-in raise PlanError, with the command's words);
the other hints are PlanWarnings, without strict reading."""

import warnings

import pytest

import famspec
from conftest import RMS_NORM, run_cli

PLAN = ("model_type: qwen3_moe\nplan_overrides:\n  - match: '*.norm'\n"
        "    module_type: transformers.models.qwen3_moe.modeling_qwen3_moe.Qwen3MoeRMSNorm\n"
        f"    replace_modul:\n      _target_: {RMS_NORM}\n"
        "  - match: y\n    when: ep\n    local_compute_f: a.c\n")
SLOT_HINT = ("plan_overrides entry key 'replace_modul' is not read by famspec (did you mean `replace_module`?): "
             "the target under it would be left out")


def _hints(value):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        plan = famspec.parse_plan(value)
    assert all(w.category is famspec.PlanWarning for w in caught)
    return plan, [str(w.message) for w in caught]


def test_a_misspelt_slot_key_refuses_the_plan_with_the_commands_words(tmp_path):
    path = tmp_path / "misspelt.yaml"
    path.write_text(PLAN, encoding="utf-8")
    with pytest.raises(famspec.PlanError) as caught:
        famspec.parse_plan(path)
    error = caught.value
    assert (error.file, error.line, error.column, error.message) == (str(path), 5, 5, SLOT_HINT)
    placed = [f"{e.file}:{e.line}:{e.column}: {e.message}" for e in error.errors]
    assert placed == [
        f"{path}:5:5: {SLOT_HINT}",
        f"{path}:9:5: plan_overrides entry key 'local_compute_f' is not read by famspec (did you mean "
        "`local_compute_fn`?): the target under it would be left out"]
    # famspec check refuses the same plan, each key with the same words.
    checked = run_cli("--plugin-path", famspec.default_plugin_directory(), "check", str(path))
    refusal = "2 misspelt slot key(s): the plan is refused rather than answered without their targets"
    assert checked.returncode == 1
    assert checked.stderr == "".join(f"famspec: {e.file}:{e.line}:{e.column}: error: {e.message}\n"
                                     for e in error.errors) + f"famspec: {path}: {refusal}\n"
    with pytest.raises(famspec.PlanError, match="replace_modul"):
        famspec.parse_plan(PLAN)  # as text too


def test_the_other_hints_are_warnings_and_the_plan_is_read():
    plan, hints = _hints("model:\n  _target_: a.b.build\n  model_type: qwen3_moe\n"
                         "plan_overrides:\n  - match: x\n    module_tpye: a.B\n"
                         "extra:\n  - stage: 1\n    plan_overrides:\n      - match: a\n")
    assert len(plan.entries) == 1
    assert hints == [
        "<text>:3:3: model.model_type is not read by famspec: the family comes from the top-level model_type or "
        "architecture, else from model._target_ (or --model-type)",
        "<text>:6:5: plan_overrides entry key 'module_tpye' is not read by famspec (did you mean `module_type`?)",
        "<text>:9:5: a plan_overrides under 'extra' is not read by famspec: only the top-level one is",
    ]
    assert [w["suggestion"] for w in plan.warnings] == ["", "module_type", ""]
    assert not any(w["refuses"] for w in plan.warnings)


def test_a_plan_without_hints_warns_nothing():
    plan, hints = _hints("plan_overrides:\n  - match: '*.mlp'\n    params: {w1: [0, 1]}\n    in_src: [R]\n"
                         "    tp_divide_attrs: [num_heads]\n")
    assert hints == [] and plan.warnings == []


def test_a_misspelt_or_nested_plan_overrides_is_named_without_strict():
    with pytest.raises(famspec.PlanError) as near:
        famspec.parse_plan("model_type: x\nplan_override:\n  - match: a\n")
    assert str(near.value) == ("<text>:1:1: expected a top-level plan_overrides list; 'plan_override' at 2:1 is not "
                               "it (did you mean `plan_overrides`?)")
    with pytest.raises(famspec.PlanError) as nested:
        famspec.parse_plan("model_type: x\ntraining:\n  plan_overrides:\n    - match: a\n")
    assert str(nested.value) == ("<text>:1:1: expected a top-level plan_overrides list; a plan_overrides under "
                                 "'training' at 3:3 is not read: famspec reads it only at the top level")


def test_the_drop_in_warns_of_a_misspelt_slot_key_and_answers_as_upstream(framework_spec):
    overrides = [{"match": "a", "module_type": "x.Y", "replace_module": {"_target_": RMS_NORM}},
                 {"match": "b", "replace_modul": {"_target_": RMS_NORM}}]
    with warnings.catch_warnings(record=True) as slot_warnings:
        warnings.simplefilter("always")
        answered = framework_spec.declaration_summary("qwen3_moe", overrides)
    assert [(w.category, str(w.message)) for w in slot_warnings] == [
        (famspec.PlanWarning, f"overrides[1]: {SLOT_HINT}")]
    assert list(answered["replacement_specs"]) == [RMS_NORM]
    with warnings.catch_warnings(record=True) as caught_warnings:
        warnings.simplefilter("always")
        summary = framework_spec.declaration_summary(
            "qwen3_moe", [{"match": "a", "module_type": "x.Y", "module_tpye": "x.Y", "params": {},
                           "replace_module": {"_target_": RMS_NORM}}])
    assert [(w.category, str(w.message)) for w in caught_warnings] == [
        (famspec.PlanWarning, "overrides[0]: plan_overrides entry key 'module_tpye' is not read by famspec (did you "
                              "mean `module_type`?)")]
    assert list(summary["replacement_specs"]) == [RMS_NORM]
