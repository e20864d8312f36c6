"""Python parameters and values as the SDK declares them: literal defaults, expressions, Literal[...]."""

from __future__ import annotations

import ast

from ..source import signatures as sig
from ..source.literals import literal_choices
from .model import Param, Value


def value_of(node: ast.expr | None) -> Value:
    if node is None:
        return Value("required")
    default = sig.default_from_node(node)
    if default.kind == "literal" and (default.value is None or isinstance(default.value, (bool, int, float, str))):
        return Value("literal", default.value)
    return Value("expression", ast.unparse(node))


def parameters(function, module, skip: tuple[str, ...] = (), tree=None) -> list[tuple[Param, ast.arg]]:
    """Every named parameter with its default and Literal values; ``*args``/``**kwargs`` left out. With
    the tree, a Literal alias imported from another module under the root is followed."""
    args = function.args
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    out = []
    for arg, default in zip(positional, defaults):
        out.append((Param(arg.arg, value_of(default), False, literal_choices(arg.annotation, module, tree)), arg))
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        out.append((Param(arg.arg, value_of(default), True, literal_choices(arg.annotation, module, tree)), arg))
    return [(p, a) for p, a in out if p.name not in skip]
