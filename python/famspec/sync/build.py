"""``famspec sync --all --build DIR``: every generated project configured and built against the installed
famspec (its CMake package, ``famspec.cmake_dir()``), each alone so that a failure is its own, and its
plugin copied into DIR, ready for ``--plugin-path``. A failure names the family and the first error the
compiler (or CMake) reports."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

# The first line a compiler or CMake reports an error on.
_ERROR = re.compile(r"(\berror\b|CMake Error)", re.IGNORECASE)
BUILDS = ".build"  # DIR/.build/<family>: each project's build tree, kept so a second run compiles less


def _famspec_dir() -> str | None:
    """The directory of famspecConfig.cmake of this famspec, or None (a build tree has none)."""
    from .. import cmake_dir

    try:
        return cmake_dir()
    except FileNotFoundError:
        return None


def first_error(output: str) -> str:
    for line in output.splitlines():
        if _ERROR.search(line):
            return line.strip()
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    return lines[-1] if lines else "no output"


def _run(argv: list[str]) -> tuple[bool, str]:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=3600)
    except (OSError, subprocess.TimeoutExpired) as error:
        return False, str(error)
    return done.returncode == 0, done.stdout + done.stderr


def build_all(records: list, into: Path, err=None) -> None:
    """Builds each record's project that was generated or is unchanged; sets its plugin or build_error."""
    cmake = shutil.which("cmake")
    famspec_dir = _famspec_dir()
    for record in records:
        if record.status not in ("generated", "unchanged"):
            continue
        if cmake is None:
            record.build_error = "cmake is not on PATH"
            continue
        if famspec_dir is None:
            record.build_error = ("this famspec has no CMake package (a build tree): install it (pip install, or "
                                  "cmake --install) to build plugins against it")
            continue
        tree = into / BUILDS / record.name
        if err is not None:
            print(f"famspec sync: building {record.name} in {tree}", file=err)
        ok, output = _run([cmake, "-S", str(record.out), "-B", str(tree), "-DCMAKE_BUILD_TYPE=Release",
                           f"-Dfamspec_DIR={famspec_dir}"])
        if ok:
            ok, output = _run([cmake, "--build", str(tree), "-j", str(os.cpu_count() or 1)])
        built = tree / "plugins" / f"famspec_{record.name}.so"
        if not ok or not built.is_file():
            record.build_error = first_error(output) if not ok else f"the build left no {built.name}"
            continue
        into.mkdir(parents=True, exist_ok=True)
        record.plugin = into / built.name
        shutil.copy2(built, record.plugin)
