"""Shared fixtures: the clean runtime tree, copies of it to mutate, and the declarations to audit."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
CLEAN_ROOT = HERE / "fixtures" / "runtime"
PYTHON_SOURCE = HERE.parents[1] / "python"
if str(PYTHON_SOURCE) not in sys.path:
    sys.path.append(str(PYTHON_SOURCE))  # a built package (with its extension) earlier on the path wins
SUPPORT = HERE.parents[1] / "tests" / "support"
if str(SUPPORT) not in sys.path:
    sys.path.append(str(SUPPORT))

from famspec.audit import main  # noqa: E402
from runtime_tree import Tree, declarations, declarations_file  # noqa: E402,F401 (fixtures)


@pytest.fixture
def tree(tmp_path) -> Tree:
    shutil.copytree(CLEAN_ROOT, tmp_path / "runtime")
    return Tree(tmp_path / "runtime")


@pytest.fixture
def audit(declarations_file, capsys):
    """Runs the command in-process with --json; returns (exit code, report or None, stderr)."""

    def run(root, *args):
        code = main(["--source-root", str(root), "--declarations", str(declarations_file), "--json", *args])
        captured = capsys.readouterr()
        report = json.loads(captured.out) if captured.out.strip() else None
        return code, report, captured.err

    return run
