"""famspec-bench's Python probe: one measurement in a fresh interpreter, printed as key=value lines.

    python3 python_probe.py import    import famspec and answer a first replacement_spec_for (loads the plugins)
    python3 python_probe.py cached    a cached framework_spec.replacement_spec_for, and a dict lookup (the floor)
    python3 python_probe.py torch     the same first answer in the real host, after `import torch` (the floor)
"""

import sys
import time

TARGET = "hyper_parallel.models.qwen3_moe.adapter.replacements.replace_qwen3_moe_rms_norm"
MODULE_TYPE = "transformers.models.qwen3_moe.modeling_qwen3_moe.Qwen3MoeRMSNorm"


def first_answer():
    start = time.perf_counter_ns()
    from famspec import framework_spec

    spec = framework_spec.replacement_spec_for(TARGET, "qwen3_moe", module_type=MODULE_TYPE)
    elapsed = time.perf_counter_ns() - start
    if spec is None:
        sys.exit("python_probe: the qwen3_moe norm replacement is not covered")
    print(f"ns={elapsed}")


def in_torch_host():
    # The runtime imports torch before famspec: what famspec adds is what it costs the job.
    start = time.perf_counter_ns()
    import torch  # noqa: F401

    torch_ns = time.perf_counter_ns() - start
    first_answer()
    print(f"floor_ns={torch_ns}")


def ns_per_call(call, batches=51, calls=2000):
    samples = []
    for _ in range(batches):
        start = time.perf_counter_ns()
        for _ in range(calls):
            call()
        samples.append((time.perf_counter_ns() - start) / calls)
    return sorted(samples)[len(samples) // 2]


def cached():
    from famspec import framework_spec

    spec = framework_spec.replacement_spec_for(TARGET, "qwen3_moe", module_type=MODULE_TYPE)
    if spec is None:
        sys.exit("python_probe: the qwen3_moe norm replacement is not covered")
    table = {(TARGET + str(i), "qwen3_moe", MODULE_TYPE): i for i in range(100)}
    table[(TARGET, "qwen3_moe", MODULE_TYPE)] = spec
    lookup = framework_spec.replacement_spec_for
    famspec_ns = ns_per_call(lambda: lookup(TARGET, "qwen3_moe", module_type=MODULE_TYPE))
    floor_ns = ns_per_call(lambda: table[(TARGET, "qwen3_moe", MODULE_TYPE)])
    print(f"ns={famspec_ns:.1f}\nfloor_ns={floor_ns:.1f}")


if __name__ == "__main__":
    {"import": first_answer, "cached": cached, "torch": in_torch_host}[sys.argv[1]]()
