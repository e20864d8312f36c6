"""The ``famspec`` command of an installed package: the console script (``famspec ...``) and
``python -m famspec ...`` run the command that ships inside the package (found relative to it,
``_layout.COMMAND_FROM_PACKAGE``). Its ``audit`` runs this interpreter, which holds this package,
unless ``FAMSPEC_PYTHON`` names another."""

from __future__ import annotations

import os
import sys
from typing import List, Optional

from . import _layout


def command_path() -> str:
    """The ``famspec`` executable of this build, install or wheel."""
    package = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(package, _layout.COMMAND_FROM_PACKAGE))


def main(argv: Optional[List[str]] = None) -> int:
    """Replaces this process with the famspec command, with ``argv`` (default ``sys.argv[1:]``)."""
    args = sys.argv[1:] if argv is None else list(argv)
    command = command_path()
    if not os.access(command, os.X_OK):
        sys.stderr.write(f"famspec: the famspec command is missing from this package ({command})\n")
        return 2
    if not os.environ.get("FAMSPEC_PYTHON") and sys.executable:
        os.environ["FAMSPEC_PYTHON"] = sys.executable
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(command, ["famspec", *args])
    return 2  # not reached
