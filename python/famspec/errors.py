"""The exceptions the famspec package raises."""

from __future__ import annotations

__all__ = ["PlanError", "ResolutionError"]


class PlanError(ValueError):
    """A plan that cannot be read: where, and what was expected."""

    def __init__(self, file: str, line: int, column: int, message: str):
        super().__init__(f"{file}:{line}:{column}: {message}")
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
