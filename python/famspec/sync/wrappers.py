"""Context-parallel wrappers: the functions of a family's ``context_parallel`` modules (the adapter-path
convention the runtime resolves them by) and every function decorated ``@inner_wrapper``, with the
options a plan may set next to the ``_target_``: every parameter after the five positional ones the
runtime passes, required or with a default, each with its ``Literal[...]`` values."""

from __future__ import annotations

import ast
from collections.abc import Mapping

from ..source.runtime import RUNTIME_PARAMETERS
from ..source.runtime import option_arguments
from ..source.source_tree import SourceTree
from . import values
from .decorators import decorated_with
from .model import CpWrapper, Site, Todo

INNER_WRAPPER = "inner_wrapper"


def _by_convention(dotted: str, function) -> bool:
    return "context_parallel" in dotted.rsplit(".", 1)[-1] and function.name.endswith("_wrapper")


def adapter_modules(tree: SourceTree, package: str) -> list[str]:
    """Every module under a family's adapter package, in path order; raises UnreadableSource for a file
    there the runtime could not import (SourceTree.module_files)."""
    return tree.module_files(package)


def aliases_in(module, defined: Mapping[str, object]) -> list[tuple[str, str, int]]:
    """Module-level aliases of what the module defines (``new_name = defined_name``): (alias, original,
    line), in source order. Configs may name either."""
    out = []
    for node in module.tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Name)
            and node.value.id in defined
            and not node.targets[0].id.startswith("_")
        ):
            out.append((node.targets[0].id, node.value.id, node.lineno))
    return out


def read_wrappers(tree: SourceTree, modules: list[str], every_wrapper: bool = False) -> tuple[list[CpWrapper],
                                                                                             list[Todo]]:
    """The wrappers of the modules, each followed by its module-level aliases. ``every_wrapper`` takes
    every public ``*_wrapper`` function whatever its module is named (the framework's wrappers)."""
    wrappers: list[CpWrapper] = []
    todos: list[Todo] = []
    for dotted in modules:
        module = tree.module(dotted)
        found: dict[str, CpWrapper] = {}
        for node in module.tree.body:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.name.startswith("_"):
                continue
            named = every_wrapper and node.name.endswith("_wrapper")
            if not (named or decorated_with(node, module, INNER_WRAPPER) or _by_convention(dotted, node)):
                continue
            wrapper = CpWrapper(f"{dotted}.{node.name}", Site(module.rel, node.lineno))
            # The options are option_arguments', the audit's rule too: required ones too (`ulysses_degree: int`).
            options = option_arguments(node)
            for param, arg in values.parameters(node, module, skip=RUNTIME_PARAMETERS, tree=tree):
                if param.name not in options:
                    continue
                if param.value.kind not in ("literal", "required"):
                    todos.append(Todo(Site(module.rel, arg.lineno), wrapper.target,
                                      f"option {param.name} has no literal default"))
                    continue
                wrapper.options.append(param)
            found[node.name] = wrapper
        wrappers += found.values()
        # An alias is the same function under a second name: the same options, its own file:line.
        for alias, original, line in aliases_in(module, found):
            wrappers.append(CpWrapper(f"{dotted}.{alias}", Site(module.rel, line), list(found[original].options)))
    return wrappers, todos
