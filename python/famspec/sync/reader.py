"""One family read from the runtime's source tree: everything the generated plugin declares."""

from __future__ import annotations

from pathlib import Path

from ..audit.audit import AuditError, check_root
from ..source.registry_tables import DIRECTORY_ALIASES
from ..source.source_tree import SourceTree, UnreadableSource
from . import archetypes, components, factories, family, handed_over, names, wrappers
from .errors import SyncError
from .model import Factory, FamilySource, Identity, Todo

# The spec keyword of a family's context-parallel provider.
CONTEXT_PARALLEL = "context_parallel"


def _module(tree: SourceTree, dotted: str, why: str):
    """A module the family needs; a file that does not parse is bad input."""
    try:
        return tree.module(dotted)
    except UnreadableSource as error:
        raise SyncError(f"{error.rel}:{error.line or 1}: {error.reason} ({why}); fix the file and run sync again") from None


def _check_import_cycle(tree: SourceTree, providers: list[str]) -> None:
    """Provider modules that import each other at module level cannot be loaded by the runtime."""
    edges = {}
    for dotted in providers:
        module = _module(tree, dotted, "a provider module")
        imported = {source for source, _, _ in module.imports.values()}
        imported |= {f"{source}.{name}" for source, name, _ in module.imports.values() if name}
        edges[dotted] = imported & set(providers)
    for start in providers:
        path, seen = [start], {start}
        stack = [(start, iter(sorted(edges.get(start, ()))))]
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                path.pop()
                continue
            if child == start:
                cycle = " -> ".join(path + [start])
                raise SyncError(f"provider modules import each other in a cycle: {cycle}; the runtime cannot "
                                "import them, so sync cannot read them as one family")
            if child not in seen:
                seen.add(child)
                path.append(child)
                stack.append((child, iter(sorted(edges.get(child, ())))))


def checked_root(source_root: Path) -> Path:
    """The source root, resolved, when it holds a runtime's hyper_parallel/."""
    try:
        return check_root(source_root)
    except AuditError as error:
        raise SyncError(str(error)) from None


def read_family(source_root: Path, name: str, declarations: dict) -> FamilySource:
    """The family named by any spelling, read from the tree; ``declarations`` is the loaded plugins'
    description (``Registry.describe()``): the components declared there are not declared again."""
    tree = SourceTree(checked_root(Path(source_root)))
    registration = family.find(tree, name)
    owner = family.owner(tree, registration)
    if owner is not registration and owner.model_type != registration.model_type:
        raise SyncError(f"{registration.model_type} is registered at {registration.site}, beside {owner.model_type}: "
                        f"one plugin declares every family of that file; run famspec sync --family {owner.model_type}")
    for r in family.in_folder(tree, registration.directory):
        family.check_readable(r)
    for r in family.in_folder(tree, registration.directory):
        names.check_family(r.model_type, r.architecture, r.site)
    out = FamilySource(registration.model_type, registration.architecture, registration.site, registration.directory)
    _identity(tree, out, out)
    for sibling in family.in_folder(tree, registration.directory):
        if sibling.model_type != out.model_type:
            companion = Identity(sibling.model_type, sibling.architecture, sibling.site)
            _identity(tree, companion, out)
            out.companions.append(companion)
    out.borrowed = [(keyword, registration.providers[keyword][0], registration.providers[keyword][1], folder)
                    for keyword, folder in registration.borrowed.items()]
    out.borrowed_cp_wrappers = _borrowed_cp_wrappers(tree, registration)
    out.providers = family.providers(tree, registration)
    provider_names = [p for p, _ in out.providers]
    _check_import_cycle(tree, provider_names)
    _read_factories(tree, out)
    owns = family.owns_directory(registration)
    adapter = family.adapter_package(registration)
    try:
        modules = wrappers.adapter_modules(tree, adapter) if owns else []
    except UnreadableSource as error:
        raise SyncError(f"{error.rel}:{error.line or 1}: {error.reason} (a module of the family's adapter); fix "
                        "it, or move it out of the adapter, and run sync again; nothing was written") from None
    for dotted in modules:
        _module(tree, dotted, "a module of the family's adapter")
    if owns:
        out.cp_wrappers, todos = wrappers.read_wrappers(tree, modules)
        out.todos += todos
    try:
        out.archetypes, todos = archetypes.family_archetypes(tree, registration.directory, owns)
    except UnreadableSource as error:
        raise SyncError(f"{error.rel}:{error.line or 1}: {error.reason} (the MoE archetype table)") from None
    out.todos += todos
    if owns:
        out.compute_functions = archetypes.compute_functions(tree, modules, {a.compute_factory for a in out.archetypes})
    _read_components(tree, out, components.known(declarations, out.model_type))
    return out


def _borrowed_cp_wrappers(tree: SourceTree, registration) -> list:
    """The wrappers of a context-parallel provider borrowed from another family's folder, as that
    family's plugin declares them (its own TODOs are its sync's to say): (target, site)."""
    if CONTEXT_PARALLEL not in registration.borrowed:
        return []
    module = registration.providers[CONTEXT_PARALLEL][0]
    if _module(tree, module, "a borrowed context-parallel provider") is None:
        return []
    found, _ = wrappers.read_wrappers(tree, [module])
    return [(w.target, w.site) for w in found]


def _identity(tree: SourceTree, identity: Identity, out: FamilySource) -> None:
    """A family's spellings from the registry's alias tables; a spelling of a family the file does not
    register is left to that family's plugin."""
    identity.aliases = family.spellings(tree, identity.model_type, family.FAMILY_ALIASES)
    identity.directory_aliases = family.spellings(tree, identity.model_type, DIRECTORY_ALIASES)
    for spelling, site in identity.aliases + identity.directory_aliases:
        names.check_spelling(spelling, site)


def _layouts_apart(tree: SourceTree, out: FamilySource) -> None:
    """Where the provider layouts define different factories, a factory must answer under each module that
    defines it and only there. A family's factories answer under every provider it declares, or, when it
    declares none, each under its own module alone; so layouts that differ are declared without providers,
    each factory by its full path in every layout that defines it."""
    defined = {p: tuple(sorted(f.name for f, _ in factories.factories_in(_module(tree, p, "a provider module"))))
               for p, _ in out.providers}
    if len(set(defined.values())) > 1:
        out.providers = []


def _read_factories(tree: SourceTree, out: FamilySource) -> None:
    seen: dict[str, Factory] = {}
    layouts = [p for p, _ in out.providers]
    _layouts_apart(tree, out)
    for provider in layouts:
        module = _module(tree, provider, "a provider module")
        for function, site in factories.factories_in(module):
            read = factories.read_factory(tree, provider, module, function, site)
            if isinstance(read, Todo):
                out.todos.append(read)
                continue
            # Without providers (layouts that differ) each layout's factory is a declaration of its own.
            key = function.name if out.providers else f"{provider}.{function.name}"
            if key in seen:
                # The same factory in another layout: declared once, resolved under each provider.
                first = seen[key]
                if (first.mode, first.component, first.import_module, first.arguments, first.options) != (
                    read.mode, read.component, read.import_module, read.arguments, read.options
                ):
                    out.todos.append(Todo(site, f"{provider}.{function.name}",
                                          f"builds differently from the same factory at {first.site}, which is the one "
                                          "declared"))
                continue
            seen[key] = read
            out.factories.append(read)
            for argument in read.arguments:
                if argument.binding == "hand_over" and not any(argument.value in b.defines for b in out.interface):
                    blocks, todos = handed_over.blocks_for(tree, module, argument.value, site)
                    out.interface += [b for b in blocks if b.defines not in [x.defines for x in out.interface]]
                    out.todos += todos


def _read_components(tree: SourceTree, out: FamilySource, known: set) -> None:
    declared = set()
    for factory in out.factories:
        key = (factory.import_module, factory.component)
        if factory.mode == "runtime_only" or key in known or key in declared:
            continue
        declared.add(key)
        read = components.read_component(tree, factory)
        if isinstance(read, Todo):
            out.todos.append(read)
        else:
            out.components.append(read)
            if any(a.binding == "hand_over" for a in factory.arguments):
                # Rendered into the artifact with the handed-over function: its own source too.
                read.source, todos = components.rendered_source(tree, read)
                out.todos += todos
