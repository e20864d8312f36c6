"""Generates a family's plugin project from the runtime's Python source, read statically.

``main(argv)`` is ``python3 -m famspec sync``; ``read_family(source_root, name, declarations)``
reads what the generated plugin declares; ``project.planned/diff`` turn it into files, which
``journal.write`` writes as one step.
"""

from .cli import main
from .errors import SyncError
from .reader import read_family

__all__ = ["SyncError", "main", "read_family"]
