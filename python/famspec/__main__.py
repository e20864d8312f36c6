"""``python3 -m famspec COMMAND ...``: the ``famspec`` command of this package, whose ``audit``,
``sync`` and ``new-family`` run here, in Python."""

import importlib
import sys

# The commands that run here, in Python, and their modules; the others are the famspec executable's.
_PYTHON_COMMANDS = {"audit": "audit", "sync": "sync", "new-family": "new_family"}


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in _PYTHON_COMMANDS:
        try:
            command = importlib.import_module(f"{__package__}.{_PYTHON_COMMANDS[argv[0]]}").main
        except ImportError as error:
            # The extension missing (a package without its build): a usage error, not a failed check.
            sys.stderr.write(f"famspec {argv[0]}: {error}\n")
            return 2
        return command(argv[1:])
    if not argv:
        sys.stderr.write("usage: python3 -m famspec COMMAND [ARGS...] (as the famspec command; --help lists them)\n")
        return 2
    from ._command import main as run
    return run(argv)


if __name__ == "__main__":
    sys.exit(main())
