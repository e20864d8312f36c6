"""famspec.distributed on real 4-process gloo jobs on localhost (free port, bounded time)."""

import json
import os
import shutil
import socket
import subprocess
import sys

import pytest

from conftest import PLANS, PLUGIN_DIR, run_cli

if os.environ.get("FAMSPEC_SANITIZE") == "1":
    pytest.skip("torch is not built with the sanitizers the extension carries", allow_module_level=True)
torch = pytest.importorskip("torch")  # Debian's python3-torch, installed by install-deps.sh

WORLD = 4
TIMEOUT = 240  # seconds for a whole job, torch imports included, on a busy machine
WORKER = os.path.join(os.path.dirname(__file__), "distributed_worker.py")
PLAN = os.path.join(PLANS, "qwen3_moe.yaml")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_job(scenario, alt_plugin_dir="", alt_plan=""):
    port = str(free_port())
    env = {k: v for k, v in os.environ.items() if k != "FAMSPEC_PLUGIN_PATH"}
    procs = [subprocess.Popen([sys.executable, WORKER, scenario, port, str(rank), str(WORLD), PLUGIN_DIR, PLAN,
                               alt_plugin_dir, alt_plan], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env) for rank in range(WORLD)]
    results = {}
    try:
        for rank, proc in enumerate(procs):
            out, err = proc.communicate(timeout=TIMEOUT)
            lines = [line for line in out.splitlines() if line.startswith("{")]
            results[rank] = (proc.returncode, json.loads(lines[-1]) if lines else None, err)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    return results


def test_all_ranks_agree():
    results = run_job("agree")
    digest = run_cli("--plugin-path", PLUGIN_DIR, "summary", "--digest", PLAN).stdout.strip()
    for rank, (code, result, err) in results.items():
        assert code == 0 and result is not None, err
        assert result["agreed"]["summary"] == digest and result["agreed"]["world_size"] == WORLD


def test_a_rank_without_a_plugin_makes_every_rank_raise_naming_it(tmp_path):
    partial = tmp_path / "plugins"
    shutil.copytree(PLUGIN_DIR, partial)
    (partial / "famspec_deepseek_v41.so").unlink()
    results = run_job("missing_plugin", str(partial))
    for rank, (code, result, err) in results.items():
        assert result is not None and "disagreement" in result, err
        message = result["disagreement"]
        assert f"ranks [{WORLD - 1}] on {socket.gethostname()}" in message
        assert "plugin removed: deepseek_v41" in message
        assert sorted(result["groups"].values()) == [list(range(WORLD - 1)), [WORLD - 1]]


def test_a_rank_with_another_plan_makes_every_rank_raise_naming_the_target(tmp_path):
    changed = tmp_path / "plan.yaml"
    text = open(PLAN, encoding="utf-8").read()
    assert "Qwen3MoeRMSNorm" in text
    changed.write_text(text.replace("modeling_qwen3_moe.Qwen3MoeRMSNorm", "modeling_qwen3_moe.OtherNorm"))
    results = run_job("plan_differs", alt_plan=str(changed))
    for rank, (code, result, err) in results.items():
        assert result is not None and "disagreement" in result, err
        message = result["disagreement"]
        assert "plan summary" in message and "ranks [1] on" in message
        assert "replace_qwen3_moe_rms_norm: old_ctor" in message
        assert sorted(result["groups"].values()) == [[0, 2, 3], [1]]


def test_resolve_once_gives_every_rank_the_cli_digest():
    results = run_job("resolve_once")
    digest = run_cli("--plugin-path", PLUGIN_DIR, "summary", "--digest", PLAN).stdout.strip()
    for rank, (code, result, err) in results.items():
        assert code == 0 and result is not None, err
        assert result["digest"] == digest


def test_a_rank_that_dies_before_the_collective_does_not_hang_the_others():
    results = run_job("dies")  # communicate() raises TimeoutExpired (a failure) if any rank hangs
    assert results[WORLD - 1][0] == 3
    for rank in range(WORLD - 1):
        code, result, err = results[rank]
        assert result is not None and "error" in result, err
