"""famspec sync as operators run it: the C++ command (which runs the Python package) and
`python3 -m famspec sync`, each a fresh process that loads the shipped plugins itself."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import RUNTIME, snapshot


def _required(variable: str) -> str:
    value = os.environ.get(variable)
    if not value:
        pytest.fail(f"{variable} is not set; run these tests through ctest")
    return value


def run(argv, **kwargs):
    return subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=120, **kwargs)


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
    from conftest import make_tree

    tree = make_tree(tmp_path / "runtime")
    for init in tree.root.rglob("__init__.py"):
        init.write_text("raise ImportError('sync imported the runtime')\n" + init.read_text())
    plugins = _required("FAMSPEC_PLUGIN_DIR")
    probe = (
        "import sys\n"
        "from famspec.sync import main\n"
        f"code = main(['--source-root', {str(tree.root)!r}, '--family', 'acme_moe', '--out', {str(tmp_path / 'out')!r},"
        f" '--plugin-path', {plugins!r}])\n"
        "leaked = sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'torch_npu', 'hyper_parallel'))\n"
        "print('leaked', leaked)\n"
        "sys.exit(code)\n"
    )
    result = run([sys.executable, "-c", probe])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "leaked []" in result.stdout
    assert (tmp_path / "out" / "python" / "acme_attention.py").is_file()
