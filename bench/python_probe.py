"""famspec-bench's Python probe: one measurement in a fresh interpreter, printed as key=value lines.

    python3 python_probe.py import    import famspec and answer a first replacement_spec_for (loads the plugins)
    python3 python_probe.py cached    a cached framework_spec.replacement_spec_for, and a dict lookup (the floor)
    python3 python_probe.py torch     the same first answer in the real host, after `import torch` (the floor)
    python3 python_probe.py wheel-size WHEEL
                                      the wheel's size, and its floor: the uncompressed bytes of the
                                      libraries a runtime maps to answer (libfamspec, the extension, the
                                      shipped plugins); what else it packs, uncompressed
    python3 python_probe.py install-wheel WHEEL DIR
                                      a venv of this python3 in DIR that sees its packages (torch), with
                                      the wheel installed by pip, offline (set up once, not timed)
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


def wheel_size():
    import os
    import re
    import zipfile

    wheel = sys.argv[2]
    loaded = re.compile(r"famspec/(_native\..*\.so|data/lib/libfamspec\.so\.\d+|data/lib/famspec/plugins/[^/]+\.so)")
    with zipfile.ZipFile(wheel) as archive:
        infos = archive.infolist()
    floor = sum(info.file_size for info in infos if loaded.fullmatch(info.filename))
    rest = sum(info.file_size for info in infos if not loaded.fullmatch(info.filename))
    print(f"bytes={os.path.getsize(wheel)}\nfloor_bytes={floor}\nother_bytes={rest}")


def install_wheel():
    import os
    import subprocess
    import venv

    wheel, directory = sys.argv[2], sys.argv[3]
    venv.EnvBuilder(system_site_packages=True, clear=True, with_pip=False).create(directory)
    python = os.path.join(directory, "bin", "python")
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "FAMSPEC_PLUGIN_PATH")}
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", "--no-cache-dir",
                    "--disable-pip-version-check", wheel], check=True, env=environment, stdout=sys.stderr)
    print("installed=1")


if __name__ == "__main__":
    {"import": first_answer, "cached": cached, "torch": in_torch_host, "wheel-size": wheel_size,
     "install-wheel": install_wheel}[sys.argv[1]]()
