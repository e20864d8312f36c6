"""The cp39 wheel on Debian 11, run by run.sh inside the root with the venv's interpreter.

    python proof.py EXPECTED_DIGEST PLAN PLUGIN...

The famspec command (list, check, summary --digest), the drop-in's five functions and load_plugins on
the shipped plugins, each with the exact answer. Exits non-zero (an AssertionError) at the first
difference.
"""

import os
import subprocess
import sys
from pathlib import Path

expected_digest, plan, *plugins = sys.argv[1:]

# Where it runs: Debian 11's glibc and Python.
assert os.confstr("CS_GNU_LIBC_VERSION") == "glibc 2.31", os.confstr("CS_GNU_LIBC_VERSION")
assert sys.version_info[:2] == (3, 9), sys.version


def famspec(*args: str) -> str:
    """The venv's famspec console script; fails on any exit status but 0."""
    command = Path(sys.executable).parent / "famspec"
    done = subprocess.run([str(command), *args], capture_output=True, text=True)
    assert done.returncode == 0, f"famspec {' '.join(args)}: exit {done.returncode}\n{done.stdout}{done.stderr}"
    return done.stdout


listed = famspec("list").splitlines()
assert listed[0].split()[:4] == ["NAME", "VERSION", "ABI", "STATUS"], listed[0]
assert sorted(line.split()[0] for line in listed[1:]) == plugins, listed
assert {line.split()[3] for line in listed[1:]} == {"ok"}, listed
famspec("check", plan)
assert famspec("summary", "--digest", plan) == expected_digest + "\n"

# The drop-in's five functions, as docs/python.md uses them.
from famspec import framework_spec  # noqa: E402
from famspec.framework_spec import replacement_spec_for, strategy_spec_for  # noqa: E402

NORM = "hyper_parallel.models.qwen3_moe.adapter.replacements.replace_qwen3_moe_rms_norm"
spec = replacement_spec_for(NORM, "Qwen3MoeForCausalLM",
                            module_type="transformers.models.qwen3_moe.modeling_qwen3_moe.Qwen3MoeRMSNorm")
assert (spec.old_ctor, spec.new_ctor, spec.mode) == ("Qwen3MoeRMSNorm", "RMSNorm", "wrap_source"), spec
assert spec.keyword_args == ("module_fqn=''", "context=None"), spec
EP = "hyper_parallel.models.qwen3_moe.adapter.distributed.expert_parallel.qwen3moe_ep_compute_fn"
assert strategy_spec_for({"_target_": EP, "use_grouped_gemm": True}).target_class == "Qwen3MoeSparseMoeBlock"
assert framework_spec.external_state_classes_for("qwen3_moe", [{"local_compute_fn": EP}]) == \
    ("Qwen3MoeSparseMoeBlock",)
assert framework_spec.interface_component_class("qwen3_moe") == "GQAAttention"
summary = framework_spec.declaration_summary("qwen3_moe", [{"local_compute_fn": EP}, {"replace_module": "a.b"}])
assert summary["replacement_specs"] == {"a.b": None}, summary
assert summary["strategy_specs"][EP]["kind"] == "moe_ep_routed", summary

# load_plugins on the shipped plugins, from the package's own directory.
import famspec  # noqa: E402

registry = famspec.load_plugins()
assert registry.all_ok, [(p.name, p.stage) for p in registry.plugins]
assert sorted(p.name for p in registry.plugins) == plugins, [p.name for p in registry.plugins]
shipped = Path(famspec.__file__).parent / "data" / "lib" / "famspec" / "plugins"
assert {Path(p.path).parent for p in registry.plugins} == {shipped}, [p.path for p in registry.plugins]
assert "qwen3_moe" in registry.families
assert famspec.Resolver(registry).summary(famspec.parse_plan(plan)).digest() == expected_digest

print(f"debian11: {os.confstr('CS_GNU_LIBC_VERSION')}, Python {sys.version.split()[0]}: famspec list, check and "
      f"summary --digest ({expected_digest}), the drop-in and load_plugins ({len(plugins)} plugins) pass")
