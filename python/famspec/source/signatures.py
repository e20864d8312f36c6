"""Python signatures on both sides: the declared parameter list and a ``def`` read from source."""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass

POSITIONAL_ONLY = "positional_only"
POSITIONAL = "positional"
KEYWORD_ONLY = "keyword_only"
VAR_POSITIONAL = "var_positional"
VAR_KEYWORD = "var_keyword"

_KIND_TEXT = {
    POSITIONAL_ONLY: "positional-only",
    POSITIONAL: "positional",
    KEYWORD_ONLY: "keyword-only",
    VAR_POSITIONAL: "*args",
    VAR_KEYWORD: "**kwargs",
}


@dataclass(frozen=True)
class DefaultValue:
    """A default: required, a literal compared by value, or a non-literal expression compared as text."""

    kind: str  # required | literal | expression
    value: object = None  # the literal value, or the normalised expression source

    def text(self) -> str:
        if self.kind == "required":
            return "(required)"
        return repr(self.value) if self.kind == "literal" else str(self.value)

    def __eq__(self, other):
        if not isinstance(other, DefaultValue) or self.kind != other.kind:
            return False
        if self.kind == "literal":
            # By value and type: 0 is not False, 1 is not 1.0.
            return type(self.value) is type(other.value) and repr(self.value) == repr(other.value)
        return self.value == other.value

    def __hash__(self):
        return hash((self.kind, repr(self.value)))


# A float Python has no literal for (`1e400` reads as inf): spelled as the call that makes it, which a
# generated model file can evaluate where repr's bare `inf` would be an unknown name. The audit reads
# the same spellings back as the values, so a declaration sync wrote matches the source it read.
_NON_FINITE = {"float('inf')": math.inf, "float('-inf')": -math.inf, "float('nan')": math.nan}


def python_expression(value: object) -> str:
    """A Python expression for a literal value: its repr, or the float(...) call for inf and nan."""
    if isinstance(value, float) and not math.isfinite(value):
        return "float('nan')" if math.isnan(value) else f"float('{value!r}')"
    return repr(value)


def _expression(source: str) -> str:
    try:
        return ast.unparse(ast.parse(source, mode="eval").body)
    except SyntaxError:
        return source


def default_from_node(node: ast.expr | None) -> DefaultValue:
    if node is None:
        return DefaultValue("required")
    try:
        return DefaultValue("literal", ast.literal_eval(node))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return DefaultValue("expression", ast.unparse(node))


def default_from_declaration(parameter: dict) -> DefaultValue:
    if "default" in parameter:
        try:
            return DefaultValue("literal", ast.literal_eval(parameter["default"]))
        except (ValueError, SyntaxError):
            return DefaultValue("expression", _expression(parameter["default"]))
    if "default_expression" in parameter:
        expression = _expression(parameter["default_expression"])
        if expression in _NON_FINITE:
            return DefaultValue("literal", _NON_FINITE[expression])
        return DefaultValue("expression", expression)
    return DefaultValue("required")


@dataclass(frozen=True)
class Param:
    name: str
    kind: str
    default: DefaultValue
    line: int | None = None

    def text(self) -> str:
        prefix = {VAR_POSITIONAL: "*", VAR_KEYWORD: "**"}.get(self.kind, "")
        if self.default.kind == "required":
            return prefix + self.name
        return f"{self.name}={self.default.text()}"


def declared_parameters(parameters: list[dict]) -> list[Param]:
    return [Param(p["name"], p.get("kind", POSITIONAL), default_from_declaration(p)) for p in parameters]


def source_parameters(function: ast.FunctionDef | ast.AsyncFunctionDef, skip_first: bool) -> list[Param]:
    """The parameters of a ``def`` in order, with ``self`` dropped for methods."""
    args = function.args
    positional = [(a, POSITIONAL_ONLY) for a in args.posonlyargs] + [(a, POSITIONAL) for a in args.args]
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    out = [Param(a.arg, kind, default_from_node(d), a.lineno) for (a, kind), d in zip(positional, defaults)]
    if skip_first and out:
        out = out[1:]
    if args.vararg is not None:
        out.append(Param(args.vararg.arg, VAR_POSITIONAL, DefaultValue("required"), args.vararg.lineno))
    for a, d in zip(args.kwonlyargs, args.kw_defaults):
        out.append(Param(a.arg, KEYWORD_ONLY, default_from_node(d), a.lineno))
    if args.kwarg is not None:
        out.append(Param(args.kwarg.arg, VAR_KEYWORD, DefaultValue("required"), args.kwarg.lineno))
    return out


def signature_text(parameters: list[Param]) -> str:
    """The parameters as Python writes them, with the bare ``*`` where keyword-only ones begin."""
    parts, starred = [], False
    for p in parameters:
        if p.kind == VAR_POSITIONAL:
            starred = True
        elif p.kind == KEYWORD_ONLY and not starred:
            parts.append("*")
            starred = True
        parts.append(p.text())
    return "(" + ", ".join(parts) + ")"


@dataclass(frozen=True)
class Difference:
    """One way a source signature departs from the declared one."""

    what: str  # added | removed | renamed | kind | default | order
    declared: str
    found: str
    line: int | None


def compare(declared: list[Param], source: list[Param], def_line: int | None) -> list[Difference]:
    """Every difference, in signature order: renames first paired by position, then the rest."""
    declared_names = [p.name for p in declared]
    source_names = [p.name for p in source]
    removed = [p for p in declared if p.name not in source_names]
    added = [p for p in source if p.name not in declared_names]
    differences: list[Difference] = []
    for old in list(removed):
        index = declared_names.index(old.name)
        if index < len(source) and source[index] in added and source[index].kind == old.kind:
            new = source[index]
            differences.append(Difference("renamed", old.text(), new.text(), new.line))
            removed.remove(old)
            added.remove(new)
    differences += [Difference("removed", p.text(), "(absent)", def_line) for p in removed]
    differences += [Difference("added", "(absent)", p.text(), p.line) for p in added]
    by_name = {p.name: p for p in source}
    for old in declared:
        new = by_name.get(old.name)
        if new is None:
            continue
        if new.kind != old.kind:
            differences.append(
                Difference("kind", f"{old.name} {_KIND_TEXT[old.kind]}", f"{new.name} {_KIND_TEXT[new.kind]}", new.line)
            )
        if new.default != old.default:
            differences.append(Difference("default", old.text(), new.text(), new.line))
    common_declared = [n for n in declared_names if n in by_name]
    common_source = [n for n in source_names if n in declared_names]
    if common_declared != common_source and not differences:
        differences.append(Difference("order", ", ".join(common_declared), ", ".join(common_source), def_line))
    return sorted(differences, key=lambda d: (d.line or 0, d.what))
