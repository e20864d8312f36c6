"""The package as a runtime sees it: import, default plugin search, install layout."""

import os
import subprocess
import sys

import pytest

from conftest import BUILD_DIR, PLUGIN_DIR, SOURCE_DIR, run_python

BUILD_PYTHON = os.path.join(BUILD_DIR, "python")


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("FAMSPEC_PLUGIN_PATH", "PYTHONPATH")}
    env.update(extra)
    return env


def test_import_loads_neither_torch_nor_the_runtime_nor_plugins(tmp_path):
    result = run_python(
        "import sys, famspec\n"
        "print('famspec._native' in sys.modules)\n"
        "import famspec.framework_spec\n"
        "famspec.load_plugins()\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'hyper_parallel', 'numpy'))\n"
        "print(heavy)\n"
        "print(famspec.__version__, famspec.ABI)\n",
        env=clean_env(PYTHONPATH=BUILD_PYTHON), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "False", "the extension is loaded on first use, not by import famspec"
    assert lines[1] == "[]"
    version, abi = lines[2].split()
    assert version.count(".") == 2 and abi.count(".") == 1


def test_registry_describe_is_the_core_description(registry):
    import json
    described = json.loads(registry.describe())
    assert described["format"] == 1
    assert sorted(f["model_type"] for f in described["families"]) == list(registry.families)
    assert registry.describe() == registry.describe()


def test_python_m_famspec_without_a_command_is_a_usage_error(tmp_path):
    result = subprocess.run([sys.executable, "-m", "famspec"], env=clean_env(PYTHONPATH=BUILD_PYTHON),
                            cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "usage" in result.stderr


def test_default_plugins_are_found_relative_to_the_package_not_the_working_directory(tmp_path):
    result = run_python(
        "import famspec\n"
        "r = famspec.load_plugins()\n"
        "print(famspec.default_plugin_directory())\n"
        "print(r.all_ok, len(r.plugins), ' '.join(r.families))\n"
        "print(sorted({__import__('os').path.dirname(p.path) for p in r.plugins}))\n",
        env=clean_env(PYTHONPATH=BUILD_PYTHON), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    directory, summary, parents = result.stdout.splitlines()
    assert os.path.realpath(directory) == os.path.realpath(PLUGIN_DIR)
    ok, count, families = summary.split(" ", 2)
    assert ok == "True" and int(count) >= 1
    assert "qwen3_moe" in families.split()
    assert parents == repr([directory])


def test_famspec_plugin_path_overrides_the_default(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run_python("import famspec\nr = famspec.load_plugins()\nprint(len(r.plugins), r.families, r.all_ok)\n",
                        env=clean_env(PYTHONPATH=BUILD_PYTHON, FAMSPEC_PLUGIN_PATH=str(empty)), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    # The empty directory is searched, not the default one, and is itself a reported failure.
    assert result.stdout.strip() == "1 () False"


def test_explicit_paths_win_and_relative_paths_are_refused(registry):
    import famspec
    loaded = famspec.load_plugins(PLUGIN_DIR)
    assert loaded.families == registry.families
    with pytest.raises(ValueError, match="absolute"):
        famspec.load_plugins(["lib/famspec/plugins"])
    with pytest.raises(TypeError):
        famspec.load_plugins([3])
    with pytest.raises(TypeError):
        famspec.load_plugins(42)
    with pytest.raises(TypeError):
        famspec.load_plugins(log="not callable")


def test_log_receives_level_and_message_and_its_exceptions_surface():
    import famspec
    lines = []
    famspec.load_plugins([PLUGIN_DIR], log=lambda level, message: lines.append((level, message)))
    assert lines, "the loader reports what it loads"
    assert all(level in ("debug", "info", "warning", "error") and isinstance(text, str) for level, text in lines)

    def broken(level, message):
        raise KeyError("from the log callback")

    with pytest.raises(KeyError, match="from the log callback"):
        famspec.load_plugins([PLUGIN_DIR], log=broken)


def test_plugin_records_have_the_list_json_fields(registry):
    record = registry.plugins[0]
    assert record.status == "ok" and record.stage is None and record.message == ""
    assert os.path.isabs(record.path) and record.name and record.version
    assert isinstance(record.families, tuple)
    assert sorted(f for p in registry.plugins for f in p.families) == sorted(registry.families)


def test_a_broken_plugin_is_a_record_not_a_crash(tmp_path):
    import famspec
    (tmp_path / "famspec_broken.so").write_bytes(b"\x7fELF not really")
    loaded = famspec.load_plugins([str(tmp_path), PLUGIN_DIR])
    assert not loaded.all_ok
    broken = [p for p in loaded.plugins if p.status == "error"]
    assert len(broken) == 1
    assert broken[0].path == str(tmp_path / "famspec_broken.so")
    assert broken[0].stage == "manifest" and broken[0].message
    assert "qwen3_moe" in loaded.families


@pytest.fixture(scope="module")
def installed_prefix(tmp_path_factory):
    prefix = tmp_path_factory.mktemp("prefix")
    subprocess.run(["cmake", "--install", BUILD_DIR, "--prefix", str(prefix)], check=True, capture_output=True,
                   timeout=300)
    return prefix


def test_installed_package_imports_from_the_prefix_and_finds_the_installed_plugins(installed_prefix, tmp_path):
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    site = installed_prefix / "lib" / version / "dist-packages"
    assert (site / "famspec" / "framework_spec.py").is_file()
    result = run_python(
        "import famspec, famspec.framework_spec as fs\n"
        "print(famspec.__file__)\n"
        "r = famspec.load_plugins()\n"
        "print(famspec.default_plugin_directory())\n"
        "print(r.all_ok, ' '.join(sorted({p.path.rsplit('/', 1)[0] for p in r.plugins})))\n"
        "print(fs.strategy_spec_for('" + "hyper_parallel.distributed.expert_parallel.recipes.deepseekv3_ep_compute_fn"
        "').target_class)\n",
        env=clean_env(PYTHONPATH=str(site)), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    package, directory, loaded, target_class = result.stdout.splitlines()
    assert package.startswith(str(site))
    assert directory == str(installed_prefix / "lib" / "famspec" / "plugins")
    assert loaded == "True " + directory
    assert target_class == "DeepseekV3MoE"


def test_the_installed_cli_audits_with_the_installed_package(installed_prefix, tmp_path):
    # No PYTHONPATH: the installed famspec finds the package under its own prefix, whatever it is.
    fixtures = os.path.join(SOURCE_DIR, "tests", "audit", "fixtures", "runtime")
    result = subprocess.run([str(installed_prefix / "bin" / "famspec"), "audit", "--source-root", fixtures],
                            env=clean_env(), cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert "cannot be imported" not in result.stderr
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_installed_package_finds_its_command_and_cmake_package(installed_prefix, tmp_path):
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    site = installed_prefix / "lib" / version / "dist-packages"
    assert (site / "famspec" / "py.typed").is_file() and (site / "famspec" / "_native.pyi").is_file()
    result = run_python("import famspec\nprint(famspec.cmake_dir())\nprint(famspec.command_path())\n",
                        env=clean_env(PYTHONPATH=str(site)), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [str(installed_prefix / "lib" / "cmake" / "famspec"),
                                          str(installed_prefix / "bin" / "famspec")]
    # `python -m famspec COMMAND` is the installed command, and its audit runs this interpreter.
    result = subprocess.run([sys.executable, "-m", "famspec", "--version"], env=clean_env(PYTHONPATH=str(site)),
                            cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout.startswith("famspec "), result.stderr


def test_the_build_tree_has_a_command_but_no_cmake_package(tmp_path):
    result = run_python(
        "import famspec\nprint(famspec.command_path())\n"
        "try:\n    famspec.cmake_dir()\nexcept FileNotFoundError as error:\n    print('no cmake package:', error)\n",
        env=clean_env(PYTHONPATH=BUILD_PYTHON), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    command, error = result.stdout.splitlines()
    assert os.path.realpath(command) == os.path.realpath(os.path.join(BUILD_DIR, "bin", "famspec"))
    assert error.startswith("no cmake package: this famspec package (")


def test_results_cross_from_the_extension_as_dicts_keyed_by_field_name(registry):
    from famspec import _native

    resolver = _native.Resolver(registry._native)
    answer = resolver.replacement("hyper_parallel.models.qwen3_moe.adapter.replacements.replace_qwen3_moe_rms_norm",
                                  "qwen3_moe", "x.Qwen3MoeRMSNorm", None)
    assert sorted(answer) == ["diagnostics", "explanation", "gap", "reason", "status", "value"]
    assert sorted(answer["value"]) == ["imports", "keyword_args", "mode", "new_ctor", "old_ctor", "remove_class",
                                       "replacement_note", "snippets"]
    assert sorted(answer["value"]["imports"][0]) == ["module", "names", "raw"]
    assert sorted(answer["explanation"]["declared_by"][0]) == ["name", "plugin", "role"]
    parsed = _native.parse_plan_text("plan_overrides: 3\n", "<text>")
    assert parsed["plan"] is None and sorted(parsed["errors"][0]) == ["column", "file", "line", "message"]
    assert _native.compare_summaries("{", "{}")["error"]
