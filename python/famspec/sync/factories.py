"""The ``@module_replacement`` factories of each provider module, and what each one builds, read
with the shared reader of returns (``famspec.source.construction``)."""

from __future__ import annotations

import ast

from ..source.construction import parameter_names, returns_of
from ..source.runtime import RUNTIME_PARAMETERS, is_helper, is_replacement_decorator
from ..source.source_tree import ParsedModule, SourceTree
from . import values
from .errors import SyncError
from .model import Argument, Factory, Site, Todo


def factories_in(module: ParsedModule) -> list[tuple[ast.FunctionDef, Site]]:
    """The decorated factories a provider module defines, in source order."""
    out = []
    for node in module.tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
            is_replacement_decorator(d, module) for d in node.decorator_list
        ):
            out.append((node, Site(module.rel, node.lineno)))
    return out


def _is_function(tree: SourceTree, module: ParsedModule, name: str) -> bool:
    if isinstance(module.definitions.get(name), (ast.FunctionDef, ast.AsyncFunctionDef)):
        return True
    imported = module.imports.get(name)
    if imported is None or imported[1] is None:
        return False
    binding = tree.resolve(imported[0], imported[1]) if tree.exists(imported[0]) else None
    return binding is not None and binding.kind == "definition" and isinstance(
        binding.node, (ast.FunctionDef, ast.AsyncFunctionDef)
    )


def _missing_import(tree: SourceTree, module: ParsedModule, name: str) -> str | None:
    """Why ``name``, imported from a module under the root, is not there (that module does not define
    it, or does not exist); None when it is, or comes from outside the root."""
    imported = module.imports.get(name)
    if imported is None or imported[1] is None or not tree.exists(imported[0]):
        return None
    binding = tree.resolve(imported[0], imported[1])
    return binding.reason if binding.kind == "missing" else None


def read_factory(tree: SourceTree, provider: str, module: ParsedModule, function, site: Site) -> Factory | Todo:
    """What one factory declares, or a Todo saying why its construction cannot be read."""
    name = function.name
    factory = Factory(name, provider, site)

    def todo(line: int, reason: str) -> Todo:
        return Todo(Site(module.rel, line), f"{provider}.{name}", reason)

    for param, arg in values.parameters(function, module, skip=RUNTIME_PARAMETERS, tree=tree):
        if param.value.kind != "literal":
            return todo(arg.lineno, f"option {param.name} has no literal default")
        factory.options.append(param)
    built = returns_of(function, module)
    helpers = [b for b in built if b.kind == "call" and is_helper(tree, b)]
    if helpers:
        return todo(helpers[0].node.lineno, f"returns the result of the function {helpers[0].component}(...), "
                                            "not a component")
    if not built:
        return todo(function.lineno, f"{name} has no return that builds something")
    unreadable = [b for b in built if b.kind == "unreadable"]
    if unreadable:
        return todo(unreadable[0].node.lineno, unreadable[0].reason)
    if len({ast.dump(b.node) for b in built}) > 1:
        return todo(built[1].node.lineno, "returns different constructions on different paths")
    first = built[0]
    if first.kind == "conversion":
        factory.mode = "runtime_only"
        factory.runtime_only_reason = f"builds through {first.component} at runtime"
        return factory
    return _construction(tree, module, function, factory, first, todo)


def _construction(tree, module, function, factory: Factory, built, todo) -> Factory | Todo:
    call: ast.Call = built.node
    if built.module is None:
        return todo(call.lineno, f"{built.component} is not imported from a module")
    params = parameter_names(function)
    factory.component, factory.import_module = built.component, built.module
    keyword = next((k for k in call.keywords if k.arg == "module"), None)
    first = call.args[0] if call.args else None
    if keyword is not None:
        factory.mode = "wraps"
        if not (isinstance(keyword.value, ast.Name) and keyword.value.id == "module"):
            return todo(call.lineno, f"passes module={ast.unparse(keyword.value)}, not the factory's module")
        extra = call.args
    elif isinstance(first, ast.Name) and first.id == "module" and "module" in params:
        factory.mode = "wraps_positionally"
        extra = call.args[1:]
    else:
        factory.mode = "replaces"
        extra = call.args
    if extra:
        return todo(call.lineno, f"passes {len(extra)} positional argument(s) to {built.component}")
    for k in call.keywords:
        if k.arg is None:
            return todo(call.lineno, f"passes **{ast.unparse(k.value)} to {built.component}")
        if k.arg == "module":
            continue
        value = k.value
        if isinstance(value, ast.Name) and value.id in params:
            factory.arguments.append(Argument(k.arg, "bind", value.id))
        elif isinstance(value, ast.Name) and _is_function(tree, module, value.id):
            factory.arguments.append(Argument(k.arg, "hand_over", value.id))
        elif isinstance(value, ast.Name) and (missing := _missing_import(tree, module, value.id)) is not None:
            # Written as a bare name it would read as a value; the runtime's import of the provider fails.
            raise SyncError(f"{module.rel}:{value.lineno}: {function.name} hands over {value.id} as {k.arg}=, "
                            f"but {missing}: the runtime cannot import the provider module; nothing was written")
        else:
            factory.arguments.append(Argument(k.arg, "pass", ast.unparse(value)))
    return factory
