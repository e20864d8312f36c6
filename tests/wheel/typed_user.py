"""A user's script, checked with `mypy --strict` against the installed package's stubs."""

from typing import Optional, Tuple

import famspec
from famspec.framework_spec import replacement_spec_for, strategy_spec_for

NORM = "hyper_parallel.models.qwen3_moe.adapter.replacements.replace_qwen3_moe_rms_norm"
EP = "hyper_parallel.models.qwen3_moe.adapter.distributed.expert_parallel.qwen3moe_ep_compute_fn"
PLAN = "plan_overrides:\n- match: x\n  local_compute_fn: " + EP + "\n"


def constructor(target: str) -> Optional[str]:
    spec = replacement_spec_for(target, "qwen3_moe", module_type="x.Qwen3MoeRMSNorm")
    return None if spec is None else spec.new_ctor


def digest_and_kinds() -> Tuple[str, Tuple[str, ...]]:
    registry: famspec.Registry = famspec.load_plugins()
    resolver = famspec.Resolver(registry, strict=False)
    answer: famspec.Resolution = resolver.strategy(EP, "qwen3_moe")
    kinds = tuple(d.kind for d in answer.diagnostics)
    plan: famspec.Plan = famspec.parse_plan(PLAN)
    targets = [t["target"] for t in plan.targets]
    assert targets == [EP]
    summary = resolver.summary(plan)
    entries = [e.status for e in summary.entries]
    assert entries == ["resolved"]
    return summary.digest(), kinds


def partial_answers() -> Tuple[bool, Tuple[str, ...], Optional[str]]:
    """The partial-registry API: a registry that accepts failures, and the error a strict one raises."""
    registry = famspec.load_plugins(allow_partial=True)
    failed: Tuple[famspec.PluginRecord, ...] = registry.failures
    resolver = famspec.Resolver(registry, allow_partial=True)
    plan = famspec.parse_plan(PLAN)
    model_target: Optional[str] = plan.model_target
    assert [entry["match"] for entry in plan.entries] == [["x"]]
    try:
        raise famspec.PartialRegistryError(failed)
    except famspec.PartialRegistryError as error:
        paths = tuple(record.path for record in error.failures)
    assert resolver.registry.allow_partial
    return registry.all_ok, paths, model_target


if __name__ == "__main__":
    assert constructor(NORM) == "RMSNorm"
    strategy = strategy_spec_for(EP, "qwen3_moe")
    assert strategy is not None and strategy.target_class == "Qwen3MoeSparseMoeBlock"
    digest, kinds = digest_and_kinds()
    assert digest.startswith("sha256:") and kinds == ()
    all_ok, failed_paths, model_target = partial_answers()
    assert all_ok and failed_paths == () and model_target is None
    try:
        famspec.parse_plan("plan_overrides: 3\n")
    except famspec.PlanError as error:
        line: int = error.line
        assert line >= 1
    print(famspec.cmake_dir(), famspec.__version__)
