"""The exceptions the famspec package raises."""

from __future__ import annotations

__all__ = ["PlanError", "ResolutionError"]


class PlanError(ValueError):
    """A plan that cannot be read: where, and what was expected. ``errors`` holds every error the
    plan has, in file order, this one first."""

    def __init__(self, file: str, line: int, column: int, message: str, others: tuple = ()):
        text = f"{file}:{line}:{column}: {message}"
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


class ResolutionError(RuntimeError):
    """A declaration that exists but is broken (status "error"), as opposed to one that is not covered."""

    def __init__(self, message: str, target: str | None = None):
        super().__init__(message)
        self.target = target
        self.message = message

    def __reduce__(self):
        return (type(self), (self.message, self.target))
