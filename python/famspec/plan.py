"""Reading plans: a training plan's ``plan_overrides``, checked before anything is resolved."""

from __future__ import annotations

import os
import warnings

from . import _native
from .errors import PlanError, PlanWarning

__all__ = ["Plan", "parse_plan"]

Plan = _native.Plan

_TEXT_NAME = "<text>"
_SHOWN = 60


def _raise(errors):
    first, *others = errors
    raise PlanError(**first, others=tuple(PlanError(**other) for other in others))


def _shown(text: str) -> str:
    """A value quoted for a message, cut to a readable length."""
    if len(text) <= _SHOWN:
        return repr(text)
    return f"{text[:_SHOWN]!r}... ({len(text)} characters)"


def _checked(parsed) -> Plan:
    if parsed["plan"] is None:
        _raise(parsed["errors"])
    return _heeded(parsed["plan"])


def _heeded(plan: Plan) -> Plan:
    """The plan, after its hints: a near miss of a slot key refuses it (its target would be left out of
    every answer), as ``famspec check`` refuses it; every other hint is a ``PlanWarning``."""
    hints = plan.warnings
    refusing = [{key: hint[key] for key in ("file", "line", "column", "message")} for hint in hints if hint["refuses"]]
    if refusing:
        _raise(refusing)
    for hint in hints:
        warnings.warn(PlanWarning(hint["file"], hint["line"], hint["column"], hint["message"]), stacklevel=4)
    return plan


def _from_file(path: str) -> Plan:
    return _checked(_native.parse_plan_file(path))


def _from_text(text: str) -> Plan:
    return _checked(_native.parse_plan_text(text, _TEXT_NAME))


def parse_plan(path_or_text: str | os.PathLike) -> Plan:
    """Parse a plan from a file or from YAML text, told apart so that neither is taken for the other:

    - an ``os.PathLike`` is always a path;
    - a ``str`` holding a line break is always YAML text;
    - a ``str`` on one line is a path when it names something that exists, or ends in ``.yaml`` or
      ``.yml``; otherwise it is YAML text, and when it is not a plan's text either the error says that
      it is neither.

    A directory, a missing file, a file that cannot be read or a ``str`` that is neither a file nor a
    plan's text raises ``PlanError`` with ``line`` 0 and a message that says which
    (``"FILE: cannot read the plan: it is a directory, not a plan file"``). A plan that does not read
    raises ``PlanError`` with ``file``, ``line``, ``column`` and ``message`` of its first error, and
    ``errors``: every error of the plan, in file order.

    The hints of ``famspec check`` come too, from the same reader: a near miss of a slot key
    (``replace_modul:``) raises ``PlanError``, each such key an error, since its target would be left
    out; any other key famspec does not read, ``model.model_type`` and a ``plan_overrides`` below the
    top level are each a ``famspec.PlanWarning`` (``warnings.warn``), and the plan is returned.
    """
    if isinstance(path_or_text, os.PathLike):
        path = os.fspath(path_or_text)
        if not isinstance(path, str):
            raise TypeError("parse_plan: bytes paths are not supported")
        return _from_file(path)
    if not isinstance(path_or_text, str):
        raise TypeError(f"parse_plan expects a path or YAML text, got {type(path_or_text).__name__}")
    text = path_or_text
    if "\n" in text or "\r" in text or not text.strip():
        return _from_text(text)
    if os.path.lexists(text) or text.endswith((".yaml", ".yml")):
        return _from_file(text)
    parsed = _native.parse_plan_text(text, _TEXT_NAME)
    if parsed["plan"] is not None:
        return _heeded(parsed["plan"])
    first = parsed["errors"][0]
    line, column, message = first["line"], first["column"], first["message"]
    raise PlanError(_TEXT_NAME, 0, 0, f"{_shown(text)} is neither an existing file nor a plan's YAML text: no such "
                                      f"file, and read as YAML it is not a plan ({line}:{column}: {message})")
