"""One rank of a localhost gloo job for test_distributed.py (and, scenario "measure", for the figures in
docs/scale.md); prints one JSON line with its outcome.

usage: distributed_worker.py SCENARIO PORT RANK WORLD PLUGIN_DIR PLAN [ALT_PLUGIN_DIR ALT_PLAN]
"""

import json
import os
import sys
from datetime import timedelta


def measure(fd, summary, registry, plan, rounds=30):
    """Median wall time per call and the pickled bytes each rank contributes (docs/scale.md)."""
    import pickle
    import socket
    import statistics
    import time

    def median_ms(call):
        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            call()
            times.append((time.perf_counter() - start) * 1e3)
        return round(statistics.median(times), 3)

    record = {"rank": 0, "host": socket.gethostname(), "snapshot": "sha256:" + "0" * 64, "summary": summary.digest()}
    return {"agree_ms": median_ms(lambda: fd.agree(summary, registry)),
            "resolve_once_ms": median_ms(lambda: fd.resolve_once(plan, registry)),
            "record_bytes": len(pickle.dumps(record)),
            "summary_bytes": len(summary.canonical_json()),
            "snapshot_bytes": len(registry.snapshot())}


def main():
    scenario, port, rank, world, plugin_dir, plan = sys.argv[1:7]
    alt_plugin_dir, alt_plan = sys.argv[7:9]
    rank, world = int(rank), int(world)
    import torch.distributed as dist

    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world,
                            timeout=timedelta(seconds=30))
    import famspec
    import famspec.distributed as fd

    odd = rank == world - 1 if scenario in ("missing_plugin", "dies") else rank == 1
    registry = famspec.load_plugins([alt_plugin_dir if scenario == "missing_plugin" and odd else plugin_dir])
    my_plan = alt_plan if scenario == "plan_differs" and odd else plan
    if scenario == "dies" and odd:
        os._exit(3)  # gone before the collective
    try:
        if scenario == "measure":
            result = measure(fd, famspec.Resolver(registry).summary(plan), registry, plan)
        elif scenario == "resolve_once":
            summary = fd.resolve_once(plan, registry)
            result = {"digest": summary.digest(), "bytes": len(summary.canonical_json())}
        else:
            summary = famspec.Resolver(registry).summary(my_plan)
            result = {"agreed": fd.agree(summary, registry)}
    except fd.RankDisagreement as error:
        result = {"disagreement": str(error), "groups": {k: v for k, v in error.groups.items()}}
    except Exception as error:  # the dead-rank case: the collective fails, it does not hang
        result = {"error": f"{type(error).__name__}: {error}"}
    print(json.dumps({"rank": rank, **result}), flush=True)
    # Gloo's worker threads must be joined while the interpreter is alive; a process that exits with
    # its group still up aborts ("terminate called without an active exception", exit -6).
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
