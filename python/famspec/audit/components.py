"""Catalogue components: each class in its declared defining submodule, with the declared ``__init__``."""

from __future__ import annotations

import ast

from ..source import signatures as sig
from ..source.source_tree import SourceTree, UnreadableSource
from .findings import drift, ok, unreadable

_REMEDY = {
    "added": "declare the new parameter in the component's signature",
    "removed": "drop the parameter from the component's signature",
    "renamed": "rename the parameter in the component's signature",
    "kind": "move the parameter across kw_only in the component's signature",
    "default": "change the parameter's default in the component's signature",
    "order": "reorder the component's signature as the source writes it",
}


def _where_else(tree: SourceTree, package: str, name: str, skip: str) -> str | None:
    """Another submodule of the package that defines the class, for the remedy."""
    path, is_package = tree.module_path(package)
    if path is None or not is_package:
        return None
    folder = path.parent if path.name == "__init__.py" else path
    for candidate in sorted(folder.glob("*.py")):
        dotted = package if candidate.name == "__init__.py" else f"{package}.{candidate.stem}"
        if dotted == skip:
            continue
        try:
            module = tree.module(dotted)
        except UnreadableSource:
            continue
        if module is not None and isinstance(module.definitions.get(name), ast.ClassDef):
            return dotted
    return None


def check_component(tree: SourceTree, component: dict) -> list:
    name, defining = component["name"], component["defining_module"]
    subject = f"{defining}.{name}"
    ctx = {"plugin": component.get("plugin", ""), "where": component.get("where", "")}
    declared = sig.declared_parameters(component.get("parameters", []))
    declared_text = f"class {name}{sig.signature_text(declared)} in {defining}"
    try:
        module = tree.module(defining)
    except UnreadableSource as error:
        return [unreadable("component", subject, error.rel, error.line, declared_text, error.reason, **ctx)]
    if module is None:
        return [
            drift(
                "component",
                subject,
                tree.display(defining),
                None,
                declared_text,
                f"no module {defining}",
                _moved_remedy(tree, component),
                kind="component_missing",
                **ctx,
            )
        ]
    node = module.definitions.get(name)
    if node is None and (module.star_imports or module.lazy_getattr is not None):
        binding = tree.resolve(defining, name)
        return [unreadable("component", subject, module.rel, binding.node.lineno, declared_text, binding.reason, **ctx)]
    if not isinstance(node, ast.ClassDef):
        found = f"{module.rel} does not define class {name}"
        if node is not None:
            return [
                unreadable("component", subject, module.rel, node.lineno, declared_text, f"{name} is computed", **ctx)
            ]
        remedy = _moved_remedy(tree, component)
        return [drift("component", subject, module.rel, None, declared_text, found, remedy, kind="component_missing", **ctx)]
    return _check_init(module, node, component, declared, declared_text, subject, ctx)


def _moved_remedy(tree: SourceTree, component: dict) -> str:
    package, name = component["import_module"], component["name"]
    elsewhere = _where_else(tree, package, name, component["defining_module"])
    if elsewhere:
        return f"declare the submodule '{elsewhere.rsplit('.', 1)[-1]}' (the class is defined in {elsewhere})"
    return f"remove the component, or find where {name} moved"


def _check_init(module, cls: ast.ClassDef, component, declared, declared_text, subject, ctx) -> list:
    init = next(
        (n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == "__init__"),
        None,
    )
    if init is None:
        return [
            unreadable(
                "signature",
                subject,
                module.rel,
                cls.lineno,
                declared_text,
                f"class {cls.name} has no __init__ of its own (inherited or generated)",
                **ctx,
            )
        ]
    source = sig.source_parameters(init, skip_first=True)
    differences = sig.compare(declared, source, init.lineno)
    if not differences:
        return [ok("signature", subject, module.rel, init.lineno, declared_text, **ctx)]
    found_text = f"__init__{sig.signature_text(source)}"
    findings = []
    takes = component.get("takes_module", any(p.name == "module" for p in declared))
    for d in differences:
        remedy = _REMEDY[d.what]
        if d.what in ("added", "removed", "renamed") and "module" in (d.declared.split("=")[0], d.found.split("=")[0]):
            remedy += f" (the declaration says the component {'takes' if takes else 'does not take'} module)"
        findings.append(
            drift(
                "signature",
                subject,
                module.rel,
                d.line,
                d.declared,
                f"{d.found} in {found_text}",
                remedy,
                kind=f"parameter_{d.what}",
                **ctx,
            )
        )
    return findings
