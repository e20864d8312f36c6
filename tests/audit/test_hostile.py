"""Odd source trees: a registration that is no Python file, an expression nested beyond the reader's
bound. Each is an unreadable finding at its file (and line), never a traceback, and the rest of the
audit is reported as usual."""

from __future__ import annotations

import os

import pytest

MODULES = "hyper_parallel/components/modules"
REGISTRATION = "hyper_parallel/models/qwen4_exp/adapter/registration.py"


def _unreadable(report) -> list[tuple]:
    return sorted((f["check"], f["subject"], f["file"], f["line"], f["found"])
                  for f in report["findings"] if f["status"] != "ok")


@pytest.mark.parametrize("kind, why", [("directory", "is a directory, not a Python file: the runtime cannot import it"),
                                       ("fifo", "is a FIFO, not a Python file: the runtime cannot import it")])
def test_a_registration_that_is_no_python_file_is_unreadable_for_its_families(audit, tree, kind, why):
    path = tree.path(REGISTRATION)
    path.unlink()
    path.mkdir() if kind == "directory" else os.mkfifo(path)
    code, report, err = audit(tree.root)
    assert (code, err) == (0, "")
    assert _unreadable(report) == [("registration", family, REGISTRATION, None, why)
                                   for family in ("qwen4_exp", "qwen4_exp_text")]
    assert report["counts"]["ok"] > 0  # every other family is audited as usual
    code, report, _ = audit(tree.root, "--strict", "--family", "qwen4_exp")
    assert code == 1 and _unreadable(report) == [("registration", "qwen4_exp", REGISTRATION, None, why)]


@pytest.mark.parametrize("terms", [900, 2000])
def test_an_expression_nested_beyond_the_bound_is_unreadable_at_its_line(audit, tree, terms):
    rel = f"{MODULES}/dsa_attention.py"
    text = tree.path(rel).read_text(encoding="utf-8")
    deep = 'module_fqn="' + '" + "'.join([""] * terms) + '"'
    tree.path(rel).write_text(text.replace('module_fqn=""', deep, 1), encoding="utf-8")
    code, report, err = audit(tree.root)
    assert (code, err) == (0, "")
    why = "nests more than 200 levels deep (an expression of more than 200 terms, say), beyond what famspec reads"
    assert _unreadable(report) == [
        ("component", f"hyper_parallel.components.modules.dsa_attention.{name}", rel, 5, why)
        for name in ("DSAAttention", "DeepseekV32DSAAttention")]
    assert report["counts"]["ok"] > 0


def test_an_expression_within_the_bound_is_read(audit, tree):
    rel = f"{MODULES}/dsa_attention.py"
    text = tree.path(rel).read_text(encoding="utf-8")
    tree.path(rel).write_text(text.replace('module_fqn=""', 'module_fqn="' + '" + "'.join([""] * 150) + '"', 1),
                              encoding="utf-8")
    code, report, err = audit(tree.root)
    # Read, and compared as an expression: the declared default is the literal "".
    assert err == "" and code == 1
    kinds = {(f["subject"].rsplit(".", 1)[1], f["kind"], f["line"]) for f in report["findings"]
             if f["status"] == "drift"}
    assert kinds == {("DSAAttention", "parameter_default", 5)}
