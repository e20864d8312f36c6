"""The family key and the family lookup that sync and the audit use are the core's own, through the
extension: the same answers as the C++ tests (tests/resolution/family_key_test.cpp) assert, no Python
restatement, and a clear error where the extension is missing."""

import os
import shutil
import subprocess
import sys

import pytest

import famspec._native as native
from famspec.audit.audit import AuditError, select_families
from famspec.source import family_keys, registry_tables

from conftest import BUILD_DIR, SOURCE_DIR

# (spelling, key): case is ASCII's only, '_' and '-' go, every other byte (dots, NUL, non-ASCII) stays,
# and only the first task suffix is stripped, never the whole key.
TRICKY_KEYS = [
    ("qwen3_moe", "qwen3moe"),
    ("Qwen3MoeForCausalLM", "qwen3moe"),
    ("deep-seek_V3", "deepseekv3"),
    ("KimiK25ForConditionalGeneration", "kimik25"),
    ("BertForSequenceClassification", "bert"),
    ("LlavaForImageTextToText", "llava"),
    ("ForCausalLM", "forcausallm"),
    ("ToyForCausalLMForCausalLM", "toyforcausallm"),
    ("toy_ForCausal_LM", "toy"),
    ("Qwen3.5-MoE", "qwen3.5moe"),
    ("", ""),
    ("_-_", ""),
    ("a\0B", "a\0b"),
    ("Ärger_X", "Ärgerx"),
    ("İSTANBUL", "İstanbul"),
    ("ΣΊΣΥΦΟΣ_Model", "ΣΊΣΥΦΟΣmodel"),
    ("qwen3_5ＦorCausalLM", "qwen35Ｆorcausallm"),  # a full-width Ｆ: no suffix
    # Lone surrogates (a name from argv or a file name with undecodable bytes) are kept as they are.
    ("abc\ud800_X", "abc\ud800x"),
    ("\udcff-ModelForCausalLM", "\udcffmodel"),
]


@pytest.mark.parametrize("spelling, key", TRICKY_KEYS)
def test_the_key_is_the_cores(spelling, key):
    assert native.normalize_family_key(spelling) == key
    assert family_keys.normalize_family_key(spelling) == key


def test_the_tools_call_the_core_and_restate_nothing():
    assert family_keys.normalize_family_key is native.normalize_family_key
    assert not hasattr(registry_tables, "normalize")
    source = os.path.join(SOURCE_DIR, "python", "famspec")
    restated = []
    for folder, _, names in os.walk(source):
        for name in names:
            if name.endswith(".py"):
                text = open(os.path.join(folder, name), encoding="utf-8").read()
                if "forcausallm" in text.lower().replace(" ", "") and "def normalize" in text:
                    restated.append(name)
    assert restated == []


def test_a_non_str_is_refused_by_name():
    with pytest.raises(TypeError, match="name must be str, got bytes"):
        native.normalize_family_key(b"qwen3")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"families\[0\] must be a dict"):
        native.find_family([("qwen3", "Qwen3ForCausalLM")], "qwen3")  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"families\[0\]: no 'aliases'"):
        native.find_family([{"model_type": "a", "architecture": "A"}], "a")  # type: ignore[typeddict-item]
    with pytest.raises(TypeError, match=r"families\[0\]\['aliases'\] must be a sequence of str"):
        native.find_family([family_keys.family_names("a", "A") | {"aliases": "a"}], "a")


FAMILIES = [
    family_keys.family_names("qwen3_5_text", "Qwen3_5ForCausalLM", directory_aliases=["qwen35text"]),
    family_keys.family_names("qwen3_5", "Qwen3_5ForConditionalGeneration"),
    family_keys.family_names("deepseek_v3", "DeepseekV3ForCausalLM", ["dsv3"], ["deepseekv2", "legacy-dir"]),
    family_keys.family_names("deepseek_v2", "DeepseekV2ForCausalLM"),
    family_keys.family_names("qwen35", "Qwen35Other"),
]


@pytest.mark.parametrize("spelling, index", [
    ("Qwen3_5ForCausalLM", 1),  # qwen3_5's own name outranks qwen3_5_text's architecture
    ("qwen3_5", 1),
    ("qwen35", 4),  # the exact model_type before the first family of its key
    ("QWEN35", 1),
    ("qwen3_5_text", 0),
    ("deepseekv2", 3),  # deepseek_v2's own key before deepseek_v3's directory alias
    ("Legacy_Dir", 2),
    ("DSV3", 2),
    ("mistral", None),
    ("", None),
    ("\udcff", None),
])
def test_a_family_is_found_by_the_cores_rule(spelling, index):
    assert family_keys.find_family(FAMILIES, spelling) == index
    assert native.find_family(FAMILIES, spelling) == index


def test_the_audit_selects_by_the_cores_rule():
    declarations = {"families": [{**f, "plugin": "p"} for f in FAMILIES]}
    chosen = select_families(declarations, ["Qwen3_5ForCausalLM", "qwen3_5", "legacy_dir"])
    assert [f["model_type"] for f in chosen] == ["qwen3_5", "deepseek_v3"]
    with pytest.raises(AuditError, match=r"--family mistral: no loaded plugin declares it \(families: qwen3_5_text, "):
        select_families(declarations, ["mistral"])


def test_a_package_without_its_extension_says_so(tmp_path):
    """The package's sources alone (no build): sync and audit stop with the reason, exit 2, and
    never fall back to a rule of their own."""
    shutil.copytree(os.path.join(SOURCE_DIR, "python", "famspec"), tmp_path / "famspec")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(tmp_path), "PYTHONDONTWRITEBYTECODE": "1"}
    for command in ("audit", "sync"):
        result = subprocess.run([sys.executable, "-m", "famspec", command, "--help"], env=env, cwd=tmp_path,
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 2, result.stdout + result.stderr
        assert result.stderr.startswith(f"famspec {command}: famspec._native, the core's extension, cannot be "
                                        "imported (")
        assert "build famspec (its famspec_python target)" in result.stderr
        assert result.stdout == ""


def test_the_stub_types_the_functions_for_mypy(tmp_path):
    script = tmp_path / "keys.py"
    script.write_text(
        "from typing import Optional\n"
        "from famspec._native import FamilyNamesFields, find_family, normalize_family_key\n"
        "family: FamilyNamesFields = {'model_type': 'a', 'architecture': 'A', 'aliases': [], "
        "'directory_aliases': ()}\n"
        "key: str = normalize_family_key('A_b')\n"
        "found: Optional[int] = find_family([family], key)\n")
    broken = tmp_path / "broken.py"
    broken.write_text("from famspec._native import find_family\nx: int = find_family([], 'a')\n")
    env = {**os.environ, "MYPYPATH": os.path.join(BUILD_DIR, "python")}
    for path, code in ((script, 0), (broken, 1)):
        result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(path)], env=env,
                                capture_output=True, text=True, timeout=600, cwd=tmp_path)
        assert result.returncode == code, result.stdout + result.stderr
    assert 'Incompatible types in assignment (expression has type "Optional[int]", variable has type "int")' \
        in result.stdout


def test_a_family_named_with_undecodable_bytes_is_found_by_its_key():
    families = [family_keys.family_names("m\udcff_x", "MForCausalLM", ["Alias\ud800"])]
    assert family_keys.find_family(families, "M\udcffX") == 0
    assert family_keys.find_family(families, "ALIAS\ud800") == 0
    assert family_keys.find_family(families, "m\udcfex") is None
