"""famspec's PEP 517 build backend: a wheel from the CMake build, with nothing but the standard library.

The wheel holds one directory, ``famspec/``: the pure-Python package, its type stubs, the extension
``_native`` (RUNPATH ``$ORIGIN/data/lib``) and, under ``famspec/data/``, what ``cmake --install``
puts under a prefix: the ``famspec`` command, ``libfamspec.so``, the shipped plugins, the SDK
headers and the CMake package (``data/lib/cmake/famspec``). The package finds each of them relative
to itself (``famspec/_layout.py``), as the cmake and ninja wheels find their programs.

Where the build comes from:

- ``build-dir=DIR`` (a config setting: ``python3 -m build -C build-dir=DIR``, ``pip install
  --config-settings build-dir=DIR``), or ``FAMSPEC_CMAKE_BUILD_DIR``: a configured and built famspec
  tree, reused as it is; only the wheel's own link of the extension is made there. When the
  interpreter running this backend is not the one the tree was configured for, the extension alone
  is compiled for it, in ``DIR/python-<tag>`` (``python/CMakeLists.txt`` as a project of its own).
- neither: the backend configures and builds ``build-wheel/<tag>`` in the source tree, Release,
  without the tests, for the interpreter running it. ``CMAKE_ARGS`` adds configure arguments.

Why a backend of our own: the build is CMake's and the layout is ``cmake --install``'s, so what a
backend must add is a zip file with a ``.dist-info``. setuptools' ``build_ext`` compiles sources
itself and would have to be turned into a CMake driver; scikit-build-core, whose job this is, is not
packaged in Debian 12. With no requirement at all, the wheel builds offline, in any venv, with
build isolation or without.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import zipfile
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2]
NAME = "famspec"
# Fixed timestamps, so that the same files make the same wheel.
_ZIP_TIME = (2020, 1, 1, 0, 0, 0)


# ---- pyproject.toml ------------------------------------------------------------------------------

def _load_toml(text: str) -> dict:
    try:
        import tomllib
    except ImportError:  # Python < 3.11: the subset pyproject.toml uses
        return _parse_toml_subset(text)
    return tomllib.loads(text)


def _parse_toml_subset(text: str) -> dict:
    """Tables, and keys whose values are strings, string arrays (over several lines too) or inline
    tables of strings: what this project's pyproject.toml holds."""
    root: dict = {}
    table = root
    pending = ""
    for raw in text.splitlines():
        line = raw.split(" #", 1)[0].strip() if not raw.strip().startswith("#") else ""
        if pending:
            pending += " " + line
            if not pending.rstrip().endswith("]"):
                continue
            line, pending = pending, ""
        if not line:
            continue
        if line.startswith("["):
            table = root
            for part in line.strip("[]").split("."):
                table = table.setdefault(part.strip(), {})
            continue
        key, _, value = line.partition("=")
        value = value.strip()
        if value.startswith("[") and not value.endswith("]"):
            pending = f"{key}= {value}"
            continue
        table[key.strip().strip('"')] = _toml_value(value)
    return root


def _toml_value(value: str):
    if value.startswith("["):
        return [json.loads(item) for item in re.findall(r'"(?:[^"\\]|\\.)*"', value)]
    if value.startswith("{"):
        return {k: json.loads(v) for k, v in re.findall(r'(\w+)\s*=\s*("(?:[^"\\]|\\.)*")', value)}
    return json.loads(value)


def _pyproject() -> dict:
    return _load_toml((SOURCE / "pyproject.toml").read_text(encoding="utf-8"))


def _version() -> str:
    text = (SOURCE / "CMakeLists.txt").read_text(encoding="utf-8")
    match = re.search(r"project\(\s*famspec\s+VERSION\s+([0-9.]+)", text)
    if not match:
        raise RuntimeError("famspec_build: no project(famspec VERSION ...) in CMakeLists.txt")
    return match.group(1)


def _metadata() -> str:
    project = _pyproject()["project"]
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {_version()}",
             f"Summary: {project['description']}", f"Requires-Python: {project['requires-python']}"]
    lines += [f"Classifier: {classifier}" for classifier in project.get("classifiers", [])]
    readme = project.get("readme")
    body = ""
    if readme:
        lines.append("Description-Content-Type: text/markdown")
        body = (SOURCE / readme).read_text(encoding="utf-8")
    return "\n".join(lines) + "\n\n" + body


def _entry_points() -> str:
    scripts = _pyproject()["project"].get("scripts", {})
    return "[console_scripts]\n" + "".join(f"{name} = {target}\n" for name, target in sorted(scripts.items()))


# ---- the interpreter the wheel is for ------------------------------------------------------------

def _tag() -> str:
    python = f"cp{sys.version_info[0]}{sys.version_info[1]}"
    if sys.implementation.name != "cpython":
        raise RuntimeError("famspec_build: the extension is built for CPython only")
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{python}-{python}-{platform}"


def _extension_suffix() -> str:
    return sysconfig.get_config_var("EXT_SUFFIX")


# ---- CMake ---------------------------------------------------------------------------------------

def _run(*command) -> None:
    print("famspec_build:", " ".join(str(part) for part in command), file=sys.stderr, flush=True)
    subprocess.run([str(part) for part in command], check=True, stdout=sys.stderr)


def _jobs() -> str:
    return os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)


def _cache(build: Path) -> dict:
    values = {}
    for line in (build / "CMakeCache.txt").read_text(encoding="utf-8", errors="replace").splitlines():
        match = re.match(r"([A-Za-z0-9_.\-]+):[A-Z]+=(.*)", line)
        if match:
            values[match.group(1)] = match.group(2)
    return values


def _configured_build(config_settings) -> Path:
    """The famspec build tree, built with the wheel's link of the extension."""
    chosen = (config_settings or {}).get("build-dir") or os.environ.get("FAMSPEC_CMAKE_BUILD_DIR") or \
        _pyproject().get("tool", {}).get("famspec-build", {}).get("build-dir")
    if chosen:
        build = (SOURCE / chosen).resolve()
        if not (build / "python" / "wheel" / "wheel.json").is_file():
            raise RuntimeError(f"famspec_build: {build} is not a configured famspec build with the Python "
                               "package (python/wheel/wheel.json is missing)")
    else:
        build = SOURCE / "build-wheel" / _tag().split("-")[0]
        if not (build / "CMakeCache.txt").is_file():
            _run("cmake", "-S", SOURCE, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DFAMSPEC_BUILD_TESTS=OFF",
                 "-DFAMSPEC_PYTHON=ON", f"-DPython3_EXECUTABLE={sys.executable}",
                 *os.environ.get("CMAKE_ARGS", "").split())
        _run("cmake", "--build", build, "-j", _jobs())
    _run("cmake", "--build", build, "-j", _jobs(), "--target", "famspec_python_wheel")
    return build


def _extension_for_this_python(build: Path) -> dict:
    """wheel.json of an extension built for the running interpreter: the tree's own, or one compiled
    alone against the tree."""
    described = json.loads((build / "python" / "wheel" / "wheel.json").read_text(encoding="utf-8"))
    if described["extension"].endswith(_extension_suffix()):
        return described
    extension_build = build / f"python-{_tag().split('-')[0]}"
    configured = extension_build / "CMakeCache.txt"
    # Configured again when another interpreter of the same version built it last (another venv):
    # the cached one may be gone.
    if not configured.is_file() or _cache(extension_build).get("Python3_EXECUTABLE") != sys.executable:
        cache = _cache(build)
        settings = [f"-D{name}={cache[name]}" for name in
                    ("CMAKE_CXX_COMPILER", "CMAKE_CXX_COMPILER_LAUNCHER", "CMAKE_BUILD_TYPE") if cache.get(name)]
        _run("cmake", "-S", SOURCE / "python", "-B", extension_build, "-G", cache["CMAKE_GENERATOR"],
             f"-DFAMSPEC_BUILD_TREE={build}", f"-DPython3_EXECUTABLE={sys.executable}", *settings)
    _run("cmake", "--build", extension_build, "-j", _jobs(), "--target", "famspec_python_wheel")
    described = json.loads((extension_build / "wheel" / "wheel.json").read_text(encoding="utf-8"))
    if not described["extension"].endswith(_extension_suffix()):
        raise RuntimeError(f"famspec_build: {described['extension']} is not an extension for {sys.executable}")
    return described


# ---- the package tree ----------------------------------------------------------------------------

def _stage(build: Path, described: dict, stage: Path) -> None:
    package = stage / NAME
    prefix = package / described["prefix"]
    _run("cmake", "--install", build, "--prefix", prefix)
    # The package as `cmake --install` lays it out for Debian's python3 is replaced by the wheel's.
    shutil.rmtree(prefix / described["python_install_dir"] / NAME, ignore_errors=True)
    _prune_empty(prefix)
    _collapse_library_links(prefix)

    sources = SOURCE / "python" / NAME
    for path in sorted(sources.rglob("*")):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        if path.suffix in (".py", ".pyi") or path.name == "py.typed":
            target = package / path.relative_to(sources)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)
    shutil.copy2(described["layout"], package / "_layout.py")
    shutil.copy2(described["extension"], package / Path(described["extension"]).name)


def _prune_empty(root: Path) -> None:
    for directory in sorted((p for p in root.rglob("*") if p.is_dir() and not p.is_symlink()),
                            key=lambda p: len(p.parts), reverse=True):
        if not any(directory.iterdir()):
            directory.rmdir()


def _collapse_library_links(prefix: Path) -> None:
    """A wheel holds no symbolic links: each library's chain (libX.so -> libX.so.N -> libX.so.N.M.P)
    becomes one file named by its SONAME (libX.so.N, what the dynamic linker looks for), and the
    CMake files that named another link of the chain name that file."""
    renames = {}
    for link in sorted(prefix.rglob("*")):
        if not link.is_symlink():
            continue
        real = link.resolve()
        if real.parent != link.parent.resolve():
            raise RuntimeError(f"famspec_build: {link} links out of its directory")
        link.unlink()
        if re.fullmatch(r".+\.so\.\d+", link.name) and real.exists():
            renames[real.name] = link.name
            real.rename(link)
        else:
            renames.setdefault(link.name, None)
    for old, new in list(renames.items()):
        if new is None:  # a development link (libX.so): its target was renamed to the SONAME
            stem = old + "."
            new = next((n for o, n in renames.items() if n and o.startswith(stem)), None)
            renames[old] = new
    for cmake_file in prefix.rglob("*.cmake"):
        text = original = cmake_file.read_text(encoding="utf-8")
        for old, new in renames.items():
            if new:
                text = re.sub(rf"/{re.escape(old)}(?=[\"\s;)])", f"/{new}", text)
        if text != original:
            cmake_file.write_text(text, encoding="utf-8")


# ---- the wheel -----------------------------------------------------------------------------------

def _dist_info_name() -> str:
    return f"{NAME}-{_version()}.dist-info"


def _write_dist_info(directory: Path, tag: str) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "METADATA").write_text(_metadata(), encoding="utf-8")
    (directory / "entry_points.txt").write_text(_entry_points(), encoding="utf-8")
    (directory / "WHEEL").write_text(
        f"Wheel-Version: 1.0\nGenerator: famspec_build\nRoot-Is-Purelib: false\nTag: {tag}\n", encoding="utf-8")


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _zip(stage: Path, wheel: Path) -> None:
    files = sorted(p for p in stage.rglob("*") if p.is_file())
    dist_info = [p for p in files if p.parent.name.endswith(".dist-info")]
    files = [p for p in files if p not in dist_info] + dist_info  # .dist-info last, as pip writes
    record = []
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in files:
            name = path.relative_to(stage).as_posix()
            data = path.read_bytes()
            info = zipfile.ZipInfo(name, _ZIP_TIME)
            info.external_attr = (stat.S_IFREG | (0o755 if os.access(path, os.X_OK) else 0o644)) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
            record.append(f"{name},{_digest(data)},{len(data)}")
        record_name = f"{_dist_info_name()}/RECORD"
        record.append(f"{record_name},,")
        info = zipfile.ZipInfo(record_name, _ZIP_TIME)
        info.external_attr = (stat.S_IFREG | 0o644) << 16
        archive.writestr(info, "\n".join(record) + "\n", zipfile.ZIP_DEFLATED)


# ---- PEP 517 hooks -------------------------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    _write_dist_info(Path(metadata_directory) / _dist_info_name(), _tag())
    return _dist_info_name()


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    tag = _tag()
    build = _configured_build(config_settings)
    described = _extension_for_this_python(build)
    wheel = Path(wheel_directory) / f"{NAME}-{_version()}-{tag}.whl"
    with tempfile.TemporaryDirectory(prefix="famspec-wheel-") as stage:
        stage = Path(stage)
        _stage(build, described, stage)
        _write_dist_info(stage / _dist_info_name(), tag)
        _zip(stage, wheel)
    return wheel.name


def build_sdist(sdist_directory, config_settings=None):
    """The tracked sources (``git ls-files``), with PKG-INFO."""
    base = f"{NAME}-{_version()}"
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=SOURCE, capture_output=True, check=True).stdout
    names = sorted(name for name in listed.decode().split("\0") if name and (SOURCE / name).is_file())
    sdist = Path(sdist_directory) / f"{base}.tar.gz"
    with tarfile.open(sdist, "w:gz", format=tarfile.PAX_FORMAT) as archive:
        for name in names:
            archive.add(SOURCE / name, arcname=f"{base}/{name}", recursive=False)
        metadata = _metadata().encode("utf-8")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        info.size = len(metadata)
        info.mode = 0o644
        import io
        archive.addfile(info, io.BytesIO(metadata))
    return sdist.name
