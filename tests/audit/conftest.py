"""Shared fixtures: the clean runtime tree, copies of it to mutate, and the declarations to audit."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
CLEAN_ROOT = HERE / "fixtures" / "runtime"
PYTHON_SOURCE = HERE.parents[1] / "python"
if str(PYTHON_SOURCE) not in sys.path:
    sys.path.append(str(PYTHON_SOURCE))  # the audit is pure Python; a built package earlier on the path wins

from famspec.audit import main  # noqa: E402


def _describe() -> dict:
    """The shipped plugins' own description: a saved copy if given, else the loaded plugins."""
    saved = os.environ.get("FAMSPEC_AUDIT_DECLARATIONS")
    if saved:
        return json.loads(Path(saved).read_text(encoding="utf-8"))
    import famspec

    return json.loads(famspec.load_plugins().describe())


@pytest.fixture(scope="session")
def declarations() -> dict:
    return _describe()


@pytest.fixture(scope="session")
def declarations_file(declarations, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("declarations") / "describe.json"
    path.write_text(json.dumps(declarations), encoding="utf-8")
    return path


class Tree:
    """A private copy of the clean runtime tree that a test edits."""

    def __init__(self, root: Path):
        self.root = root

    def path(self, rel: str) -> Path:
        return self.root / rel

    def replace(self, rel: str, old: str, new: str) -> None:
        text = self.path(rel).read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{rel}: expected exactly one {old!r}"
        self.path(rel).write_text(text.replace(old, new), encoding="utf-8")

    def line_of(self, rel: str, needle: str) -> int:
        lines = self.path(rel).read_text(encoding="utf-8").splitlines()
        hits = [i + 1 for i, line in enumerate(lines) if needle in line]
        assert len(hits) == 1, f"{rel}: {needle!r} on lines {hits}"
        return hits[0]


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
