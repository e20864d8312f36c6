"""``python3 -m famspec COMMAND ...``: the ``famspec`` command of this package, whose ``audit`` and
``sync`` run here, in Python."""

import sys


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "audit":
        from .audit import main as audit
        return audit(argv[1:])
    if argv and argv[0] == "sync":
        from .sync import main as sync
        return sync(argv[1:])
    if not argv:
        sys.stderr.write("usage: python3 -m famspec COMMAND [ARGS...] (as the famspec command; --help lists them)\n")
        return 2
    from ._command import main as command
    return command(argv)


if __name__ == "__main__":
    sys.exit(main())
