"""Proves family declarations against the runtime's Python source, read statically.

``main(argv)`` is ``python3 -m famspec audit``; ``run_audit(description, source_root)`` is the same
check as a function, on the JSON description of a loaded registry (``Registry.describe()``).
"""

from .audit import AuditError, Report, run_audit
from .cli import main
from .findings import DRIFT, OK, UNREADABLE, Finding

__all__ = ["AuditError", "DRIFT", "Finding", "OK", "Report", "UNREADABLE", "main", "run_audit"]
