"""``python3 -m famspec sync``: a family's plugin project generated from the runtime's source."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..audit import front_end
from ..audit.audit import AuditError
from ..audit.front_end import EXIT_USAGE
from ..audit.source_tree import UnreadableSource
from . import journal, out_lock, project
from .errors import SyncError
from .reader import read_family

EXIT_INCOMPLETE = 1


def _parser() -> argparse.ArgumentParser:
    parser = front_end.parser(
        "famspec sync",
        "Generate a family's plugin project (CMakeLists.txt, plugin.cpp, Python assets) from the runtime's "
        "Python source, read with ast; nothing under it is imported.",
        "Exit codes: 0 written (or, with --check, up to date); 1 the source leaves TODOs (without "
        "--allow-incomplete), --check found a difference, or a registration is written in a form sync does not "
        "read (nothing written); 2 bad input, nothing written.",
    )
    parser.add_argument("--family", required=True, metavar="F", help="the family, by any spelling")
    parser.add_argument("--out", required=True, metavar="OUT", help="the plugin project to write")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 with a diff when OUT differs")
    parser.add_argument("--allow-incomplete", action="store_true", help="TODOs do not fail the command")
    front_end.add_plugin_arguments(parser, "plugin directory whose components the project need not declare "
                                   "(repeatable)", "a saved Registry.describe() instead of loading plugins")
    parser.add_argument("--json", action="store_true", help="the outcome as one JSON object on stdout")
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
    described = _described(args)
    family = read_family(Path(args.source_root), args.family, described)
    target = Path(args.out)
    # Another sync into the same OUT waits here (out_lock.py): each plans from the project the last one
    # left, and none removes another's staging directory.
    with out_lock.held(target, shared=args.check):
        return _check(args, family, target, out, err) if args.check else _write(args, family, target, out, err)


def _todos(args, family, err) -> tuple[list, bool]:
    """The TODOs in file order, said on stderr unless --quiet, and whether they fail the command."""
    todos = sorted(family.todos, key=lambda t: (t.site.file, t.site.line))
    if not args.quiet:
        for todo in todos:
            print(f"famspec sync: TODO {todo.site}: {todo.subject}: {todo.reason}", file=err)
    return todos, bool(todos) and not args.allow_incomplete


def _check(args, family, target: Path, out, err) -> int:
    files, stale = project.planned(target, family)
    todos, incomplete = _todos(args, family, err)
    difference = project.diff(target, files, stale)
    unfinished = journal.unfinished(target)
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


def _write(args, family, target: Path, out, err) -> int:
    completed = journal.finish(target)
    if completed and not args.quiet:
        print(f"famspec sync: {target}: completed the write an earlier sync left unfinished ("
              + ", ".join(completed) + ")", file=err)
    files, stale = project.planned(target, family)
    todos, incomplete = _todos(args, family, err)
    changed = journal.write(target, files, stale)
    code = EXIT_INCOMPLETE if incomplete else 0
    if args.json:
        _emit_json(out, family=family.model_type, out=str(target), changed=changed,
                   todos=[_todo_json(t) for t in todos], exit_code=code)
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
    try:
        return run(args)
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
