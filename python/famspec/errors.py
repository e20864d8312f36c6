"""The exceptions the famspec package raises."""

from __future__ import annotations

__all__ = ["PartialRegistryError", "PlanError", "PlanWarning", "ResolutionError"]


class PlanError(ValueError):
    """A plan that cannot be read: where, and what was expected. ``errors`` holds every error the
    plan has, in file order, this one first. ``line`` and ``column`` are 0 for an error about the file
    as a whole (missing, a directory, unreadable)."""

    def __init__(self, file: str, line: int, column: int, message: str, others: tuple = ()):
        # An error about the file as a whole (it cannot be read) has no line: "file: message".
        text = f"{file}: {message}" if line == 0 else f"{file}:{line}:{column}: {message}"
        if others:
            text += f" (and {len(others)} more: " + "; ".join(str(o) for o in others) + ")"
        super().__init__(text)
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.errors = (self, *others)

    def __reduce__(self):
        return (type(self), (self.file, self.line, self.column, self.message, self.errors[1:]))


class PlanWarning(UserWarning):
    """Something in a plan famspec does not read, the hint ``famspec check`` shows: an unread key with
    the nearest known one, ``model.model_type``, a ``plan_overrides`` below the top level. ``parse_plan``
    (and the drop-in, for its override records) warns with it and reads the rest; a near miss of a
    slot key is a ``PlanError`` instead. ``line`` is 0 where there is no line (an override record)."""

    def __init__(self, file: str, line: int, column: int, message: str):
        super().__init__(f"{file}: {message}" if line == 0 else f"{file}:{line}:{column}: {message}")
        self.file = file
        self.line = line
        self.column = column
        self.message = message

    def __reduce__(self):
        return (type(self), (self.file, self.line, self.column, self.message))


class ResolutionError(RuntimeError):
    """A declaration that exists but is broken (status "error"), as opposed to one that is not covered."""

    def __init__(self, message: str, target: str | None = None):
        super().__init__(message)
        self.target = target
        self.message = message

    def __reduce__(self):
        return (type(self), (self.message, self.target))


class PartialRegistryError(RuntimeError):
    """Not every plugin (or plugin directory) loaded, so no answer is given: an answer from the plugins
    that did load could differ from the one the full set gives, with nothing to show it. ``failures``
    holds the failed ``PluginRecord``s, each with its ``path``, ``stage`` and ``message``. A caller that
    accepts such answers passes ``allow_partial=True`` (``load_plugins``, ``Resolver``, ``use_registry``),
    as ``famspec --allow-partial`` does."""

    def __init__(self, failures: tuple):
        self.failures = tuple(failures)
        lines = "; ".join(_failure_text(record) for record in self.failures)
        super().__init__(f"not every plugin loaded, so famspec gives no answer: {lines}; fix the plugins, or pass "
                         "allow_partial=True to answer from the plugins that did load")

    def __reduce__(self):
        return (type(self), (self.failures,))


def _failure_text(record) -> str:
    name = f" (plugin {record.name!r})" if record.name else ""
    return f"{record.path}{name}: {record.stage}: {record.message}"
