"""Whether a ``def`` carries one of the runtime's marking decorators (``@inner_wrapper``,
``@local_compute``), however it is spelled: bare, called, through a module attribute or an alias."""

from __future__ import annotations

import ast


def decorated_with(function: ast.FunctionDef | ast.AsyncFunctionDef, module, name: str) -> bool:
    for decorator in function.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Attribute) and target.attr == name:
            return True
        if isinstance(target, ast.Name):
            imported = module.imports.get(target.id)
            if target.id == name or (imported is not None and imported[1] == name):
                return True
    return False
