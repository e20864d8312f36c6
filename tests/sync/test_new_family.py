"""famspec new-family, without building (tests/sync/test_build.py and tests/package build its
projects): what it writes through the famspec command, and when it refuses. It is sync's renderer and
writer (famspec/sync/scaffold.py, new_directory.py), run by the command like sync and audit."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from famspec.sync import scaffold
from runtime_tree import required


def new_family(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([required("FAMSPEC_CLI"), "new-family", *map(str, args)], capture_output=True, text=True,
                          timeout=60, cwd=cwd)


def test_it_writes_a_project_with_the_familys_names_in_it(tmp_path):
    directory = tmp_path / "acme lm"
    result = new_family("acme_lm", "--architecture", "AcmeLmForCausalLM", "--dir", directory)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == (
        f"wrote family 'acme_lm' (AcmeLmForCausalLM) to {directory}:\n  CMakeLists.txt\n  plugin.cpp\n  README.md\n"
        f"build it against an installed famspec:\n"
        f"  cmake -S {directory} -B {directory / 'build'} -DCMAKE_PREFIX_PATH=<famspec install prefix>\n"
        f"  cmake --build {directory / 'build'}\n  famspec list --plugin-path {directory / 'build' / 'plugins'}\n")
    cmake = (directory / "CMakeLists.txt").read_text(encoding="utf-8")
    assert "find_package(famspec 0.1 CONFIG REQUIRED)" in cmake and "famspec_add_plugin(acme_lm\n" in cmake
    plugin = (directory / "plugin.cpp").read_text(encoding="utf-8")
    # A plugin is data: one family, its example factory and the component it constructs.
    assert '#include "famspec/sdk/tables.hpp"\n\nFAMSPEC_PLUGIN(\n    "acme_lm", "0.1.0", "AcmeLm family",\n' \
        "    Plugin{\n" in plugin
    assert '.families = {{.model_type = "acme_lm",\n                      .architecture = "AcmeLmForCausalLM",\n' \
        in plugin
    assert '.factories = {{.target = "replace_acme_lm_rms_norm",' in plugin
    assert '.constructs = wraps("AcmeLmRMSNorm", "acme_lm_components.modules"),' in plugin
    assert plugin.endswith("                                        .where = FAMSPEC_HERE}}}},\n    });\n")
    readme = (directory / "README.md").read_text(encoding="utf-8")
    assert readme.startswith("# acme_lm: a famspec family plugin\n")
    for text in (cmake, plugin, readme):
        # sync's regions, amendments and clang-format fence are left out: the project is its author's.
        assert "@" not in text and "famspec sync" not in text and "clang-format" not in text
        assert ".amendments" not in text and "\n\n\n" not in text


def test_it_answers_in_json(tmp_path):
    directory = tmp_path / "acme"
    written = new_family("acme_moe", "--architecture", "AcmeMoeForCausalLM", "--dir", directory, "--json")
    assert written.returncode == 0 and written.stderr == ""
    assert json.loads(written.stdout) == {"architecture": "AcmeMoeForCausalLM", "directory": str(directory),
                                          "files": ["CMakeLists.txt", "plugin.cpp", "README.md"], "name": "acme_moe"}
    # The app's --json before the command name is passed on too.
    again = subprocess.run([required("FAMSPEC_CLI"), "--json", "new-family", "acme_moe", "--architecture", "A",
                            "--dir", str(directory)], capture_output=True, text=True, timeout=60)
    assert again.returncode == 1
    assert json.loads(again.stdout) == {"error": {"column": None, "file": None, "kind": "io", "line": None,
                                                  "message": f"{directory} already exists; choose another --dir or "
                                                             "remove it"}}
    invalid = new_family("Acme", "--architecture", "A", "--dir", tmp_path / "x", "--json")
    assert invalid.returncode == 2 and json.loads(invalid.stdout)["error"]["kind"] == "usage"


def test_it_defaults_to_dot_slash_name_with_the_mode_mkdir_gives(tmp_path):
    result = new_family("tiny", "--architecture", "TinyForCausalLM", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert sorted(os.listdir(tmp_path)) == ["tiny"]
    assert sorted(os.listdir(tmp_path / "tiny")) == ["CMakeLists.txt", "README.md", "plugin.cpp"]
    mode = (tmp_path / "tiny").stat().st_mode
    assert mode & stat.S_IRWXU == stat.S_IRWXU and mode & stat.S_IROTH  # not mkdtemp's 0700


def test_it_creates_its_directory_exclusively_and_leaves_nothing_behind_when_it_cannot(tmp_path):
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "keep.txt").write_text("mine\n")
    (tmp_path / "empty").mkdir()
    before = sorted(os.listdir(tmp_path))
    cases = [
        (taken, f"{taken} already exists; choose another --dir or remove it"),
        # Even an empty directory is someone else's: nothing is written into it.
        (tmp_path / "empty", f"{tmp_path / 'empty'} already exists; choose another --dir or remove it"),
        # A path below a regular file cannot be created, whoever runs the test.
        (taken / "keep.txt" / "sub", f"cannot create {taken / 'keep.txt' / 'sub'}: Not a directory"),
        (taken / "keep.txt", f"{taken / 'keep.txt'} already exists; choose another --dir or remove it"),
        (tmp_path / "missing" / "sub", f"cannot create {tmp_path / 'missing' / 'sub'}: No such file or directory"),
    ]
    for directory, message in cases:
        result = new_family("acme", "--architecture", "AcmeForCausalLM", "--dir", directory)
        assert (result.returncode, result.stdout, result.stderr) == (1, "", f"famspec new-family: {message}\n")
    assert (taken / "keep.txt").read_text() == "mine\n" and sorted(os.listdir(taken)) == ["keep.txt"]
    assert os.listdir(tmp_path / "empty") == []
    assert sorted(os.listdir(tmp_path)) == before  # no staging directory is left next to the target


def test_its_readme_runs_the_same_resolve_command_as_the_generated_test(tmp_path):
    assert new_family("acme_moe", "--architecture", "AcmeMoeForCausalLM", "--dir", tmp_path / "acme").returncode == 0
    target = "hyper_parallel.models.acme_moe.adapter.replacements.replace_acme_moe_rms_norm"
    module_type = "transformers.models.acme_moe.modeling_acme_moe.AcmeMoeRMSNorm"
    assert f"famspec resolve --target {target} \\\n    --module-type {module_type} --plugin-path " \
        '"$PWD/build/plugins"\n' in (tmp_path / "acme" / "README.md").read_text(encoding="utf-8")
    assert f"    add_test(NAME resolve_acme_moe_rms_norm\n        COMMAND famspec::famspec resolve --target {target}\n" \
        f"            --module-type {module_type} --plugin-path ${{CMAKE_BINARY_DIR}}/plugins)\n" \
        in (tmp_path / "acme" / "CMakeLists.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("name, problem", [
    ("", "is empty"), ("Acme", "must start with a lower-case letter"),
    ("9lives", "must start with a lower-case letter"), ("acme-moe", "may only contain a-z, 0-9 and '_'"),
    ("acme moe", "may only contain a-z, 0-9 and '_'"), ("acme_", "must not end with '_'"),
    ("class", "is a reserved word in Python or CMake"), ("test", "is a reserved word in Python or CMake"),
    ("acme.moe", "may only contain a-z, 0-9 and '_'"), ("acmé", "may only contain a-z, 0-9 and '_'"),
    ("a" * 65, "is longer than 64 characters"),
])
def test_it_refuses_an_invalid_name_before_writing_anything(tmp_path, name, problem):
    result = new_family(name, "--architecture", "AcmeForCausalLM", "--dir", tmp_path / "out")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (f"famspec new-family: invalid family name '{name}': {problem} (it becomes "
                             "hyper_parallel.models.<name> and famspec_<name>.so)\n")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("architecture, problem", [
    ("", "is empty"), ("1Acme", "must start with a letter"), ("Acme-LM", "may only contain letters, digits and '_'"),
    ("Acme LM", "may only contain letters, digits and '_'"), ("acme.LM", "may only contain letters, digits and '_'"),
    ("A" * 129, "is longer than 128 characters"),
])
def test_it_refuses_an_invalid_architecture_before_writing_anything(tmp_path, architecture, problem):
    result = new_family("acme", "--architecture", architecture, "--dir", tmp_path / "out")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (f"famspec new-family: invalid architecture '{architecture}': {problem} "
                             "(e.g. AcmeMoeForCausalLM)\n")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("given", [".", "..", "/", "a/..", ""])
def test_it_refuses_a_dir_that_names_no_directory_to_create(tmp_path, given):
    result = new_family("acme", "--architecture", "AcmeForCausalLM", "--dir", given, cwd=tmp_path)
    assert result.returncode == 2 and os.listdir(tmp_path) == []
    message = "--dir: must not be empty" if given == "" else f"--dir must name a directory to create, got '{given}'"
    assert result.stderr == f"famspec new-family: {message}\n"


def test_it_writes_what_the_scaffold_renders(tmp_path):
    """One renderer: the command's files are sync's expansion (scaffold.files), byte for byte."""
    assert new_family("zeta_moe", "--architecture", "ZetaMoeForCausalLM", "--dir", tmp_path / "z").returncode == 0
    expected = scaffold.files("zeta_moe", "ZetaMoeForCausalLM")
    assert list(expected) == ["CMakeLists.txt", "plugin.cpp", "README.md"]
    for name, text in expected.items():
        assert (tmp_path / "z" / name).read_text(encoding="utf-8") == text, name


def test_its_help_is_the_python_commands():
    result = new_family("--help")
    assert result.returncode == 0 and result.stdout.startswith("usage: famspec new-family [-h] --architecture ARCH")
    missing = new_family("acme")
    assert missing.returncode == 2
    assert "the following arguments are required: --architecture" in missing.stderr
