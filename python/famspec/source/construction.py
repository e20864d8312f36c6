"""What a factory's ``return`` builds, read from its source: a component call, or an in-place conversion."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from .source_tree import ParsedModule, imports_of


@dataclass
class Built:
    """One construction a factory returns."""

    kind: str  # "call" (Cls(...)) | "conversion" (Cls.from_module(...)) | "unreadable"
    node: ast.AST
    component: str = ""  # the class name as imported
    module: str | None = None  # where the factory imports it from
    reason: str = ""


def _own_nodes(function: ast.AST):
    """Nodes of a function body, without descending into nested functions, classes or lambdas."""
    stack = list(reversed(function.body))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def parameter_names(function) -> set[str]:
    args = function.args
    every = args.posonlyargs + args.args + args.kwonlyargs + [a for a in (args.vararg, args.kwarg) if a]
    return {a.arg for a in every}


def returns_of(function, module: ParsedModule) -> list[Built]:
    """Each construction the function returns, in source order. ``return module`` (a guard) is skipped."""
    nodes = list(_own_nodes(function))
    local_imports: dict = {}
    imports_of([n for n in nodes if isinstance(n, (ast.Import, ast.ImportFrom))], module, local_imports)
    assigned: dict[str, list[ast.expr]] = {}
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            assigned.setdefault(node.targets[0].id, []).append(node.value)
    params = parameter_names(function)
    built = []
    for node in nodes:
        if not isinstance(node, ast.Return) or node.value is None:
            continue
        value = node.value
        if isinstance(value, ast.Name) and value.id in params:
            continue
        if isinstance(value, ast.Name) and len(assigned.get(value.id, [])) == 1:
            value = assigned[value.id][0]
        built.append(_classify(value, local_imports, module))
    return built


def _classify(value: ast.expr, local_imports: dict, module: ParsedModule) -> Built:
    if not isinstance(value, ast.Call):
        return Built("unreadable", value, reason=f"returns `{_short(value)}`, not a call the audit can read")
    callee = value.func
    if isinstance(callee, ast.Attribute) and isinstance(callee.value, ast.Name):
        owner = callee.value.id
        origin = local_imports.get(owner) or module.imports.get(owner)
        return Built(
            "conversion",
            value,
            component=f"{owner}.{callee.attr}",
            module=origin[0] if origin else None,
            reason=f"converts through {owner}.{callee.attr}(...)",
        )
    if not isinstance(callee, ast.Name):
        return Built("unreadable", value, reason=f"calls `{_short(callee)}`, a computed callee")
    name = callee.id
    origin = local_imports.get(name) or module.imports.get(name)
    if origin is not None:
        source, original, _ = origin
        return Built("call", value, component=original or name, module=source)
    if name in module.definitions:
        return Built("call", value, component=name, module=module.name)
    if module.star_imports:
        return Built("unreadable", value, component=name, reason=f"{name} may come from a star import")
    return Built("unreadable", value, component=name, reason=f"{name} is neither imported nor defined")


def _short(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."
