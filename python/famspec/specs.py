"""The resolved, source-level declarations, as frozen and hashable dataclasses.

Field names, order and defaults are those of the runtime's own ``ImportPatch``,
``ModuleSnippetPatch``, ``ReplacementSpec`` and ``StrategySpec``, so
``dataclasses.asdict`` of a famspec spec is what the runtime's summary holds.
Sequences are tuples (a list passed in is stored as a tuple, so every spec is hashable).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

__all__ = ["ImportPatch", "ModuleSnippetPatch", "ReplacementSpec", "StrategySpec"]


def _freeze(spec, *names):
    for name in names:
        value = getattr(spec, name)
        if not isinstance(value, tuple):
            object.__setattr__(spec, name, tuple(value))


@dataclass(frozen=True)
class ImportPatch:
    """One import line: ``from <module> import <names>``, or ``raw`` verbatim."""

    module: str
    names: Tuple[str, ...]
    raw: Optional[str] = None

    def __post_init__(self):
        _freeze(self, "names")


@dataclass(frozen=True)
class ModuleSnippetPatch:
    """A top-level code block inserted after the imports."""

    text: str


@dataclass(frozen=True)
class ReplacementSpec:
    """How one ``replace_module`` target rewrites a constructor call."""

    old_ctor: str
    new_ctor: str
    imports: Tuple[ImportPatch, ...]
    mode: str = "name"
    keyword_args: Tuple[str, ...] = ()
    snippets: Tuple[ModuleSnippetPatch, ...] = ()
    remove_class: bool = True
    replacement_note: Optional[str] = None

    def __post_init__(self):
        _freeze(self, "imports", "keyword_args", "snippets")


@dataclass(frozen=True)
class StrategySpec:
    """How one parallel-strategy target rewrites a class method, or (imports only) marks coverage."""

    kind: str
    imports: Tuple[ImportPatch, ...]
    target_class: Optional[str] = None
    method_name: str = "forward"
    body_template: Optional[str] = None
    snippets: Tuple[ModuleSnippetPatch, ...] = ()
    strip_boundary_subpatterns: Tuple[str, ...] = ()

    def __post_init__(self):
        _freeze(self, "imports", "snippets", "strip_boundary_subpatterns")
        if (self.target_class is None) != (self.body_template is None):
            raise ValueError("StrategySpec: target_class and body_template must be provided together")
        if self.target_class is not None and (not self.target_class.strip() or not self.body_template.strip()):
            raise ValueError("StrategySpec: target_class and body_template must be nonempty")
        if not isinstance(self.method_name, str) or not self.method_name.isidentifier():
            raise ValueError(f"StrategySpec: method_name must be a Python identifier, got {self.method_name!r}")


def _imports(rows):
    return tuple(ImportPatch(module, names, raw) for module, names, raw in rows)


def _snippets(texts):
    return tuple(ModuleSnippetPatch(text) for text in texts)


def replacement_from_native(row) -> ReplacementSpec:
    old_ctor, new_ctor, imports, mode, keyword_args, snippets, remove_class, note = row
    return ReplacementSpec(old_ctor, new_ctor, _imports(imports), mode, keyword_args, _snippets(snippets),
                           remove_class, note)


def strategy_from_native(row) -> StrategySpec:
    kind, imports, target_class, method_name, body_template, snippets, strip = row
    return StrategySpec(kind, _imports(imports), target_class, method_name, body_template, _snippets(snippets), strip)
