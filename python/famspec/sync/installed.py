"""The runtime installed in the interpreter famspec runs with: the folder holding its ``hyper_parallel``
package, found on ``sys.path`` as the import system would find it, without importing it (its
``__init__`` never runs)."""

from __future__ import annotations

import importlib.machinery
import sys
from pathlib import Path

from .errors import SyncError

PACKAGE = "hyper_parallel"


def source_root(search: list[str] | None = None) -> Path:
    """The ``--source-root`` of the installed runtime. ``PathFinder`` only locates the package."""
    spec = importlib.machinery.PathFinder.find_spec(PACKAGE, search if search is not None else sys.path)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        folder = Path(location)
        if (folder / "models").is_dir():
            return folder.parent
    where = f"{sys.executable}'s sys.path"
    found = f" (found {', '.join(locations)}, without a models/ folder)" if locations else ""
    raise SyncError(f"--source-root is not given and no {PACKAGE} package is installed on {where}{found}: pass "
                    "--source-root with the folder that holds hyper_parallel/, or run famspec with the runtime's "
                    "interpreter; nothing was written")
