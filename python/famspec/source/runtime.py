"""What the runtime passes and how it marks what it calls, as sync and the audit both read it: the
arguments every factory and wrapper receives from the runtime (never options a plan sets), the
``@module_replacement`` decorator, a call to a helper function rather than a component class, and the
parameters of a CP wrapper a plan may set next to its ``_target_``."""

from __future__ import annotations

import ast

from . import signatures as sig
from .construction import Built
from .source_tree import ParsedModule, SourceTree, UnreadableSource

# Passed by the runtime to every factory and component, never by a plan: not options.
RUNTIME_PARAMETERS = ("module", "module_fqn", "context")
# The runtime calls a wrapper with target_module, mesh, tp_mesh, cp_mesh and ep_mesh, positionally.
RUNTIME_POSITIONAL = 5


def is_replacement_decorator(decorator: ast.expr, module: ParsedModule) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    if isinstance(target, ast.Attribute):
        return target.attr == "module_replacement"
    if isinstance(target, ast.Name):
        imported = module.imports.get(target.id)
        return (imported is not None and imported[1] == "module_replacement") or target.id == "module_replacement"
    return False


def is_helper(tree: SourceTree, b: Built) -> bool:
    """A call to a plain function of the runtime (a helper), not a component class."""
    try:
        binding = tree.resolve(b.module, b.component) if b.module else None
    except UnreadableSource:
        return False
    return (
        binding is not None
        and binding.kind == "definition"
        and isinstance(binding.node, (ast.FunctionDef, ast.AsyncFunctionDef))
    )


def option_arguments(function: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, tuple[ast.arg, ast.expr, str]]:
    """name -> (arg, default, kind) of each parameter a plan may set next to the ``_target_``."""
    args = function.args
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    found = [(a, d, sig.POSITIONAL) for i, (a, d) in enumerate(zip(positional, defaults))
             if d is not None or i >= RUNTIME_POSITIONAL]
    found += [(a, d, sig.KEYWORD_ONLY) for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    return {a.arg: (a, d, kind) for a, d, kind in found}
