"""The resolved, source-level declarations, as frozen and hashable dataclasses.

Field names, order and defaults are those of the runtime's own ``ImportPatch``,
``ModuleSnippetPatch``, ``ReplacementSpec`` and ``StrategySpec``, so
``dataclasses.asdict`` of a famspec spec is what the runtime's summary holds.
Sequences are tuples (a list passed in is stored as a tuple, so every spec is hashable).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional, Tuple

if TYPE_CHECKING:  # the dicts the extension returns, described in _native.pyi
    from . import _native

__all__ = ["ImportPatch", "ModuleSnippetPatch", "ReplacementSpec", "StrategySpec"]


class _Spec:
    """What a frozen dataclass would generate, written once: ``@dataclass(frozen=True)`` compiles
    these methods for every class when the module is imported, which costs the job's start-up more
    than loading every plugin. The fields are the dataclass's own, so ``fields``, ``asdict`` and
    ``replace`` work as on any dataclass, and assignment raises ``FrozenInstanceError``."""

    __slots__ = ()

    def _set(self, **values):
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self.__dataclass_fields__)

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self):
        return hash(self._values())

    def __repr__(self):
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__dataclass_fields__)
        return f"{self.__class__.__qualname__}({fields})"


# init, repr and eq come from the class and _Spec; dataclass adds the fields and the frozen guard.
_frozen = dataclass(frozen=True, init=False, repr=False, eq=False)


@_frozen
class ImportPatch(_Spec):
    """One import line: ``from <module> import <names>``, or ``raw`` verbatim."""

    module: str
    names: Tuple[str, ...]
    raw: Optional[str] = None

    def __init__(self, module: str, names: Tuple[str, ...], raw: Optional[str] = None):
        self._set(module=module, names=tuple(names), raw=raw)


@_frozen
class ModuleSnippetPatch(_Spec):
    """A top-level code block inserted after the imports."""

    text: str

    def __init__(self, text: str):
        self._set(text=text)


@_frozen
class ReplacementSpec(_Spec):
    """How one ``replace_module`` target rewrites a constructor call."""

    old_ctor: str
    new_ctor: str
    imports: Tuple[ImportPatch, ...]
    mode: str = "name"
    keyword_args: Tuple[str, ...] = ()
    snippets: Tuple[ModuleSnippetPatch, ...] = ()
    remove_class: bool = True
    replacement_note: Optional[str] = None

    def __init__(self, old_ctor: str, new_ctor: str, imports: Tuple[ImportPatch, ...], mode: str = "name",
                 keyword_args: Tuple[str, ...] = (), snippets: Tuple[ModuleSnippetPatch, ...] = (),
                 remove_class: bool = True, replacement_note: Optional[str] = None):
        self._set(old_ctor=old_ctor, new_ctor=new_ctor, imports=tuple(imports), mode=mode,
                  keyword_args=tuple(keyword_args), snippets=tuple(snippets), remove_class=remove_class,
                  replacement_note=replacement_note)


@_frozen
class StrategySpec(_Spec):
    """How one parallel-strategy target rewrites a class method, or (imports only) marks coverage."""

    kind: str
    imports: Tuple[ImportPatch, ...]
    target_class: Optional[str] = None
    method_name: str = "forward"
    body_template: Optional[str] = None
    snippets: Tuple[ModuleSnippetPatch, ...] = ()
    strip_boundary_subpatterns: Tuple[str, ...] = ()

    def __init__(self, kind: str, imports: Tuple[ImportPatch, ...], target_class: Optional[str] = None,
                 method_name: str = "forward", body_template: Optional[str] = None,
                 snippets: Tuple[ModuleSnippetPatch, ...] = (), strip_boundary_subpatterns: Tuple[str, ...] = ()):
        if (target_class is None) != (body_template is None):
            raise ValueError("StrategySpec: target_class and body_template must be provided together")
        if target_class is not None and (not target_class.strip() or not body_template.strip()):
            raise ValueError("StrategySpec: target_class and body_template must be nonempty")
        if not isinstance(method_name, str) or not method_name.isidentifier():
            raise ValueError(f"StrategySpec: method_name must be a Python identifier, got {method_name!r}")
        self._set(kind=kind, imports=tuple(imports), target_class=target_class, method_name=method_name,
                  body_template=body_template, snippets=tuple(snippets),
                  strip_boundary_subpatterns=tuple(strip_boundary_subpatterns))


def _imports(patches: Tuple[_native.ImportPatchFields, ...]) -> Tuple[ImportPatch, ...]:
    return tuple(ImportPatch(**patch) for patch in patches)


def _snippets(snippets: Tuple[_native.SnippetFields, ...]) -> Tuple[ModuleSnippetPatch, ...]:
    return tuple(ModuleSnippetPatch(**snippet) for snippet in snippets)


def replacement_from_native(fields: _native.ReplacementSpecFields) -> ReplacementSpec:
    return ReplacementSpec(**{**fields, "imports": _imports(fields["imports"]),
                              "snippets": _snippets(fields["snippets"])})


def strategy_from_native(fields: _native.StrategySpecFields) -> StrategySpec:
    return StrategySpec(**{**fields, "imports": _imports(fields["imports"]),
                           "snippets": _snippets(fields["snippets"])})
