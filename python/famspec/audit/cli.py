"""``python3 -m famspec audit``: the command line around run_audit."""

from __future__ import annotations

import argparse
import json
import sys

from ..source.source_tree import UnreadableSource
from . import front_end
from .audit import AuditError, Report, run_audit
from .findings import OK
from .front_end import EXIT_USAGE


def _parser() -> argparse.ArgumentParser:
    parser = front_end.parser(
        "famspec audit",
        "Check every family declaration of the loaded plugins against the runtime's Python source. The source "
        "is read with ast; nothing under it is imported.",
        "Exit codes: 0 nothing drifts, 1 a declaration drifts (or a plugin failed to load), 2 a bad source root "
        "or bad arguments.",
    )
    parser.add_argument("--family", action="append", metavar="F", help="audit only this family (repeatable)")
    parser.add_argument("--json", action="store_true", help="a machine-readable report on stdout")
    front_end.add_plugin_arguments(parser, "plugin directory (repeatable; else FAMSPEC_PLUGIN_PATH)",
                                   "read a saved Registry.describe() instead of loading plugins")
    parser.add_argument("--strict", action="store_true", help="unreadable source fails the audit too")
    parser.add_argument("--verbose", action="store_true", help="print every ok finding, not only their count")
    return parser


def render_text(report: Report, verbose: bool, out) -> None:
    for plugin in report.failed_plugins:
        print(f"plugin {plugin.get('name') or plugin.get('path')} failed to load ({plugin.get('stage')}): "
              f"{plugin.get('message', '')}", file=out)
    for f in report.findings:
        if f.status == OK:
            if verbose:
                print(f"ok          {f.position}  {f.check} {f.subject}", file=out)
            continue
        print(f"{f.status:<11} {f.position}  {f.check} {f.subject}" + (f" [{f.kind}]" if f.kind else ""), file=out)
        print(f"            declared: {f.declared}", file=out)
        print(f"            source:   {f.found}", file=out)
        print(f"            remedy:   {f.remedy}", file=out)
        if f.where:
            print(f"            declared at {f.where} ({f.plugin})", file=out)
    counts = ", ".join(f"{report.count(s)} {s}" for s in ("ok", "drift", "unreadable"))
    print(f"audit of {len(report.families)} families against {report.source_root}: {counts}", file=out)


def main(argv: list[str] | None = None) -> int:
    args, code = front_end.parse(_parser(), argv)
    if args is None:
        return code
    try:
        report = run_audit(front_end.described(args), args.source_root, args.family)
    except AuditError as error:
        print(f"famspec audit: {error}", file=sys.stderr)
        return EXIT_USAGE
    except UnreadableSource as error:  # read on a path that has no finding for it
        print(f"famspec audit: {error}; fix the file and run the audit again", file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:  # a file or directory of the tree that cannot be read: bad input, not drift
        print(f"famspec audit: {error.filename}: cannot be read: {error.strerror or error}", file=sys.stderr)
        return EXIT_USAGE
    except (RecursionError, MemoryError, UnicodeError) as error:
        print(f"famspec audit: the source cannot be read: {type(error).__name__}: {error}", file=sys.stderr)
        return EXIT_USAGE
    if args.json:
        json.dump(report.to_json(args.strict), sys.stdout, sort_keys=True, separators=(",", ":"))
        sys.stdout.write("\n")
    else:
        render_text(report, args.verbose, sys.stdout)
    return report.exit_code(args.strict)
