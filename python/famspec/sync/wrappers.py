"""Context-parallel wrappers: the functions of a family's ``context_parallel`` modules (the adapter-path
convention the runtime resolves them by) and every function decorated ``@inner_wrapper``, with the
options a plan may set next to the ``_target_``: every parameter after the five positional ones the
runtime passes, required or with a default, each with its ``Literal[...]`` values."""

from __future__ import annotations

import ast

from ..audit.factories import _RUNTIME_PARAMETERS
from ..audit.wrapper_options import option_arguments
from ..audit.source_tree import SourceTree
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


def read_wrappers(tree: SourceTree, modules: list[str]) -> tuple[list[CpWrapper], list[Todo]]:
    wrappers, todos = [], []
    for dotted in modules:
        module = tree.module(dotted)
        for node in module.tree.body:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.name.startswith("_"):
                continue
            if not (decorated_with(node, module, INNER_WRAPPER) or _by_convention(dotted, node)):
                continue
            wrapper = CpWrapper(f"{dotted}.{node.name}", Site(module.rel, node.lineno))
            # The options are the audit's (option_arguments): required ones too (`ulysses_degree: int`).
            options = option_arguments(node)
            for param, arg in values.parameters(node, module, skip=_RUNTIME_PARAMETERS, tree=tree):
                if param.name not in options:
                    continue
                if param.value.kind not in ("literal", "required"):
                    todos.append(Todo(Site(module.rel, arg.lineno), wrapper.target,
                                      f"option {param.name} has no literal default"))
                    continue
                wrapper.options.append(param)
            wrappers.append(wrapper)
    return wrappers, todos
