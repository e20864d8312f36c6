"""Reading plans: a training plan's ``plan_overrides``, checked before anything is resolved."""

from __future__ import annotations

import os

from . import _native
from .errors import PlanError

__all__ = ["Plan", "parse_plan"]

Plan = _native.Plan


def parse_plan(path_or_text: str | os.PathLike) -> Plan:
    """Parse a plan from a file path (``str`` naming an existing file, or ``os.PathLike``) or from YAML text.

    Raises ``PlanError`` with ``file``, ``line``, ``column`` and ``message`` of the first error, and
    ``errors``: every error of the plan, in file order.
    """
    if isinstance(path_or_text, os.PathLike):
        parsed = _native.parse_plan_file(os.fspath(path_or_text))
    elif isinstance(path_or_text, str):
        looks_like_path = "\n" not in path_or_text and path_or_text.endswith((".yaml", ".yml"))
        if looks_like_path or ("\n" not in path_or_text and os.path.isfile(path_or_text)):
            parsed = _native.parse_plan_file(path_or_text)
        else:
            parsed = _native.parse_plan_text(path_or_text, "<text>")
    else:
        raise TypeError(f"parse_plan expects a path or YAML text, got {type(path_or_text).__name__}")
    plan = parsed["plan"]
    if plan is None:
        first, *others = parsed["errors"]
        raise PlanError(**first, others=tuple(PlanError(**other) for other in others))
    return plan
