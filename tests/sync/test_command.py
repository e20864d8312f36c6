"""famspec sync as operators run it: the C++ command (which runs the Python package) and
`python3 -m famspec sync`, each a fresh process that loads the shipped plugins itself."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from conftest import RUNTIME, make_tree, snapshot
from runtime_tree import required as _required
from runtime_tree import run, run_importing_nothing_of


def test_the_cli_and_python_m_write_the_same_project(tmp_path):
    cli, plugins = _required("FAMSPEC_CLI"), _required("FAMSPEC_PLUGIN_DIR")
    by_cli = run([cli, "--plugin-path", plugins, "sync", "--source-root", RUNTIME, "--family", "qwen3_moe",
                  "--out", tmp_path / "cli"])
    assert by_cli.returncode == 0, by_cli.stderr
    by_python = run([sys.executable, "-m", "famspec", "sync", "--plugin-path", plugins, "--source-root", RUNTIME,
                     "--family", "Qwen3MoeForCausalLM", "--out", tmp_path / "python"])
    assert by_python.returncode == 0, by_python.stderr
    assert snapshot(tmp_path / "cli") == snapshot(tmp_path / "python")
    assert "plugin.cpp" in snapshot(tmp_path / "cli")
    check = run([cli, "--plugin-path", plugins, "sync", "--source-root", RUNTIME, "--family", "qwen3_moe",
                 "--out", tmp_path / "cli", "--check"])
    assert (check.returncode, check.stdout) == (0, "")


def test_the_cli_passes_exit_codes_and_says_what_it_needs(tmp_path):
    cli, plugins = _required("FAMSPEC_CLI"), _required("FAMSPEC_PLUGIN_DIR")
    unknown = run([cli, "--plugin-path", plugins, "sync", "--source-root", RUNTIME, "--family", "acme",
                   "--out", tmp_path / "x"])
    assert unknown.returncode == 2 and "famspec sync: --family acme: no registration" in unknown.stderr
    stale = run([cli, "--plugin-path", plugins, "sync", "--source-root", RUNTIME, "--family", "qwen3_moe",
                 "--out", tmp_path / "missing", "--check"])
    assert stale.returncode == 1 and stale.stdout.startswith("--- /dev/null\n+++ b/CMakeLists.txt\n")
    assert not (tmp_path / "missing").exists()
    missing = run([cli, "sync", "--source-root", RUNTIME, "--family", "qwen3_moe", "--out", tmp_path / "x"],
                  env={**os.environ, "FAMSPEC_PYTHON": "/nonexistent/python3"})
    assert missing.returncode == 2
    assert "famspec sync: the command is Python and needs /nonexistent/python3" in missing.stderr
    usage = run([cli, "sync", "--source-root", RUNTIME])
    assert usage.returncode == 2 and "--family" in usage.stderr


def test_sync_imports_nothing_of_the_runtime(tmp_path):
    # Every package of the tree fails on import: sync must still write the project, and import no torch.
    tree = make_tree(tmp_path / "runtime")
    run_importing_nothing_of(tree.root, "sync", ["--source-root", str(tree.root), "--family", "acme_moe",
                                                 "--out", str(tmp_path / "out"),
                                                 "--plugin-path", _required("FAMSPEC_PLUGIN_DIR")])
    assert (tmp_path / "out" / "python" / "acme_attention.py").is_file()


def test_the_cli_imports_nothing_from_the_working_directory(tmp_path, declarations_file):
    # A planted package and stdlib module in the working directory: isolated, the worker imports neither.
    cwd = tmp_path / "cwd"
    (cwd / "famspec").mkdir(parents=True)
    planted = "import pathlib; pathlib.Path(__file__).with_name('IMPORTED').touch(); raise SystemExit(0)\n"
    (cwd / "famspec" / "__init__.py").write_text(planted, encoding="utf-8")
    (cwd / "famspec" / "audit.py").write_text(planted, encoding="utf-8")
    (cwd / "argparse.py").write_text(planted, encoding="utf-8")
    result = run([_required("FAMSPEC_CLI"), "sync", "--source-root", RUNTIME, "--family", "qwen3_moe",
                  "--out", tmp_path / "out", "--declarations", declarations_file], cwd=cwd)
    assert result.returncode == 0, result.stderr
    assert not (cwd / "IMPORTED").exists() and not (cwd / "famspec" / "IMPORTED").exists()
    assert (tmp_path / "out" / "plugin.cpp").is_file()


def test_an_interpreter_that_is_not_python_is_refused(tmp_path):
    result = run([_required("FAMSPEC_CLI"), "sync", "--source-root", RUNTIME, "--family", "qwen3_moe",
                  "--out", tmp_path / "out"], env={**os.environ, "FAMSPEC_PYTHON": "/bin/true"})
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == ("famspec sync: /bin/true did not run famspec's Python (no handshake; exit 0): is it a "
                             "Python 3 interpreter? Set FAMSPEC_PYTHON to one, or unset it to use /usr/bin/python3\n")
    assert not (tmp_path / "out").exists()


def test_killing_famspec_ends_its_python_worker(tmp_path):
    # The worker stalls in its first import from PYTHONPATH (after the bootstrap): a famspec killed
    # outright (SIGKILL, no relay) must take it along.
    slow = tmp_path / "slow"
    slow.mkdir()
    (slow / "argparse.py").write_text(
        "import os, pathlib, time\n"
        f"pathlib.Path({str(tmp_path / 'worker.pid')!r}).write_text(str(os.getpid()))\n"
        "time.sleep(60)\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": f"{slow}"}
    famspec = subprocess.Popen([_required("FAMSPEC_CLI"), "sync", "--source-root", str(RUNTIME), "--family",
                                "qwen3_moe", "--out", str(tmp_path / "out")], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pid_file = tmp_path / "worker.pid"
    deadline = time.monotonic() + 30
    while not pid_file.exists() or not pid_file.read_text():
        assert time.monotonic() < deadline and famspec.poll() is None, "the worker never started"
        time.sleep(0.05)
    worker = int(pid_file.read_text())
    famspec.kill()
    famspec.wait()
    deadline = time.monotonic() + 10
    while _alive(worker):
        assert time.monotonic() < deadline, f"the worker {worker} outlived famspec"
        time.sleep(0.05)


def _alive(pid: int) -> bool:
    # A zombie (reparented, not yet reaped) counts as ended: it runs nothing.
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except (FileNotFoundError, IndexError):
        return False
