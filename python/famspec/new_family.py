"""``python3 -m famspec new-family``: a ready-to-build out-of-tree family project (CMakeLists.txt, a
plugin.cpp with one example factory, a README, a test that runs the README's resolve command), written
from sync's templates by sync's expander (sync/scaffold.py) as one new directory (sync/new_directory.py)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TextIO

from .audit.front_end import EXIT_USAGE, parse
from .sync import new_directory, scaffold
from .sync.errors import SyncError

EXIT_NOT_WRITTEN = 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="famspec new-family", description="Write a ready-to-build out-of-tree family project, from the "
        "templates famspec sync writes its projects from.",
        epilog="Exit codes: 0 written; 1 the directory already exists (even empty) or cannot be written; 2 an "
        "invalid name, architecture or directory, nothing written.")
    parser.add_argument("name", metavar="NAME", help="family model_type and plugin name, e.g. acme_moe")
    parser.add_argument("--architecture", required=True, metavar="ARCH", help="HF architecture, e.g. "
                        "AcmeMoeForCausalLM")
    parser.add_argument("--dir", metavar="DIR", help="directory to create (default ./NAME)")
    parser.add_argument("--json", action="store_true", help="the result, or the error, as JSON on stdout")
    return parser


def _emit_json(stream: TextIO, fields: dict) -> None:
    json.dump(fields, stream, sort_keys=True, separators=(",", ":"))
    stream.write("\n")


def _directory(name: str, given: str | None) -> Path:
    """--dir (else ./NAME), normalised; a path that names no directory to create is refused."""
    directory = os.path.normpath(given) if given is not None else name
    if os.path.basename(directory) in ("", ".", ".."):
        raise SyncError(f"--dir must name a directory to create, got '{given}'")
    return Path(directory)


def _checked(args: argparse.Namespace) -> Path:
    problem = scaffold.name_problem(args.name)
    if problem is not None:
        raise SyncError(f"invalid family name '{args.name}': {problem} (it becomes hyper_parallel.models.<name> and "
                        "famspec_<name>.so)")
    problem = scaffold.architecture_problem(args.architecture)
    if problem is not None:
        raise SyncError(f"invalid architecture '{args.architecture}': {problem} (e.g. AcmeMoeForCausalLM)")
    if args.dir == "":
        raise SyncError("--dir: must not be empty")
    return _directory(args.name, args.dir)


def _famspec_location() -> str:
    """How CMake finds this famspec: its CMake package when the package has one (an install prefix, or
    a pip install), else the prefix to name."""
    from . import cmake_dir

    try:
        return f"-Dfamspec_DIR={cmake_dir()}"
    except FileNotFoundError:
        return "-DCMAKE_PREFIX_PATH=<famspec install prefix>"


def _report(args: argparse.Namespace, directory: Path, written: list[str], out: TextIO) -> None:
    if args.json:
        _emit_json(out, {"architecture": args.architecture, "directory": str(directory), "files": written,
                         "name": args.name})
        return
    build = directory / "build"
    out.write(f"wrote family '{args.name}' ({args.architecture}) to {directory}:\n")
    out.writelines(f"  {name}\n" for name in written)
    out.write(f"build it against an installed famspec:\n  cmake -S {directory} -B {build} {_famspec_location()}\n"
              f"  cmake --build {build}\n  famspec list --plugin-path {Path(os.path.abspath(build)) / 'plugins'}\n")


def main(argv: list[str] | None = None) -> int:
    args, code = parse(_parser(), argv)
    if args is None:
        return code
    try:
        directory = _checked(args)
        files = scaffold.files(args.name, args.architecture)
        new_directory.create(directory, files)
    except SyncError as error:
        # A refused name is a usage error (2); a directory that exists or cannot be written is not (1).
        if args.json:
            kind = "usage" if error.exit_code == EXIT_USAGE else "io"
            _emit_json(sys.stdout, {"error": {"column": None, "file": None, "kind": kind, "line": None,
                                              "message": str(error)}})
        print(f"famspec new-family: {error}", file=sys.stderr)
        return error.exit_code
    _report(args, directory, list(files), sys.stdout)
    return 0
