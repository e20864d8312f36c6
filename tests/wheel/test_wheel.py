"""The wheel, built offline by scikit-build-core from the sdist, tagged manylinux, and installed with pip
into fresh venvs of another interpreter that sees none of Debian's packages: everything it needs,
but glibc and libgcc_s, comes from inside the package, and nothing needs more than manylinux_2_28."""

import glob
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile

import pytest

BUILD_DIR = os.environ["FAMSPEC_BUILD_DIR"]
SOURCE_DIR = os.environ["FAMSPEC_SOURCE_DIR"]
CLI = os.environ["FAMSPEC_CLI"]
VENV_PYTHON = os.environ["FAMSPEC_WHEEL_TEST_PYTHON"]
CXX = os.environ["FAMSPEC_TEST_CXX_COMPILER"]
LAUNCHER = os.environ.get("FAMSPEC_TEST_CXX_COMPILER_LAUNCHER", "")
PLAN = os.path.join(SOURCE_DIR, "examples", "plans", "qwen3_moe.yaml")
# Where the sdist is unpacked and its wheel built, kept between runs: the build directory inside it
# (scikit-build-core's build-wheel/<tag>) makes a second run build only what changed.
WORK = os.getcwd()
sys.path.insert(0, os.path.join(SOURCE_DIR, "python", "packaging"))
import manylinux_tag  # noqa: E402

# The libraries the wheel links in, never takes from the system (Debian's packages).
DEBIAN_LIBRARIES = ("libyaml-cpp.so", "libboost_json.so", "libnettle.so", "libelf.so", "libelf-")
# What a file of the wheel may need from outside it.
ALLOWED = re.compile(r"(libc|libm|libdl|librt|libpthread|ld-linux-x86-64)\.so\.\d+|libstdc\+\+\.so\.6|libgcc_s\.so\.1")

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
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=1800, **kwargs)
    assert result.returncode == 0, f"{args}: exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result


def make_venv(python, directory):
    """A venv without pip (no network, and no ensurepip run); pip runs from the interpreter's own
    bundled wheel."""
    run([python, "-m", "venv", "--without-pip", directory])
    venv_python = os.path.join(directory, "bin", "python")
    return venv_python, [venv_python, bundled_pip(python)]


def bundled_pip(python):
    """pip, run from the wheel the interpreter bundles."""
    bundled = run([python, "-c", "import ensurepip, os; print(os.path.dirname(ensurepip.__file__))"]).stdout.strip()
    pip_wheels = glob.glob(os.path.join(bundled, "_bundled", "pip-*.whl"))
    assert pip_wheels, f"{python} bundles no pip wheel"
    return os.path.join(pip_wheels[0], "pip")


def cli_digest():
    return run([CLI, "summary", "--digest", PLAN]).stdout.strip()


def elf_needs(root):
    """Each ELF file under root (relative path) with its NEEDED entries."""
    return {os.path.relpath(p, root): manylinux_tag.needed(p) for p in manylinux_tag.elf_files(root)}


@pytest.fixture(scope="module")
def sdist(tmp_path_factory):
    out = tmp_path_factory.mktemp("sdist")
    run(["/usr/bin/python3", "-m", "build", "--sdist", "--no-isolation", "--outdir", out, SOURCE_DIR], cwd=SOURCE_DIR)
    sdists = glob.glob(str(out / "*.tar.gz"))
    assert len(sdists) == 1, sdists
    return sdists[0]


@pytest.fixture(scope="module")
def unpacked(sdist):
    """The sdist unpacked over the copy of the last run, each file with its time in the checkout (the
    sdist's own times are one fixed date), so that the kept build sees what changed."""
    with tarfile.open(sdist) as archive:
        members = archive.getmembers()
        top = members[0].name.split("/")[0]
        copy = os.path.join(WORK, top)
        # Files the sdist no longer has must not survive from an earlier run.
        for root, dirs, files in os.walk(copy):
            dirs[:] = [d for d in dirs if not (root == copy and d == "build-wheel")]
            for name in files:
                os.remove(os.path.join(root, name))
        archive.extractall(WORK)
    for member in members:
        if member.isfile():
            checkout = os.path.join(SOURCE_DIR, member.name.split("/", 1)[1])
            if os.path.exists(checkout):
                os.utime(os.path.join(WORK, member.name), ns=(os.stat(checkout).st_atime_ns, os.stat(checkout).st_mtime_ns))
    return copy


@pytest.fixture(scope="module")
def wheel(unpacked, tmp_path_factory):
    """The wheel from the unpacked sdist, offline (no build isolation), then tagged manylinux."""
    out = tmp_path_factory.mktemp("dist")
    # The system's default compiler, as a user's build gets it (a compiler changed in a kept build
    # directory makes CMake drop the whole cache, the wheel's settings with it); ccache when the tree
    # uses it.
    cmake_args = f"-DCMAKE_CXX_COMPILER_LAUNCHER={LAUNCHER}" if LAUNCHER else ""
    run(["/usr/bin/python3", "-m", "build", "--wheel", "--no-isolation", "--outdir", out, unpacked], cwd=unpacked,
        env=clean_env(CMAKE_ARGS=cmake_args))
    wheels = glob.glob(str(out / "*.whl"))
    assert len(wheels) == 1 and wheels[0].endswith("-linux_x86_64.whl"), wheels
    tagged = run(["/usr/bin/python3", os.path.join(unpacked, "python", "packaging", "manylinux_tag.py"),
                  wheels[0]]).stdout.strip()
    assert os.path.isfile(tagged) and not os.path.exists(wheels[0])
    return tagged


@pytest.fixture(scope="module")
def extracted(wheel, tmp_path_factory):
    directory = tmp_path_factory.mktemp("extracted")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(directory)
    return directory


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory):
    directory = tmp_path_factory.mktemp("venv311") / "venv"
    python, pip = make_venv(VENV_PYTHON, directory)
    run([*pip, "install", "--no-index", "--no-cache-dir", "--disable-pip-version-check", wheel])
    return directory, python


def test_the_sdist_holds_the_sources_of_the_wheel_and_no_build(sdist):
    tracked = set(run(["git", "ls-files"], cwd=SOURCE_DIR).stdout.split())
    with tarfile.open(sdist) as archive:
        names = {m.name.split("/", 1)[1] for m in archive.getmembers() if m.isfile()}
    assert {"pyproject.toml", "CMakeLists.txt", "PKG-INFO", "cmake/FamspecWheel.cmake",
            "python/packaging/manylinux_tag.py", "core/src/plan/plan.cpp"} <= names
    assert not [n for n in names if n.startswith(("build", "dist/", "tests/", "bench/", ".ci/")) or "__pycache__" in n]
    # Every other tracked file that exists is in it (the checkout may hold files not yet committed).
    assert not {n for n in tracked if os.path.isfile(os.path.join(SOURCE_DIR, n))
                and not n.startswith(("tests/", "bench/", ".ci/"))} - names


def test_the_wheel_holds_everything_inside_the_package(wheel):
    assert re.fullmatch(r"famspec-0\.1\.0-cp311-cp311-manylinux_2_\d+_x86_64\.whl", os.path.basename(wheel))
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        record = archive.read(next(n for n in names if n.endswith(".dist-info/RECORD"))).decode()
        entry_points = archive.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
        tag = archive.read(next(n for n in names if n.endswith(".dist-info/WHEEL"))).decode()
        modes = {info.filename: info.external_attr >> 16 for info in archive.infolist()}
    assert "Generator: scikit-build-core 0.11.1" in tag
    tops = {name.split("/")[0] for name in names}
    assert tops == {"famspec", "famspec-0.1.0.dist-info"}
    for required in ("famspec/__init__.py", "famspec/py.typed", "famspec/_native.pyi", "famspec/__init__.pyi",
                     "famspec/framework_spec.pyi", "famspec/_layout.py", "famspec/data/bin/famspec",
                     "famspec/data/lib/libfamspec.so.0",
                     "famspec/data/lib/cmake/famspec/famspecConfig.cmake",
                     "famspec/data/lib/cmake/famspec/FamspecPlugin.cmake",
                     "famspec/data/include/famspec/sdk/version.hpp", "famspec/audit/__init__.py"):
        assert required in names, required
    assert [n for n in names if re.fullmatch(r"famspec/_native\.cpython-311-x86_64-linux-gnu\.so", n)]
    plugins = [n for n in names if n.startswith("famspec/data/lib/famspec/plugins/")]
    assert len(plugins) >= 5 and all(n.endswith(".so") for n in plugins)
    # No Debian layout, no second copy of a library, no dependency (linked in), no bytecode.
    assert not [n for n in names if "dist-packages" in n or "__pycache__" in n or n.endswith(".pyc")]
    assert [n for n in names if "libfamspec.so" in n] == ["famspec/data/lib/libfamspec.so.0"]
    assert not [n for n in names if re.search(r"lib(nettle|yaml-cpp|boost)", n)]
    assert modes["famspec/data/bin/famspec"] & 0o111
    assert not [n for n in names if "famspec-manifest" in n]
    assert len(record.splitlines()) == len(names)
    assert entry_points.strip() == "[console_scripts]\nfamspec = famspec._command:main"


def test_every_elf_file_needs_only_glibc_libstdcxx_libgcc_s_and_the_wheel(wheel, extracted):
    needs = elf_needs(extracted)
    # The command, the manifest tool, the core, the extension and the plugins.
    assert len(needs) >= 14, sorted(needs)
    inside = {os.path.basename(p) for p in needs}
    outside = {path: [n for n in names if not ALLOWED.fullmatch(n) and n not in inside] for path, names in needs.items()}
    assert not {p: o for p, o in outside.items() if o}, outside
    # libstdc++ is linked into each file: none needs a libstdc++.so.6 of the host.
    assert not {p: n for p, n in needs.items() if "libstdc++.so.6" in n}
    assert sorted(needs["famspec/data/lib/libfamspec.so.0"]) == \
        ["ld-linux-x86-64.so.2", "libc.so.6", "libdl.so.2", "libgcc_s.so.1", "libm.so.6", "libpthread.so.0"]
    native = next(p for p in needs if p.startswith("famspec/_native."))
    assert needs[native].count("libfamspec.so.0") == 1
    # No symbol version newer than manylinux_2_28 allows.
    assert manylinux_tag.check(extracted) == []
    # The tag is the highest GLIBC_ version any file needs, as readelf lists the version needs.
    highest = max(tuple(map(int, v)) for p in needs
                  for v in re.findall(r"Name: GLIBC_(\d+)\.(\d+)",
                                      run(["readelf", "-V", "-W", extracted / p]).stdout))
    assert (2, 17) <= highest <= (2, 28), highest
    assert f"-manylinux_{highest[0]}_{highest[1]}_x86_64.whl" in os.path.basename(wheel)
    with zipfile.ZipFile(wheel) as archive:
        assert f"Tag: cp311-cp311-manylinux_{highest[0]}_{highest[1]}_x86_64\n" in \
            archive.read("famspec-0.1.0.dist-info/WHEEL").decode()


def test_every_binary_finds_its_libraries_relative_to_itself(extracted):
    for binary in manylinux_tag.elf_files(extracted):
        dynamic = run(["readelf", "-d", binary]).stdout
        runpaths = re.findall(r"\((?:RUNPATH|RPATH)\).*\[(.*)\]", dynamic)
        for runpath in runpaths:
            for entry in runpath.split(":"):
                assert entry.startswith("$ORIGIN"), f"{binary}: {runpath}"
        for name in re.findall(r"\(NEEDED\).*\[(.*)\]", dynamic):
            if ALLOWED.fullmatch(name):
                continue
            assert runpaths, f"{binary} needs {name} and has no run path"
            directory = runpaths[0].replace("$ORIGIN", str(binary.parent))
            assert os.path.isfile(os.path.join(directory, name)), f"{binary}: {name}"
    # The CMake package names the library as the wheel holds it.
    targets = "".join(open(p).read() for p in glob.glob(str(extracted / "famspec/data/lib/cmake/famspec/*.cmake")))
    assert "libfamspec.so.0\"" in targets and "libfamspec.so.0." not in targets


def test_no_file_carries_a_path_of_the_build_machine(wheel, extracted, unpacked):
    checked = 0
    for path in extracted.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            checked += 1
            for root in (unpacked, SOURCE_DIR, BUILD_DIR):
                assert root.encode() not in data, f"{path} holds {root}"
    assert checked > 100
    # A synced plugin's declaration sites name the runtime source it was generated from, relatively.
    plugin = (extracted / "famspec/data/lib/famspec/plugins/famspec_qwen3_moe.so").read_bytes()
    assert b"hyper_parallel/models/qwen3_moe/adapter/replacements.py:13" in plugin


def test_outside_debian_libraries(venv):
    """Debian's copies of the libraries the wheel links in are hidden (a mount namespace binds an empty
    file over each): the command, the drop-in and a first answer still work, and no library the
    process maps comes from the system but glibc's, libgcc_s and the interpreter's own."""
    directory, python = venv
    hidden = sorted({os.path.realpath(p) for p in glob.glob("/usr/lib/x86_64-linux-gnu/lib*.so*")
                     if os.path.basename(p).startswith(DEBIAN_LIBRARIES)})
    assert len(hidden) == 4, hidden
    code = (
        "import famspec.framework_spec as fs, famspec\n"
        "NORM = 'hyper_parallel.models.qwen3_moe.adapter.replacements.replace_qwen3_moe_rms_norm'\n"
        "spec = fs.replacement_spec_for(NORM, module_type='x.Qwen3MoeRMSNorm')\n"
        "assert spec.new_ctor == 'RMSNorm', spec\n"
        f"print(famspec.Resolver(famspec.load_plugins()).summary({PLAN!r}).digest())\n"
        "print('\\n'.join(sorted({l.split()[-1] for l in open('/proc/self/maps') if '.so' in l})))\n")
    script = "".join(f"mount --bind /dev/null {p} && " for p in hidden) + '"$@"'
    for command in ([directory / "bin" / "famspec", "summary", "--digest", PLAN], [python, "-c", code]):
        out = run(["unshare", "-m", "sh", "-c", script, "sh", *command]).stdout.split("\n")
        assert out[0] == cli_digest(), out
    mapped = [line for line in out[1:] if line]
    site = str(directory)
    assert any(m.startswith(site) and m.endswith("/libfamspec.so.0") for m in mapped), mapped
    assert not [m for m in mapped if os.path.basename(m).startswith(DEBIAN_LIBRARIES)], mapped
    interpreter = os.path.dirname(os.path.dirname(os.path.realpath(VENV_PYTHON)))
    # A mapped library is named by its file (libstdc++.so.6.0.30), a needed one by its SONAME.
    from_system = [m for m in mapped if not m.startswith((site, interpreter + "/"))
                   and not ALLOWED.fullmatch(re.sub(r"(\.so\.\d+)(\.\d+)+$", r"\1", os.path.basename(m)))]
    assert not from_system, from_system


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
    # Installed, the plugin goes under the family project's own prefix, never into the package, and
    # the runtime names that directory next to the shipped one.
    package = os.path.dirname(cmake_dir.split("/data/")[0] + "/")
    before = sorted(str(p) for p in pathlib.Path(package).rglob("*"))
    prefix = tmp_path / "prefix"
    run(["cmake", "--install", project / "build", "--prefix", prefix])
    assert sorted(str(p) for p in pathlib.Path(package).rglob("*")) == before
    installed = glob.glob(str(prefix / "lib" / "famspec" / "plugins" / "*.so"))
    assert [os.path.basename(p) for p in installed] == ["famspec_acme_moe.so"], installed
    shipped = run([python, "-c", "import famspec.registry as r; print(r.default_plugin_directory())"]).stdout.strip()
    listed = json.loads(run([directory / "bin" / "famspec", "list", "--json"],
                            env=clean_env(FAMSPEC_PLUGIN_PATH=f"{shipped}:{prefix}/lib/famspec/plugins")).stdout)
    records = listed["plugins"] if isinstance(listed, dict) else listed
    assert ("acme_moe", "ok") in [(r["name"], r["status"]) for r in records] and len(records) >= 6


def test_new_family_names_the_cmake_package_of_the_pip_install(venv, tmp_path):
    directory, python = venv
    cmake_dir = run([python, "-c", "import famspec; print(famspec.cmake_dir())"]).stdout.strip()
    out = run([directory / "bin" / "famspec", "new-family", "zeta_moe", "--architecture", "ZetaMoeForCausalLM",
               "--dir", tmp_path / "zeta"]).stdout
    assert f" -Dfamspec_DIR={cmake_dir}\n" in out and "<famspec install prefix>" not in out, out
    # new-family and sync write their projects from the wheel's copy of the templates.
    templates = run([python, "-c", "from famspec.sync import template; print(template.directory())"]).stdout.strip()
    package = run([python, "-c", "import famspec, os; print(os.path.dirname(famspec.__file__))"]).stdout.strip()
    assert templates == os.path.join(package, "templates", "family")
    assert sorted(os.listdir(templates)) == ["CMakeLists.txt.in", "README.md.in", "example_declarations.cpp.in",
                                             "plugin.cpp.in"]


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


def test_pip_uninstall_leaves_no_importable_famspec(venv):
    """Last: nothing the suite put into the venv (a family project's install among it) keeps
    `import famspec` working once pip has removed the package."""
    _, python = venv
    run([python, bundled_pip(VENV_PYTHON), "uninstall", "-y", "--disable-pip-version-check", "famspec"])
    gone = subprocess.run([python, "-c", "import famspec"], env=clean_env(), capture_output=True, text=True)
    assert gone.returncode == 1 and "No module named 'famspec'" in gone.stderr, gone.stderr


def test_the_check_names_each_file_and_symbol_newer_than_manylinux_2_28(tmp_path):
    """What the wheel's build runs on its files: a library linked against this machine's glibc 2.36
    needs exp of 2.29 and arc4random of 2.36, and is refused with both."""
    source = tmp_path / "newer.cpp"
    source.write_text('#include <cmath>\n#include <cstdlib>\n'
                      'extern "C" double f(double x) { return std::exp(x) + arc4random(); }\n')
    (tmp_path / "lib").mkdir()
    run([CXX, "-shared", "-fPIC", "-O0", "-o", tmp_path / "lib" / "libnewer.so", source])
    assert manylinux_tag.check(tmp_path / "lib") == \
        ["libnewer.so: needs exp@GLIBC_2.29, arc4random@GLIBC_2.36, newer than manylinux_2_28 allows"]
    status = subprocess.run([sys.executable, manylinux_tag.__file__, "--check", tmp_path / "lib"],
                            capture_output=True, text=True)
    assert status.returncode == 1 and "libnewer.so: needs exp@GLIBC_2.29" in status.stderr, status
