"""The framework's part of the runtime's tree, read as a family is: the generic components of
``hyper_parallel.components.modules`` (every class the package exports, eagerly or through its lazy
table, and every ``@module_replacement`` class of its submodules), each with its ``__init__`` and, when
a family's factory renders it with a handed-over function, its own source; the MoE archetypes no
family's folder defines, with their generic compute factories; and the CP wrappers of
``hyper_parallel.distributed.context_parallel.wrappers``. The plugin that declares them is
``plugins/components``."""

from __future__ import annotations

import ast

from ..source.providers import family_folder
from ..source.runtime import is_replacement_decorator
from ..source.source_tree import SourceTree, UnreadableSource
from . import archetypes, components, factories, family, wrappers
from .errors import SyncError
from .model import Component, FrameworkSource, Site, Todo

FRAMEWORK = "components"
COMPONENTS_PACKAGE = "hyper_parallel.components.modules"
CONTEXT_PARALLEL_PACKAGE = "hyper_parallel.distributed.context_parallel"


def _module(tree: SourceTree, dotted: str):
    try:
        return tree.module(dotted)
    except UnreadableSource as error:
        raise SyncError(f"{error.rel}:{error.line or 1}: {error.reason} (the framework's components); fix the file "
                        "and run sync again") from None


def _lazy_table(module) -> list[tuple[str, int]]:
    """The names of a ``{"Class": "submodule"}`` table a package's ``__getattr__`` serves, in order."""
    if module.lazy_getattr is None:
        return []
    out = []
    for node in module.tree.body:
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if isinstance(value, ast.Dict):
            out += [(key.value, key.lineno) for key, item in zip(value.keys, value.values)
                    if isinstance(key, ast.Constant) and isinstance(key.value, str)
                    and isinstance(item, ast.Constant) and isinstance(item.value, str)]
    return out


def _is_class(tree: SourceTree, module: str, name: str) -> bool:
    """Whether the package imports a class (a component), not a function or a constant."""
    try:
        binding = tree.resolve(module, name)
    except UnreadableSource:
        return True  # read_class says why it cannot be read
    return binding.kind != "definition" or isinstance(binding.node, ast.ClassDef)


def exported(tree: SourceTree) -> list[tuple[str, Site]]:
    """The classes the components package names, in source order: its imports from its own submodules
    and its lazy table, then the decorated classes of submodules it does not name."""
    package = _module(tree, COMPONENTS_PACKAGE)
    if package is None:
        return []
    named = [(n, line) for n, line in _lazy_table(package)]
    named += [(name, node.lineno) for name, (source, original, node) in package.imports.items()
              if original is not None and source.startswith(COMPONENTS_PACKAGE + ".")
              and _is_class(tree, source, original)]
    out = {name: Site(package.rel, line) for name, line in sorted(named, key=lambda item: item[1])}
    for dotted in wrappers.adapter_modules(tree, COMPONENTS_PACKAGE):
        module = _module(tree, dotted)
        for node in module.tree.body:
            if isinstance(node, ast.ClassDef) and node.name not in out and any(
                is_replacement_decorator(d, module) for d in node.decorator_list
            ):
                out[node.name] = Site(module.rel, node.lineno)
    return list(out.items())


def rendered(tree: SourceTree) -> set[tuple[str, str]]:
    """(module, class) of every component a family's factory renders by handing it a function. A
    registration or provider sync cannot read is left to that family's own sync, which says why."""
    out = set()
    for registration in family.registrations(tree)[0]:
        if registration.unreadable is not None:
            continue
        for provider, _ in family.providers(tree, registration):
            try:
                module = tree.module(provider)
            except UnreadableSource:
                continue
            if module is None:
                continue
            for function, site in factories.factories_in(module):
                read = factories.read_factory(tree, provider, module, function, site)
                if not isinstance(read, Todo) and any(a.binding == "hand_over" for a in read.arguments):
                    out.add((read.import_module, read.component))
    return out


def _strategies(tree: SourceTree, out: FrameworkSource) -> None:
    """The archetypes and CP wrappers of the framework, which no family's folder defines: the plugin's
    top-level .archetypes and .cp_wrappers (ABI 5.1)."""
    try:
        every, unreadable = archetypes.table(tree)
    except UnreadableSource as error:
        raise SyncError(f"{error.rel}:{error.line or 1}: {error.reason} (the MoE archetype table)") from None
    for archetype in every:
        if archetypes.owner(tree, archetype) is None:
            todo = archetypes.options_of(tree, archetype)
            if todo is not None:
                out.todos.append(todo)
            out.archetypes.append(archetype)
    out.todos += [Todo(site, target, reason) for site, target, reason in unreadable
                  if family_folder(target) is None]
    modules = [m for m in wrappers.adapter_modules(tree, CONTEXT_PARALLEL_PACKAGE)
               if m.rsplit(".", 1)[-1].startswith("wrappers")]
    for dotted in modules:
        _module(tree, dotted)
    out.cp_wrappers, todos = wrappers.read_wrappers(tree, modules, every_wrapper=True)
    out.todos += todos


def read_framework(tree: SourceTree) -> FrameworkSource:
    out = FrameworkSource(FRAMEWORK)
    if not tree.exists(COMPONENTS_PACKAGE):
        raise SyncError(f"--source-root {tree.root}: no package {COMPONENTS_PACKAGE}, so there is no framework "
                        "part to generate; nothing was written")
    drawn = rendered(tree)
    for name, site in exported(tree):
        read = components.read_class(tree, COMPONENTS_PACKAGE, name, site)
        if isinstance(read, Todo):
            out.todos.append(read)
            continue
        defining = f"{read.package}.{read.submodule}"
        if (COMPONENTS_PACKAGE, name) in drawn or (defining, name) in drawn:
            read.source, todos = components.rendered_source(tree, read)
            out.todos += todos
        out.components.append(read)
    _strategies(tree, out)
    return out


def declared(plugin: str, components: list[Component]) -> list[dict]:
    """A plugin's components as ``Registry.describe()`` lists them: what a plugin generated later in the
    same run need not declare."""
    return [{"plugin": plugin, "name": c.name, "import_module": c.package,
             "defining_module": f"{c.package}.{c.submodule}"} for c in components]
