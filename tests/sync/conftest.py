"""Shared fixtures: the runtime tree of the audit's tests, the acme_moe overlay, and the shipped
plugins' description (which components a generated plugin need not declare)."""

from __future__ import annotations

import json
import os
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

from famspec.sync import main  # noqa: E402

# The shipped families the runtime tree holds, each with its example plan.
SHIPPED = ("qwen3_moe", "deepseek_v3", "deepseek_v32", "deepseek_v41")


def describe() -> dict:
    saved = os.environ.get("FAMSPEC_AUDIT_DECLARATIONS")
    if saved:
        return json.loads(Path(saved).read_text(encoding="utf-8"))
    import famspec

    return json.loads(famspec.load_plugins().describe())


@pytest.fixture(scope="session")
def declarations() -> dict:
    return describe()


@pytest.fixture(scope="session")
def declarations_file(declarations, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("declarations") / "describe.json"
    path.write_text(json.dumps(declarations), encoding="utf-8")
    return path


class Tree:
    """A private copy of the runtime tree (with the acme_moe family laid over it) that a test edits."""

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
