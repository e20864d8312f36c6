"""YAML merge keys ('<<') read by famspec exactly as the runtime's loader (PyYAML) reads them: at
every level, explicit keys first, then the merged mappings in their order."""

import os

import pytest
import yaml

import famspec

QWEN_NORM = "hyper_parallel.models.qwen3_moe.adapter.replacements.replace_qwen3_moe_rms_norm"
QWEN_EP = "hyper_parallel.models.qwen3_moe.adapter.distributed.expert_parallel.qwen3moe_ep_compute_fn"

CONFIGS = {
    "top level": """
defaults: &defaults
  model_type: qwen3_moe
  architecture: Qwen3MoeForCausalLM
<<: *defaults
plan_overrides:
  - match: "*.mlp"
    when: ep
    local_compute_fn: %(ep)s
""",
    "top level, explicit key wins": """
defaults: &defaults {model_type: deepseek_v3, architecture: Qwen3MoeForCausalLM}
<<: *defaults
model_type: qwen3_moe
plan_overrides: []
""",
    "top level, the overrides themselves": """
base: &base
  plan_overrides:
    - match: x
      when: ep
      local_compute_fn: %(ep)s
<<: *base
model_type: qwen3_moe
""",
    "entries": """
plan_overrides:
  - &norm
    match: "*.input_layernorm"
    module_type: a.Norm
    replace_module: %(norm)s
  - <<: *norm
    match: model.norm
  - <<: *norm
    match: [a, b]
    module_type: a.OtherNorm
    exact_type: true
""",
    "lists of merges, in both orders": """
a: &a {when: ep, module_type: a.A}
b: &b {when: cp, module_type: a.B, exact_type: false}
plan_overrides:
  - <<: [*a, *b]
    match: x
    local_compute_fn: %(ep)s
  - <<: [*b, *a]
    match: y
    local_compute_fn: %(ep)s
  - <<: [*b, *a]
    match: z
    when: low_precision
    replace_module: %(norm)s
""",
    "two merge keys in one mapping": """
a: &a {when: ep, module_type: a.A}
b: &b {when: cp}
plan_overrides:
  - <<: *a
    <<: *b
    match: x
    local_compute_fn: %(ep)s
""",
    "nested: targets and chained merges": """
target: &target {_target_: %(ep)s, use_grouped_gemm: true, capacity: 0.5}
strict: &strict {<<: *target, capacity: 1.5, name: fast}
plan_overrides:
  - match: x
    when: ep
    local_compute_fn:
      <<: *strict
      use_grouped_gemm: false
  - match: y
    when: cp
    inner_target: self
    inner_wrapper: {<<: [*target], _target_: %(ep)s}
""",
    "an explicit !!merge tag, and a quoted '<<' that is no merge": """
a: &a {when: ep, module_type: a.A}
plan_overrides:
  - !!merge <<: *a
    match: x
    local_compute_fn: %(ep)s
  - "<<": *a
    match: y
    local_compute_fn: %(ep)s
""",
    "flow style and merged lists of entries": """
entry: &entry {match: x, when: ep, local_compute_fn: %(ep)s}
plan_overrides: [{<<: *entry}, {<<: *entry, match: y}, {<<: [{when: cp}, *entry], match: z}]
""",
}


def _target(value):
    if value is None:
        return None
    if isinstance(value, str):
        return {"_target_": value}
    out = dict(value)
    if "target" in out:
        out["_target_"] = out.pop("target")
    return out


def _pyyaml_reading(text):
    """What famspec reads, taken from PyYAML's document: the family and each entry's keys."""
    document = yaml.safe_load(text)
    entries = []
    for entry in document.get("plan_overrides") or []:
        match = entry["match"]
        entries.append({
            "match": [match] if isinstance(match, str) else list(match),
            "when": entry.get("when"),
            "module_type": entry.get("module_type"),
            "exact_type": entry.get("exact_type"),
            "inner_target": entry.get("inner_target"),
            "replace_module": _target(entry.get("replace_module")),
            "local_compute_fn": _target(entry.get("local_compute_fn")),
            "inner_wrapper": _target(entry.get("inner_wrapper")),
        })
    return document.get("model_type"), document.get("architecture"), entries


def _famspec_reading(text):
    plan = famspec.parse_plan(text)
    entries = []
    for entry in plan.entries:
        entry = dict(entry)
        del entry["line"], entry["column"]
        entries.append(entry)
    return plan.model_type, plan.architecture, entries


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_famspec_reads_merge_keys_as_pyyaml_does(name):
    text = CONFIGS[name] % {"ep": QWEN_EP, "norm": QWEN_NORM}
    ours = _famspec_reading(text)
    theirs = _pyyaml_reading(text)
    assert ours == theirs
    # Not vacuous: every config has a family or entries to compare.
    assert ours[0] is not None or ours[2]


def test_the_comparison_sees_a_difference():
    """The reading compared is famspec's own: a merge famspec dropped would show."""
    text = CONFIGS["top level"] % {"ep": QWEN_EP, "norm": QWEN_NORM}
    assert _famspec_reading(text)[0] == "qwen3_moe"
    assert _famspec_reading(text.replace("<<: *defaults\n", ""))[0] is None


def test_a_merge_pyyaml_refuses_famspec_refuses_too():
    for text in ("<<: 3\nplan_overrides: []\n", "a: &a [1]\nplan_overrides:\n  - <<: [*a]\n    match: x\n"):
        with pytest.raises(yaml.YAMLError):
            yaml.safe_load(text)
        with pytest.raises(famspec.PlanError, match=r"merge key '<<': expected a mapping"):
            famspec.parse_plan(text)


def test_a_merged_plan_summarises_as_its_keys_written_out(resolver, tmp_path):
    merged = CONFIGS["entries"] % {"ep": QWEN_EP, "norm": QWEN_NORM}
    written = """
plan_overrides:
  - {match: "*.input_layernorm", module_type: a.Norm, replace_module: %(norm)s}
  - {match: model.norm, module_type: a.Norm, replace_module: %(norm)s}
  - {match: [a, b], module_type: a.OtherNorm, exact_type: true, replace_module: %(norm)s}
""" % {"norm": QWEN_NORM}
    path = tmp_path / "merged.yaml"
    path.write_text(merged)
    assert resolver.summary(os.fspath(path), "qwen3_moe").digest() == resolver.summary(written, "qwen3_moe").digest()
