"""The values of a ``Literal[...]`` annotation, as sync declares them and the audit compares them: written
in place (``typing.Literal`` too), or through an alias of one, in the function's module or imported from
another module under the source root (``from ...mla_context_parallel import MLACPStrategy``)."""

from __future__ import annotations

import ast


def _alias(name: str, module, tree):
    """The module-level assignment a name stands for, or None."""
    if module is None:
        return None
    if name in module.definitions:
        return module.definitions[name]
    if tree is None or name not in module.imports:
        return None
    binding = tree.resolve(module.name, name)
    return binding.node if binding.kind == "definition" else None


def literal_choices(annotation: ast.expr | None, module=None, tree=None) -> tuple:
    """The listed values, or () when the annotation is no Literal (or lists a value that is no literal)."""
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
    try:
        return tuple(ast.literal_eval(item) for item in items)
    except (ValueError, TypeError, SyntaxError):
        return ()
