"""Shared fixtures: the runtime tree of the audit's tests, the acme_moe overlay, and the shipped
plugins' description (which components a generated plugin need not declare)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parents[1]
RUNTIME = SOURCE / "tests" / "audit" / "fixtures" / "runtime"
ACME = HERE / "fixtures" / "acme_moe"
PYTHON_SOURCE = SOURCE / "python"
if str(PYTHON_SOURCE) not in sys.path:
    sys.path.append(str(PYTHON_SOURCE))  # sync is pure Python; a built package earlier on the path wins
if str(SOURCE / "tests" / "support") not in sys.path:
    sys.path.append(str(SOURCE / "tests" / "support"))

from famspec.sync import main  # noqa: E402
from runtime_tree import Tree, declarations, declarations_file  # noqa: E402,F401 (fixtures)

# The shipped families the runtime tree holds, each with its example plan.
SHIPPED = ("qwen3_moe", "deepseek_v3", "deepseek_v32", "deepseek_v41")


def make_tree(into: Path) -> Tree:
    shutil.copytree(RUNTIME, into)
    shutil.copytree(ACME / "hyper_parallel", into / "hyper_parallel", dirs_exist_ok=True)
    return Tree(into)


@pytest.fixture
def tree(tmp_path) -> Tree:
    return make_tree(tmp_path / "runtime")


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file under a directory and its bytes: what a refused run must leave unchanged."""
    if not directory.exists():
        return {}
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


@pytest.fixture
def sync(declarations_file, capsys):
    """Runs the command in-process; returns (exit code, stdout, stderr)."""

    def run(root, family, out, *args):
        code = main(["--source-root", str(root), "--family", family, "--out", str(out),
                     "--declarations", str(declarations_file), *args])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run
