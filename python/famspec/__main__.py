"""``python3 -m famspec COMMAND``: the package's own commands (``audit`` and ``sync``)."""

import sys


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "audit":
        from .audit import main as audit
        return audit(argv[1:])
    if argv and argv[0] == "sync":
        from .sync import main as sync
        return sync(argv[1:])
    sys.stderr.write("usage: python3 -m famspec {audit,sync} [--help]\n")
    return 2


if __name__ == "__main__":
    sys.exit(main())
