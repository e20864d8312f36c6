"""What the audit's and sync's pytest suites share: the shipped plugins' description, a private copy
of a runtime tree that a test edits, and the commands run as fresh processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def describe() -> dict:
    """The shipped plugins' own description: a saved copy if given, else the loaded plugins."""
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
    """A private copy of a runtime tree that a test edits."""

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


def required(variable: str) -> str:
    value = os.environ.get(variable)
    if not value:
        pytest.fail(f"{variable} is not set; run these tests through ctest")
    return value


def run(argv, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=120, **kwargs)


def run_importing_nothing_of(root: Path, package: str, argv: list[str]) -> None:
    """Makes every package under root fail on import, then runs ``famspec.<package>.main(argv)`` in a
    fresh interpreter: it must succeed and import neither torch nor the runtime."""
    for init in root.rglob("__init__.py"):
        init.write_text(f"raise ImportError('famspec.{package} imported the runtime')\n" + init.read_text())
    probe = (
        "import sys\n"
        f"from famspec.{package} import main\n"
        f"code = main({argv!r})\n"
        "leaked = sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'torch_npu', 'hyper_parallel'))\n"
        "print('leaked', leaked)\n"
        "sys.exit(code)\n"
    )
    result = run([sys.executable, "-c", probe])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "leaked []" in result.stdout
