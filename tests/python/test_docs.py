"""docs/python.md: every python block runs, in order, in one namespace, from the repository root."""

import os
import re

import pytest

from conftest import SOURCE_DIR

DOCUMENT = os.path.join(SOURCE_DIR, "docs", "python.md")


def python_blocks(path):
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    return [(text[:m.start()].count("\n") + 2, m.group(1))
            for m in re.finditer(r"^```python\n(.*?)^```$", text, flags=re.S | re.M)]


def test_the_page_has_examples():
    assert len(python_blocks(DOCUMENT)) >= 4


def test_every_example_runs(monkeypatch):
    monkeypatch.chdir(SOURCE_DIR)
    namespace = {"__name__": "docs_python"}
    for line, source in python_blocks(DOCUMENT):
        code = compile("\n" * (line - 1) + source, DOCUMENT, "exec")
        try:
            exec(code, namespace)  # noqa: S102 - the documentation's own examples
        except Exception as error:  # pragma: no cover - the failure message is the point
            pytest.fail(f"docs/python.md:{line}: {type(error).__name__}: {error}")
