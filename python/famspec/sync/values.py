"""Python parameters and values as the SDK declares them: literal defaults, expressions, Literal[...]."""

from __future__ import annotations

import ast

from ..audit import signatures as sig
from .model import Param, Value


def value_of(node: ast.expr | None) -> Value:
    if node is None:
        return Value("required")
    default = sig.default_from_node(node)
    if default.kind == "literal" and (default.value is None or isinstance(default.value, (bool, int, float, str))):
        return Value("literal", default.value)
    return Value("expression", ast.unparse(node))


def _alias(name: str, module, tree):
    """The module-level assignment a name stands for: in its module, or, given the tree, in the module
    under the root it is imported from (``from ...mla_context_parallel import MLACPStrategy``)."""
    if module is None:
        return None
    if name in module.definitions:
        return module.definitions[name]
    if tree is None or name not in module.imports:
        return None
    binding = tree.resolve(module.name, name)
    return binding.node if binding.kind == "definition" else None


def literal_choices(annotation: ast.expr | None, module, tree=None) -> tuple:
    """The values of ``Literal[...]`` (``typing.Literal`` too), or of a module-level alias of one."""
    if isinstance(annotation, ast.Name):
        alias = _alias(annotation.id, module, tree)
        if isinstance(alias, (ast.Assign, ast.AnnAssign)) and alias.value is not None:
            annotation = alias.value
    if not isinstance(annotation, ast.Subscript):
        return ()
    head = annotation.value
    name = head.attr if isinstance(head, ast.Attribute) else getattr(head, "id", "")
    if name != "Literal":
        return ()
    items = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
    if not all(isinstance(i, ast.Constant) for i in items):
        return ()
    return tuple(i.value for i in items)


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
