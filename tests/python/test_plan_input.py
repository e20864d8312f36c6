"""parse_plan's input: a path and YAML text told apart, errors that say which, values in errors cut
to a readable length, and text that is not UTF-8."""

import os
import pathlib

import pytest

import famspec
from conftest import PLANS


def _error(value):
    with pytest.raises(famspec.PlanError) as caught:
        famspec.parse_plan(value)
    return caught.value


def test_a_directory_is_an_error_that_says_so(tmp_path):
    for value in (str(tmp_path), tmp_path):
        error = _error(value)
        assert str(error) == f"{tmp_path}: cannot read the plan: it is a directory, not a plan file"
        assert (error.file, error.line, error.column) == (str(tmp_path), 0, 0)


def test_a_missing_file_is_an_error_that_says_so_without_a_line(tmp_path):
    for value in (str(tmp_path / "missing.yaml"), tmp_path / "missing", str(tmp_path / "missing.yml")):
        error = _error(value)
        assert str(error) == f"{value}: cannot read the plan: No such file or directory"
        assert ":0:0" not in str(error)


def test_a_str_that_is_neither_a_file_nor_a_plan_says_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    missing = os.path.join("configs", "train")
    error = _error(missing)
    assert error.file == "<text>" and error.line == 0
    assert str(error) == (f"<text>: {missing!r} is neither an existing file nor a plan's YAML text: no such file, "
                          "and read as YAML it is not a plan (1:1: expected a mapping with a plan_overrides list, "
                          f"found '{missing}')")
    long = "x" * 500
    assert str(_error(long)).startswith(f"<text>: '{'x' * 60}'... (500 characters) is neither")


def test_text_and_paths_are_read_as_before(tmp_path):
    path = os.path.join(PLANS, "qwen3_moe.yaml")
    assert famspec.parse_plan(path).file == path
    assert famspec.parse_plan(pathlib.Path(path)).file == path
    assert famspec.parse_plan("{plan_overrides: [{match: x, when: ep, local_compute_fn: a.f}]}").file == "<text>"
    assert famspec.parse_plan("plan_overrides: []").file == "<text>"
    assert famspec.parse_plan("plan_overrides:\n  - match: x\n    when: ep\n    local_compute_fn: a.f\n").targets
    # A one-line str naming an existing file is the file, whatever its name.
    named = tmp_path / "plan_overrides: []"
    named.write_text("model_type: qwen3_moe\nplan_overrides: []\n")
    assert famspec.parse_plan(str(named)).model_type == "qwen3_moe"
    # Text with an error is still text, with its line and column.
    error = _error("plan_overrides:\n  - 42\n")
    assert (error.file, error.line, error.column) == ("<text>", 2, 5)
    assert str(_error("")) == "<text>:1:1: the plan is empty; expected a mapping with a plan_overrides list"
    with pytest.raises(TypeError):
        famspec.parse_plan(b"plan_overrides: []")


def test_a_value_echoed_in_an_error_is_cut_and_stays_one_valid_line():
    error = _error("plan_overrides:\n  - match: x\n    module_type: " + "\u00e9" * 100 + "\n")
    assert error.message == ("'module_type': expected a dotted Python path (module.Name), found '" + "\u00e9" * 30 +
                             "...' (100 characters)")
    error = _error("plan_overrides:\n  - match: x\n    module_type: a.B\n    replace_module: a.f\n    when: \"" +
                   "No error\\n" * 20 + "\"\n")
    assert error.message == ("replace_module only allows when: low_precision, found when: '" +
                             "No error\\n" * 6 + "No err...' (180 characters)")


def test_utf16_and_utf32_are_refused_by_name_and_a_utf8_bom_is_skipped(tmp_path):
    text = "model_type: qwen3_moe\nplan_overrides: []\n"
    utf16 = tmp_path / "utf16.yaml"
    utf16.write_bytes(text.encode("utf-16"))  # with its byte-order mark, little-endian here
    error = _error(utf16)
    assert (error.line, error.column) == (1, 1)
    assert error.message == ("the plan is UTF-16LE text (it starts with the byte-order mark FF FE); famspec reads "
                             "plans as UTF-8, as the training runtime reads its config: convert the file, for example "
                             "with iconv -f UTF-16LE -t UTF-8")
    bare = tmp_path / "utf16be.yaml"
    bare.write_bytes(text.encode("utf-16-be"))
    assert _error(bare).message.startswith("the plan looks like UTF-16BE text without a byte-order mark")
    utf32 = tmp_path / "utf32.yaml"
    utf32.write_bytes(text.encode("utf-32"))
    assert _error(utf32).message.startswith("the plan is UTF-32LE text")
    bom = tmp_path / "bom.yaml"
    bom.write_bytes(text.encode("utf-8-sig"))
    assert famspec.parse_plan(bom).model_type == "qwen3_moe"
    assert famspec.parse_plan("\ufeff" + text).model_type == "qwen3_moe"
    assert (_error("\ufeffplan_overrides: 3\n").line, _error("\ufeffplan_overrides: 3\n").column) == (1, 17)
