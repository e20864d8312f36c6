"""Proves family declarations against the runtime's Python source, read statically.

``main(argv)`` is ``famspec audit`` (``python3 -m famspec audit``); ``run_audit(declarations,
source_root, family_names=None)`` is the same check as a function, on the parsed description of a
loaded registry (``json.loads(Registry.describe())``), for every family or those named.
"""

from .audit import AuditError, Report, run_audit
from .cli import main
from .findings import DRIFT, OK, UNREADABLE, Finding

__all__ = ["AuditError", "DRIFT", "Finding", "OK", "Report", "UNREADABLE", "main", "run_audit"]
