"""The audit as operators run it: `famspec audit` (C++ CLI) and `python3 -m famspec audit`, each a
fresh process that loads the shipped plugins itself."""

from __future__ import annotations

import json
import sys

from conftest import CLEAN_ROOT
from runtime_tree import required as _required
from runtime_tree import run, run_importing_nothing_of


def test_cli_audits_every_shipped_family_on_the_clean_tree(declarations):
    cli, plugins = _required("FAMSPEC_CLI"), _required("FAMSPEC_PLUGIN_DIR")
    result = run([cli, "--plugin-path", plugins, "audit", "--source-root", str(CLEAN_ROOT), "--json"])
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["counts"]["drift"] == 0 and report["counts"]["unreadable"] == 0
    assert sorted(report["families"]) == sorted(f["model_type"] for f in declarations["families"])
    assert report["exit_code"] == 0


def test_cli_reports_drift_with_position_and_exit_1(tree):
    cli, plugins = _required("FAMSPEC_CLI"), _required("FAMSPEC_PLUGIN_DIR")
    rel = "hyper_parallel/models/qwen3_moe/adapter/registration.py"
    tree.replace(rel, 'architecture="Qwen3MoeForCausalLM"', 'architecture="Qwen3MoeForConditionalGeneration"')
    result = run([cli, "--plugin-path", plugins, "audit", "--source-root", str(tree.root), "--family", "qwen3moe"])
    assert result.returncode == 1
    assert f"drift       {rel}:24  registration qwen3_moe [registration_architecture]" in result.stdout
    assert "remedy:   declare the architecture 'Qwen3MoeForConditionalGeneration'" in result.stdout


def test_python_m_famspec_audit_and_its_exit_codes(tmp_path):
    plugins = _required("FAMSPEC_PLUGIN_DIR")
    command = [sys.executable, "-m", "famspec", "audit", "--plugin-path", plugins]
    clean = run([*command, "--source-root", str(CLEAN_ROOT)])
    assert clean.returncode == 0, clean.stderr
    assert clean.stdout.endswith("0 drift, 0 unreadable\n")
    bad_root = run([*command, "--source-root", str(tmp_path)])
    assert bad_root.returncode == 2 and "no hyper_parallel/" in bad_root.stderr
    unknown = run([*command, "--source-root", str(CLEAN_ROOT), "--family", "acme"])
    assert unknown.returncode == 2 and "--family acme" in unknown.stderr


def test_the_audit_imports_nothing_of_the_runtime(tree):
    # Every package of the tree now fails on import: the audit must still pass, and import no torch.
    run_importing_nothing_of(tree.root, "audit", ["--source-root", str(tree.root),
                                                  "--plugin-path", _required("FAMSPEC_PLUGIN_DIR")])
