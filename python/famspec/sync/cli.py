"""``python3 -m famspec sync``: a family's plugin project generated from the runtime's source."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..audit import front_end
from ..audit.audit import AuditError
from ..audit.front_end import EXIT_USAGE
from ..source.source_tree import SourceTree, UnreadableSource
from . import every, framework, installed, journal, outcome
from .errors import SyncError
from .model import FamilySource, FrameworkSource
from .reader import checked_root, read_family

EXIT_INCOMPLETE = 1


def _parser() -> argparse.ArgumentParser:
    parser = front_end.parser(
        "famspec sync",
        "Generate a family's plugin project (CMakeLists.txt, plugin.cpp, Python assets) from the runtime's "
        "Python source, read with ast; nothing under it is imported. --framework generates the plugin of the "
        "runtime's generic components; --all generates that one and every family's, each into OUT/<name>.",
        "Exit codes: 0 written (or, with --check, up to date); 1 the source leaves TODOs (without "
        "--allow-incomplete), --check found a difference, a registration is written in a form sync does not "
        "read (nothing written for it), or with --all a family was refused or did not build; 2 bad input, "
        "nothing written.",
        source_root_required=False,
    )
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--family", metavar="F", help="the family, by any spelling")
    which.add_argument("--framework", action="store_true",
                       help=f"the plugin of the runtime's generic components ({framework.COMPONENTS_PACKAGE})")
    which.add_argument("--all", action="store_true", help="the framework's plugin and every family of the tree")
    parser.add_argument("--out", required=True, metavar="OUT",
                        help="the plugin project to write (with --all: the directory of the projects)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 with a diff when OUT differs")
    parser.add_argument("--allow-incomplete", action="store_true", help="TODOs do not fail the command")
    parser.add_argument("--build", metavar="DIR", help="with --all: build every generated project against the "
                        "installed famspec and write its plugin into DIR, ready for --plugin-path")
    front_end.add_plugin_arguments(parser, "plugin directory whose components the project need not declare "
                                   "(repeatable)", "a saved Registry.describe() instead of loading plugins")
    parser.add_argument("--json", action="store_true", help="the outcome as one JSON object on stdout (with --all: "
                        "one a line, one per plugin)")
    parser.add_argument("--quiet", action="store_true", help="no notes on stderr (errors and --check's diff still)")
    return parser


def _todo_json(todo) -> dict:
    return {"file": todo.site.file, "line": todo.site.line, "subject": todo.subject, "reason": todo.reason}


def _emit_json(stream, **fields) -> None:
    json.dump(fields, stream, sort_keys=True, separators=(",", ":"))
    stream.write("\n")


def _described(args) -> dict:
    """The other plugins' declarations. When the plugin path loads none, every shipped component would
    be declared again (a project that clashes with the shipped plugins at load): refused, with or
    without --allow-incomplete, since that is a wrong project, not an incomplete one. A saved
    description (--declarations) is the caller's explicit choice and is taken as it is."""
    try:
        described = front_end.described(args)
    except AuditError as error:
        raise SyncError(str(error)) from None
    if not args.declarations and not any(p.get("status") == "ok" for p in described.get("plugins", [])):
        where = "--plugin-path " + " ".join(args.plugin_path) if args.plugin_path else "the default plugin path"
        raise SyncError(f"{where}: no plugin loads from there, so the project would declare every shipped "
                        "component again; pass --plugin-path with the shipped plugins' directory (or a saved "
                        "description with --declarations); nothing was written")
    return described


def run(args, out=None, err=None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    if not args.out.strip():
        raise SyncError("--out is empty: name the plugin project's directory (sync never writes into the working "
                        "directory by default); nothing was written")
    root = Path(args.source_root) if args.source_root else installed.source_root()
    family: FamilySource | FrameworkSource
    if args.framework:
        family = framework.read_framework(SourceTree(checked_root(root)))
    else:
        family = read_family(root, args.family, _described(args))
    target = Path(args.out)
    done = outcome.apply(target, family, args.check)
    if done.completed and not args.quiet:
        print(f"famspec sync: {target}: completed the write an earlier sync left unfinished ("
              + ", ".join(done.completed) + ")", file=err)
    todos = done.todos
    if not args.quiet:
        for todo in todos:
            print(f"famspec sync: TODO {todo.site}: {todo.subject}: {todo.reason}", file=err)
    incomplete = bool(todos) and not args.allow_incomplete
    if args.check:
        difference, unfinished = done.difference, done.unfinished
        code = 1 if difference or unfinished or incomplete else 0
        if unfinished:  # the reason for the exit status, so said under --quiet too
            print(f"famspec sync --check: {target / journal.PENDING}: an earlier sync was killed before it "
                  "finished writing; run famspec sync to complete it", file=err)
        if args.json:
            _emit_json(out, family=family.model_type, out=str(target), up_to_date=not (difference or unfinished),
                       diff=difference,
                       todos=[_todo_json(t) for t in todos], exit_code=code)
        elif difference:
            out.write(difference)
        if difference and not args.quiet:
            print(f"famspec sync --check: {target} is not what the source generates; run famspec sync", file=err)
        return code
    changed = done.changed
    code = EXIT_INCOMPLETE if incomplete else 0
    if args.json:
        _emit_json(out, family=family.model_type, out=str(target), changed=changed,
                   todos=[_todo_json(t) for t in todos], exit_code=code)
    elif isinstance(family, FrameworkSource):
        print(f"famspec sync: {family.name} ({len(family.components)} components, {len(family.embedded())} source "
              f"blocks) -> {target}: " + (", ".join(changed) + " changed" if changed else "up to date"), file=out)
    else:
        counts = (f"{len(family.factories)} factories, {len(family.cp_wrappers)} CP wrappers, "
                  f"{len(family.archetypes)} archetypes, {len(family.compute_functions)} compute functions, "
                  f"{len(family.interface)} handed-over blocks, {len(family.components)} components")
        print(f"famspec sync: {family.model_type} ({counts}) -> {target}: "
              + (", ".join(changed) + " changed" if changed else "up to date"), file=out)
    if incomplete and not args.quiet:
        print(f"famspec sync: {len(todos)} TODO(s) written into {target / 'plugin.cpp'}; declare them by "
              "hand in .amendments, after the generated region, or pass --allow-incomplete", file=err)
    return code


def main(argv: list[str] | None = None) -> int:
    args, code = front_end.parse(_parser(), argv)
    if args is None:
        return code
    if args.build and not args.all:
        return _bad_input(args, SyncError("--build builds the projects of --all; with one project, build it as "
                                          "docs/plugin-authors.md says"))
    try:
        return every.run_all(args) if args.all else run(args)
    except OSError as error:  # a file or directory of the tree or OUT that cannot be read or written
        return _bad_input(args, SyncError(f"{error.filename or '--out ' + args.out}: {error.strerror or error}; "
                                          "sync stopped"))
    except UnreadableSource as error:  # a module read on a path that has no message of its own
        return _bad_input(args, SyncError(f"{error}; fix the file and run sync again; nothing was written"))
    except (RecursionError, MemoryError, UnicodeError) as error:
        return _bad_input(args, SyncError(f"the source cannot be read: {type(error).__name__}: {error}; nothing "
                                          "was written"))
    except SyncError as error:
        return _bad_input(args, error)


def _bad_input(args, error: SyncError) -> int:
    if args.json:
        kind = "bad_input" if error.exit_code == EXIT_USAGE else "unreadable"
        _emit_json(sys.stdout, error={"kind": kind, "message": str(error), "file": None, "line": None, "column": None})
    print(f"famspec sync: {error}", file=sys.stderr)
    return error.exit_code
