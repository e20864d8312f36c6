"""Functions named by a dotted path: archetype compute factories, CP wrappers, compute functions."""

from __future__ import annotations

import ast
import difflib

from ..source.source_tree import SourceTree, UnreadableSource
from . import wrapper_options
from .findings import drift, ok, unreadable


def check_function(tree: SourceTree, check: str, dotted: str, ctx: dict, wrapper: dict | None = None) -> list:
    """One function by its dotted path; for a CP wrapper (``wrapper``, its description) also its options."""
    declared = f"def {dotted.rsplit('.', 1)[-1]} in {dotted.rsplit('.', 1)[0]}"
    module_name, rest = tree.split_dotted(dotted)
    if module_name is None or len(rest) != 1:
        if module_name is not None and tree.exists(dotted):
            found = f"{dotted} is a module, not a function"
        else:
            found = f"no module {dotted.rsplit('.', 1)[0]}"
        return [
            drift(
                check,
                dotted,
                tree.display(dotted.rsplit(".", 1)[0]),
                None,
                declared,
                found,
                "declare the path this runtime version uses, or remove the declaration",
                kind=f"{check}_missing",
                **ctx,
            )
        ]
    name = rest[0]
    try:
        binding = tree.resolve(module_name, name)
    except UnreadableSource as error:
        return [unreadable(check, dotted, error.rel, error.line, declared, error.reason, **ctx)]
    module = tree.module(module_name)
    if binding.kind == "missing":
        functions = sorted(n for n, d in module.definitions.items() if isinstance(d, ast.FunctionDef))
        close = difflib.get_close_matches(name, functions, n=1, cutoff=0.6)
        found = f"{module.rel} defines no {name}" + (f"; the closest function is {close[0]}" if close else "")
        line = module.definitions[close[0]].lineno if close else None
        remedy = f"if it was renamed, declare {module_name}.{close[0]}" if close else "remove the declaration"
        return [drift(check, dotted, module.rel, line, declared, found, remedy, kind=f"{check}_missing", **ctx)]
    if binding.kind in ("computed", "external"):
        reason = binding.reason or f"{name} is defined outside the source root ({binding.external})"
        return [unreadable(check, dotted, binding.module.rel, binding.node.lineno, declared, reason, **ctx)]
    node = binding.node
    followed = _alias_target(binding.module, node)
    if followed is not None:
        node = followed
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        what = "a class" if isinstance(node, ast.ClassDef) else f"bound by `{ast.unparse(node).splitlines()[0]}`"
        return [unreadable(check, dotted, binding.module.rel, node.lineno, declared, f"{name} is {what}", **ctx)]
    if wrapper is not None:
        drifted = wrapper_options.check_options(node, wrapper, binding.module, tree, ctx)
        if drifted:
            return drifted
    return [ok(check, dotted, binding.module.rel, node.lineno, declared, **ctx)]


def _alias_target(module, node: ast.AST, hops: int = 8) -> ast.AST | None:
    """What a module-level alias (``second_name = a_function``) stands for, in the same module; None
    when the node is no such alias. Upstream ends CP modules with one, and configs name either."""
    seen = 0
    while (
        isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Name)
        and node.value.id in module.definitions
        and seen < hops
    ):
        node, seen = module.definitions[node.value.id], seen + 1
    return node if seen else None
