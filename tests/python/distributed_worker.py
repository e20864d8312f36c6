"""One rank of a localhost gloo job for test_distributed.py; prints one JSON line with its outcome.

usage: distributed_worker.py SCENARIO PORT RANK WORLD PLUGIN_DIR PLAN [ALT_PLUGIN_DIR ALT_PLAN]
"""

import json
import os
import sys
from datetime import timedelta


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
        if scenario == "resolve_once":
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


if __name__ == "__main__":
    main()
