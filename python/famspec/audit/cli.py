"""``python3 -m famspec audit``: the command line around run_audit."""

from __future__ import annotations

import argparse
import json
import sys

from . import declarations
from .audit import AuditError, Report, run_audit
from .findings import OK

EXIT_USAGE = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="famspec audit",
        description="Check every family declaration of the loaded plugins against the runtime's Python "
        "source. The source is read with ast; nothing under it is imported.",
        epilog="Exit codes: 0 nothing drifts, 1 a declaration drifts (or a plugin failed to load), "
        "2 a bad source root or bad arguments.",
    )
    parser.add_argument("--source-root", required=True, metavar="DIR", help="the folder that holds hyper_parallel/")
    parser.add_argument("--family", action="append", metavar="F", help="audit only this family (repeatable)")
    parser.add_argument("--json", action="store_true", help="a machine-readable report on stdout")
    parser.add_argument(
        "--plugin-path", action="append", metavar="DIR", help="plugin directory (repeatable; else FAMSPEC_PLUGIN_PATH)"
    )
    parser.add_argument(
        "--declarations", metavar="FILE", help="read a saved Registry.describe() instead of loading plugins"
    )
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
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return EXIT_USAGE if exit_.code else 0
    try:
        if args.declarations:
            described = declarations.from_file(args.declarations)
        else:
            described = declarations.from_plugins(args.plugin_path)
        report = run_audit(described, args.source_root, args.family)
    except AuditError as error:
        print(f"famspec audit: {error}", file=sys.stderr)
        return EXIT_USAGE
    if args.json:
        json.dump(report.to_json(args.strict), sys.stdout, sort_keys=True, separators=(",", ":"))
        sys.stdout.write("\n")
    else:
        render_text(report, args.verbose, sys.stdout)
    return report.exit_code(args.strict)
