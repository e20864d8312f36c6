"""What the ``famspec audit`` and ``famspec sync`` command lines share: the parser with
``--source-root``, the plugin arguments, parsing that gives an exit code instead of exiting, and the
plugins' description either argument names."""

from __future__ import annotations

import argparse

from . import declarations

EXIT_USAGE = 2


def parser(prog: str, description: str, epilog: str, source_root_required: bool = True) -> argparse.ArgumentParser:
    made = argparse.ArgumentParser(prog=prog, description=description, epilog=epilog)
    shown = "the folder that holds hyper_parallel/"
    if not source_root_required:
        shown += " (default: the hyper_parallel package installed in this interpreter, found without importing it)"
    made.add_argument("--source-root", required=source_root_required, metavar="DIR", help=shown)
    return made


def add_plugin_arguments(parser: argparse.ArgumentParser, plugin_path_help: str, declarations_help: str) -> None:
    parser.add_argument("--plugin-path", action="append", metavar="DIR", help=plugin_path_help)
    parser.add_argument("--declarations", metavar="FILE", help=declarations_help)


def parse(parser: argparse.ArgumentParser, argv: list[str] | None) -> tuple[argparse.Namespace | None, int]:
    """The arguments and 0, or None and the exit code (0 after --help, else EXIT_USAGE)."""
    try:
        return parser.parse_args(argv), 0
    except SystemExit as exit_:
        return None, EXIT_USAGE if exit_.code else 0


def described(args: argparse.Namespace) -> dict:
    """The saved description ``--declarations`` names, else the one of the plugins ``--plugin-path`` (or
    the environment) loads. Raises AuditError."""
    if args.declarations:
        return declarations.from_file(args.declarations)
    return declarations.from_plugins(args.plugin_path)
