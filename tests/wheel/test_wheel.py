"""The wheel, built from this build tree and installed with pip into fresh venvs of other interpreters
that see none of Debian's packages: everything it needs comes from inside the package."""

import glob
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

BUILD_DIR = os.environ["FAMSPEC_BUILD_DIR"]
SOURCE_DIR = os.environ["FAMSPEC_SOURCE_DIR"]
CLI = os.environ["FAMSPEC_CLI"]
VENV_PYTHON = os.environ["FAMSPEC_WHEEL_TEST_PYTHON"]
OTHER_PYTHON = os.environ["FAMSPEC_WHEEL_TEST_OTHER_PYTHON"]
CXX = os.environ["FAMSPEC_TEST_CXX_COMPILER"]
PLAN = os.path.join(SOURCE_DIR, "examples", "plans", "qwen3_moe.yaml")

# What a venv must not inherit from the test's own environment (which points at the build tree).
_LEAKS = ("PYTHONPATH", "PYTHONHOME", "FAMSPEC_PLUGIN_PATH", "FAMSPEC_PYTHON", "FAMSPEC_BUILD_DIR",
          "FAMSPEC_CLI", "FAMSPEC_PLUGIN_DIR", "LD_LIBRARY_PATH", "CMAKE_PREFIX_PATH", "famspec_DIR",
          "PYTHONDONTWRITEBYTECODE", "MAKEFLAGS")


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in _LEAKS}
    env.update(extra)
    return env


def run(args, **kwargs):
    kwargs.setdefault("env", clean_env())
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=900, **kwargs)
    assert result.returncode == 0, f"{args}: exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result


def make_venv(python, directory):
    """A venv without pip (no network, and no ensurepip run); pip runs from the interpreter's own
    bundled wheel."""
    run([python, "-m", "venv", "--without-pip", directory])
    bundled = run([python, "-c", "import ensurepip, os; print(os.path.dirname(ensurepip.__file__))"]).stdout.strip()
    pip_wheels = glob.glob(os.path.join(bundled, "_bundled", "pip-*.whl"))
    assert pip_wheels, f"{python} bundles no pip wheel"
    venv_python = os.path.join(directory, "bin", "python")
    return venv_python, [venv_python, os.path.join(pip_wheels[0], "pip")]


def cli_digest():
    return run([CLI, "summary", "--digest", PLAN]).stdout.strip()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    run(["/usr/bin/python3", "-m", "build", "--wheel", "--no-isolation", f"-Cbuild-dir={BUILD_DIR}",
         "--outdir", out, SOURCE_DIR], cwd=SOURCE_DIR)
    wheels = glob.glob(str(out / "*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory):
    directory = tmp_path_factory.mktemp("venv311") / "venv"
    python, pip = make_venv(VENV_PYTHON, directory)
    run([*pip, "install", "--no-index", "--no-cache-dir", "--disable-pip-version-check", wheel])
    return directory, python


def test_the_wheel_holds_everything_inside_the_package(wheel):
    assert re.fullmatch(r"famspec-\d+\.\d+\.\d+-cp311-cp311-linux_x86_64\.whl", os.path.basename(wheel))
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        record = archive.read(next(n for n in names if n.endswith(".dist-info/RECORD"))).decode()
        entry_points = archive.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
        modes = {info.filename: info.external_attr >> 16 for info in archive.infolist()}
    tops = {name.split("/")[0] for name in names}
    assert tops == {"famspec", "famspec-0.1.0.dist-info"}
    for required in ("famspec/__init__.py", "famspec/py.typed", "famspec/_native.pyi", "famspec/__init__.pyi",
                     "famspec/framework_spec.pyi", "famspec/_layout.py", "famspec/data/bin/famspec",
                     "famspec/data/bin/famspec-manifest", "famspec/data/lib/libfamspec.so.0",
                     "famspec/data/lib/cmake/famspec/famspecConfig.cmake",
                     "famspec/data/lib/cmake/famspec/FamspecPlugin.cmake",
                     "famspec/data/include/famspec/sdk/version.hpp", "famspec/audit/__init__.py"):
        assert required in names, required
    assert [n for n in names if re.fullmatch(r"famspec/_native\.cpython-311-x86_64-linux-gnu\.so", n)]
    plugins = [n for n in names if n.startswith("famspec/data/lib/famspec/plugins/")]
    assert len(plugins) >= 5 and all(n.endswith(".so") for n in plugins)
    # No copy of the Debian layout's package, no second link of the library, no bytecode.
    assert not [n for n in names if "dist-packages" in n or "__pycache__" in n or n.endswith(".pyc")]
    assert not [n for n in names if re.search(r"libfamspec\.so(\.\d+\.\d+\.\d+)?$", n)]
    assert modes["famspec/data/bin/famspec"] & 0o111 and modes["famspec/data/bin/famspec-manifest"] & 0o111
    assert len(record.splitlines()) == len(names)
    assert entry_points == "[console_scripts]\nfamspec = famspec._command:main\n"


def test_every_binary_finds_its_libraries_relative_to_itself(wheel, tmp_path):
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tmp_path)
    binaries = [p for p in glob.glob(str(tmp_path / "famspec" / "**" / "*"), recursive=True)
                if os.path.isfile(p) and open(p, "rb").read(4) == b"\x7fELF"]
    assert len(binaries) >= 8
    for binary in binaries:
        dynamic = run(["readelf", "-d", binary]).stdout
        runpaths = re.findall(r"\((?:RUNPATH|RPATH)\).*\[(.*)\]", dynamic)
        for runpath in runpaths:
            for entry in runpath.split(":"):
                assert entry.startswith("$ORIGIN"), f"{binary}: {runpath}"
        if "libfamspec.so.0" in re.findall(r"\(NEEDED\).*\[(.*)\]", dynamic):
            directory = runpaths[0].replace("$ORIGIN", os.path.dirname(binary))
            assert os.path.isfile(os.path.join(directory, "libfamspec.so.0")), binary
    # The CMake package names the library as the wheel holds it.
    targets = "".join(open(p).read() for p in glob.glob(str(tmp_path / "famspec/data/lib/cmake/famspec/*.cmake")))
    assert "libfamspec.so.0\"" in targets and "libfamspec.so.0." not in targets


def test_the_venv_sees_only_the_wheel(venv):
    directory, python = venv
    out = run([python, "-c", "import sys, famspec, os; print(famspec.__file__); "
                             "print(any('dist-packages' in p for p in sys.path))"]).stdout.split()
    assert out[0].startswith(str(directory)) and out[1] == "False"


def test_the_drop_in_and_the_rich_api_answer_as_the_cmake_build(venv):
    _, python = venv
    code = (
        "import famspec, famspec.framework_spec as fs\n"
        "NORM = 'hyper_parallel.models.qwen3_moe.adapter.replacements.replace_qwen3_moe_rms_norm'\n"
        "spec = fs.replacement_spec_for(NORM, 'Qwen3MoeForCausalLM', "
        "module_type='transformers.models.qwen3_moe.modeling_qwen3_moe.Qwen3MoeRMSNorm')\n"
        "assert (spec.old_ctor, spec.new_ctor, spec.mode) == ('Qwen3MoeRMSNorm', 'RMSNorm', 'wrap_source'), spec\n"
        "registry = famspec.load_plugins()\n"
        "assert registry.all_ok and 'qwen3_moe' in registry.families\n"
        "import os\n"
        "package = os.path.dirname(famspec.__file__)\n"
        "assert all(p.path.startswith(package + '/data/lib/famspec/plugins/') for p in registry.plugins)\n"
        f"print(famspec.Resolver(registry).summary({PLAN!r}).digest())\n"
        "import famspec.distributed\n")
    assert run([python, "-c", code]).stdout.strip() == cli_digest()


def test_the_console_command_and_python_m_famspec(venv):
    directory, python = venv
    command = directory / "bin" / "famspec"
    assert run([command, "summary", "--digest", PLAN]).stdout.strip() == cli_digest()
    assert run([python, "-m", "famspec", "summary", "--digest", PLAN]).stdout.strip() == cli_digest()
    listed = json.loads(run([command, "list", "--json"]).stdout)
    site = run([python, "-c", "import famspec, os; print(os.path.dirname(famspec.__file__))"]).stdout.strip()
    paths = [plugin["path"] for plugin in (listed["plugins"] if isinstance(listed, dict) else listed)]
    assert paths and all(p.startswith(site + "/data/lib/famspec/plugins/") for p in paths)
    assert run([command, "--version"]).stdout.startswith("famspec ")
    # The command's audit runs this venv's Python, which imports this package.
    audit = subprocess.run([command, "audit", "--source-root", str(directory / "no-such-root")], env=clean_env(),
                           capture_output=True, text=True, timeout=120)
    assert audit.returncode == 2 and "cannot be imported" not in audit.stderr, audit.stderr
    # Without the console script, the command inside the package still finds the package: a bare
    # interpreter that has no famspec of its own audits the shipped families with it.
    inner = run([python, "-c", "import famspec; print(famspec.command_path())"]).stdout.strip()
    assert inner == site + "/data/bin/famspec"
    fixtures = os.path.join(SOURCE_DIR, "tests", "audit", "fixtures", "runtime")
    audit = subprocess.run([inner, "audit", "--source-root", fixtures], env=clean_env(FAMSPEC_PYTHON=VENV_PYTHON),
                           capture_output=True, text=True, timeout=300)
    assert audit.returncode == 0 and "cannot be imported" not in audit.stderr, audit.stdout + audit.stderr


def test_a_plugin_builds_against_cmake_dir_and_loads(venv, tmp_path):
    directory, python = venv
    cmake_dir = run([python, "-c", "import famspec; print(famspec.cmake_dir())"]).stdout.strip()
    assert cmake_dir.startswith(str(directory)) and os.path.isfile(os.path.join(cmake_dir, "famspecConfig.cmake"))
    project = tmp_path / "family"
    shutil.copytree(os.path.join(SOURCE_DIR, "examples", "out-of-tree-family"), project)
    run(["cmake", "-S", project, "-B", project / "build", f"-Dfamspec_DIR={cmake_dir}",
         f"-DCMAKE_CXX_COMPILER={CXX}", "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF"])
    run(["cmake", "--build", project / "build"])
    plugins = project / "build" / "plugins"
    listed = json.loads(run([directory / "bin" / "famspec", "list", "--json", "--plugin-path", plugins]).stdout)
    records = listed["plugins"] if isinstance(listed, dict) else listed
    assert [(r["name"], r["status"]) for r in records] == [("acme_moe", "ok")]
    loaded = run([python, "-c", f"import famspec; r = famspec.load_plugins({str(plugins)!r}); "
                                "print(r.all_ok, r.families)"]).stdout.strip()
    assert loaded.startswith("True ("), loaded


def test_famspec_distributed_where_torch_is_importable(wheel, tmp_path):
    """A venv of Debian's python3 that sees its torch, with the wheel installed: every rank of a
    one-rank gloo job agrees, through the installed package."""
    directory = tmp_path / "venv"
    run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", "--without-pip", directory])
    python = directory / "bin" / "python"
    run([python, "-m", "pip", "install", "--no-index", "--no-deps", "--no-cache-dir", "--disable-pip-version-check",
         wheel])
    code = (
        "import os, socket, famspec, famspec.distributed as fd, torch.distributed as dist\n"
        "assert famspec.__file__.startswith(os.environ['VIRTUAL_ENV_DIR']), famspec.__file__\n"
        "with socket.socket() as s:\n    s.bind(('127.0.0.1', 0)); port = s.getsockname()[1]\n"
        "dist.init_process_group('gloo', init_method=f'tcp://127.0.0.1:{port}', rank=0, world_size=1)\n"
        "registry = famspec.load_plugins()\n"
        f"summary = fd.resolve_once({PLAN!r}, registry)\n"
        "print(fd.agree(summary, registry)['summary'])\n"
        "dist.destroy_process_group()\n")
    result = run([python, "-c", code], env=clean_env(VIRTUAL_ENV_DIR=str(directory)))
    assert result.stdout.strip() == cli_digest()


def test_mypy_strict_passes_on_a_user_script_against_the_installed_package(venv):
    """The stubs and py.typed, as a user's type checker reads them from the venv."""
    _, python = venv
    script = os.path.join(os.path.dirname(__file__), "typed_user.py")
    result = subprocess.run(["/usr/bin/python3", "-m", "mypy", "--strict", "--no-incremental",
                             "--python-executable", str(python), script], env=clean_env(),
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("Success: no issues found in 1 source file")
    # The script runs, too, and a deliberate type error is reported.
    run([python, script])
    broken = subprocess.run(["/usr/bin/python3", "-m", "mypy", "--strict", "--no-incremental",
                             "--python-executable", str(python), "-c",
                             "import famspec\nx: int = famspec.load_plugins().families\n"],
                            env=clean_env(), capture_output=True, text=True, timeout=600)
    assert broken.returncode == 1 and "Tuple[str, ...]" in broken.stdout, broken.stdout


def test_a_source_install_for_another_python_version(tmp_path):
    """pip install from the source checkout into a venv of another CPython: the backend compiles only
    the extension for it, against this build tree."""
    python, pip = make_venv(OTHER_PYTHON, tmp_path / "venv")
    version = run([python, "-c", "import sys; print(f'{sys.version_info[0]}{sys.version_info[1]}')"]).stdout.strip()
    assert version != "311"
    run([*pip, "install", "--no-index", "--no-cache-dir", "--disable-pip-version-check", "--no-build-isolation",
         "--config-settings", f"build-dir={BUILD_DIR}", SOURCE_DIR])
    code = ("import famspec, famspec._native, sys\n"
            "assert famspec._native.__file__.endswith(f'.cpython-{sys.version_info[0]}{sys.version_info[1]}"
            "-x86_64-linux-gnu.so'), famspec._native.__file__\n"
            f"print(famspec.Resolver(famspec.load_plugins()).summary({PLAN!r}).digest())\n")
    assert run([python, "-c", code]).stdout.strip() == cli_digest()
    assert run([tmp_path / "venv" / "bin" / "famspec", "summary", "--digest", PLAN]).stdout.strip() == cli_digest()


def test_the_backend_reads_pyproject_without_tomllib_as_tomllib_does():
    """Python 3.9 and 3.10 have no tomllib: the backend's own reader must give the same table."""
    import tomllib

    sys.path.insert(0, os.path.join(SOURCE_DIR, "python", "packaging"))
    try:
        import famspec_build
    finally:
        sys.path.pop(0)
    with open(os.path.join(SOURCE_DIR, "pyproject.toml"), encoding="utf-8") as handle:
        text = handle.read()
    assert famspec_build._parse_toml_subset(text) == tomllib.loads(text)
    assert famspec_build._metadata().startswith("Metadata-Version: 2.1\nName: famspec\nVersion: 0.1.0\n")
