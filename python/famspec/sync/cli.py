"""``python3 -m famspec sync``: a family's plugin project generated from the runtime's source."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..audit import declarations
from ..audit.audit import AuditError
from . import project
from .errors import SyncError
from .reader import read_family

EXIT_INCOMPLETE = 1
EXIT_USAGE = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="famspec sync",
        description="Generate a family's plugin project (CMakeLists.txt, plugin.cpp, Python assets) from the "
        "runtime's Python source, read with ast; nothing under it is imported.",
        epilog="Exit codes: 0 written (or, with --check, up to date); 1 the source leaves TODOs (without "
        "--allow-incomplete), or --check found a difference; 2 bad input, nothing written.",
    )
    parser.add_argument("--source-root", required=True, metavar="DIR", help="the folder that holds hyper_parallel/")
    parser.add_argument("--family", required=True, metavar="F", help="the family, by any spelling")
    parser.add_argument("--out", required=True, metavar="OUT", help="the plugin project to write")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 with a diff when OUT differs")
    parser.add_argument("--allow-incomplete", action="store_true", help="TODOs do not fail the command")
    parser.add_argument(
        "--plugin-path", action="append", metavar="DIR",
        help="plugin directory whose components the project need not declare (repeatable)",
    )
    parser.add_argument("--declarations", metavar="FILE", help="a saved Registry.describe() instead of loading plugins")
    return parser


def _described(args) -> dict:
    try:
        if args.declarations:
            return declarations.from_file(args.declarations)
        return declarations.from_plugins(args.plugin_path)
    except AuditError as error:
        raise SyncError(str(error)) from None


def run(args, out=None, err=None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    described = _described(args)
    family = read_family(Path(args.source_root), args.family, described)
    target = Path(args.out)
    files, stale = project.planned(target, family)
    for todo in sorted(family.todos, key=lambda t: (t.site.file, t.site.line)):
        print(f"famspec sync: TODO {todo.site}: {todo.subject}: {todo.reason}", file=err)
    incomplete = bool(family.todos) and not args.allow_incomplete
    if args.check:
        difference = project.diff(target, files, stale)
        if difference:
            out.write(difference)
            print(f"famspec sync --check: {target} is not what the source generates; run famspec sync", file=err)
            return 1
        return EXIT_INCOMPLETE if incomplete else 0
    changed = project.write(target, files, stale)
    counts = (f"{len(family.factories)} factories, {len(family.cp_wrappers)} CP wrappers, "
              f"{len(family.archetypes)} archetypes, {len(family.compute_functions)} compute functions, "
              f"{len(family.interface)} handed-over blocks, {len(family.components)} components")
    print(f"famspec sync: {family.model_type} ({counts}) -> {target}: "
          + (", ".join(changed) + " changed" if changed else "up to date"), file=out)
    if incomplete:
        print(f"famspec sync: {len(family.todos)} TODO(s) written into {target / 'plugin.cpp'}; declare them by "
              "hand outside the generated region, or pass --allow-incomplete", file=err)
        return EXIT_INCOMPLETE
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return EXIT_USAGE if exit_.code else 0
    try:
        return run(args)
    except SyncError as error:
        print(f"famspec sync: {error}", file=sys.stderr)
        return EXIT_USAGE
