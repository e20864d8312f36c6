"""Read-only records with value semantics: the rich API's results (plugin records, resolutions,
explanations, diagnostics, summary entries).

Plain slotted classes rather than dataclasses: a dataclass compiles its methods when its module is
imported, and famspec is imported on every rank of a job, where start-up time is the product.
"""

from __future__ import annotations

__all__ = ["Record"]


class Record:
    """Fields are the subclass's ``__slots__``, in order; ``_defaults`` gives the optional ones."""

    __slots__ = ()
    _defaults: dict = {}

    def __init__(self, *values, **named):
        fields = self.__slots__
        if len(values) > len(fields):
            raise TypeError(f"{type(self).__name__}() takes {len(fields)} values, got {len(values)}")
        for name, value in zip(fields, values):
            object.__setattr__(self, name, value)
        for name in fields[len(values):]:
            if name in named:
                value = named.pop(name)
            elif name in self._defaults:
                value = self._defaults[name]
            else:
                raise TypeError(f"{type(self).__name__}() is missing {name!r}")
            object.__setattr__(self, name, value)
        if named:
            raise TypeError(f"{type(self).__name__}() has no field {sorted(named)[0]!r}")

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __delattr__(self, name):
        raise AttributeError(f"{type(self).__name__} is read-only")

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self.__slots__)

    def _asdict(self) -> dict:
        return {name: getattr(self, name) for name in self.__slots__}

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self):
        return hash(self._values())

    def __reduce__(self):
        return (type(self), self._values())

    def __repr__(self):
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({fields})"
