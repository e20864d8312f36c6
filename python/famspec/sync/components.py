"""Components a family's factories construct that no plugin on the search path declares: their
class and ``__init__`` read from the source, to be declared by the generated plugin itself."""

from __future__ import annotations

import ast

from ..source.source_tree import SourceTree, UnreadableSource
from . import handed_over, values
from .model import Component, Factory, Site, Todo


def known(description: dict, own_plugin: str) -> set[tuple[str, str]]:
    """(module, class) of every component the other loaded plugins declare, by import and defining module."""
    out = set()
    for c in description.get("components", []):
        if c.get("plugin") == own_plugin:
            continue
        out.add((c["import_module"], c["name"]))
        out.add((c["defining_module"], c["name"]))
    return out


def _lazy_export(tree: SourceTree, package: str, name: str) -> str | None:
    """A package that re-exports lazily through a ``{"Class": "submodule"}`` table and ``__getattr__``."""
    module = tree.module(package)
    if module is None or module.lazy_getattr is None:
        return None
    for node in module.tree.body:
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if isinstance(value, ast.Dict):
            for key, item in zip(value.keys, value.values):
                if isinstance(key, ast.Constant) and key.value == name and isinstance(item, ast.Constant):
                    return f"{package}.{item.value}"
    return None


def read_component(tree: SourceTree, factory: Factory) -> Component | Todo:
    return read_class(tree, factory.import_module, factory.component, factory.site)


def read_class(tree: SourceTree, package: str, name: str, site: Site) -> Component | Todo:
    """The component ``name`` as ``package`` exports it: its defining module and ``__init__``."""
    subject = f"{package}.{name}"
    try:
        binding = tree.resolve(package, name) if tree.exists(package) else None
        if binding is not None and binding.kind == "computed":
            defining = _lazy_export(tree, package, name)
            binding = tree.resolve(defining, name) if defining and tree.exists(defining) else binding
    except UnreadableSource as error:
        return Todo(Site(error.rel, error.line or 1), subject, error.reason)
    if binding is None or binding.kind != "definition" or not isinstance(binding.node, ast.ClassDef):
        reason = binding.reason if binding is not None and binding.reason else f"no class {name} in the source tree"
        return Todo(site, subject, f"the component {name} cannot be read: {reason}")
    cls, module = binding.node, binding.module
    defining = module.name
    if defining.startswith(package + "."):
        pkg, sub = package, defining[len(package) + 1 :]
    else:
        pkg, _, sub = defining.rpartition(".")
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    site = Site(module.rel, cls.lineno)
    if init is None:
        return Todo(site, subject, f"class {name} has no __init__ of its own (inherited or generated)")
    if init.args.vararg is not None or init.args.kwarg is not None:
        return Todo(Site(module.rel, init.lineno), subject, f"{name}.__init__ takes *args or **kwargs")
    signature = [p for p, _ in values.parameters(init, module)][1:]
    return Component(name, pkg, sub, site, signature)


def rendered_source(tree: SourceTree, component: Component):
    """The class's blocks, each after what it needs: the order the artifact defines them in."""
    defining = f"{component.package}.{component.submodule}"
    blocks, todos = handed_over.class_blocks(tree, defining, component.name, component.site)
    return list(reversed(blocks)), todos
