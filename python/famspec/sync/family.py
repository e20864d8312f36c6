"""A family's identity as the runtime registers it: the ``ModelAdapterSpec`` in its
``adapter/registration.py``, its aliases and directory aliases in ``hyper_parallel/models/registry.py``,
and the provider modules its spec hands over, in any form ``famspec.source.providers`` reads."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from ..source import providers as provider_forms
from ..source.family_keys import family_names, find_family, normalize_family_key
from ..source.registry_tables import DIRECTORY_ALIASES, REGISTRY_MODULE
from ..source.source_tree import SourceTree, UnreadableSource
from .errors import SyncError, SyncUnreadable
from .model import Site

FAMILY_ALIASES = "_FAMILY_ALIASES"
# The provider layouts the runtime has used side by side, relative to a family's adapter package.
REPLACEMENT_LAYOUTS = ("replacements", "conversion.module_replacement")


@dataclass
class Registration:
    model_type: str
    architecture: str
    site: Site
    directory: str  # the folder under hyper_parallel/models holding the registration
    providers: dict[str, tuple[str, Site]] = field(default_factory=dict)  # spec keyword -> (module, site)
    borrowed: dict[str, str] = field(default_factory=dict)  # spec keyword -> the family folder it is borrowed from
    unreadable: provider_forms.ProviderUnreadable | None = None
    # Made or registered under a statement whose outcome is decided when the runtime runs: (site, why).
    undecided: tuple[Site, str] | None = None


def _string(call: ast.Call, name: str) -> str | None:
    for keyword in call.keywords:
        if keyword.arg == name and isinstance(keyword.value, ast.Constant) and isinstance(keyword.value.value, str):
            return keyword.value.value
    return None


def _is_spec(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    callee = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
    return callee == "ModelAdapterSpec"


REGISTER = "register_model_adapter"
# What a compound statement is called in a message: the keyword that opens it.
_OPENED_BY = {ast.If: "if", ast.Try: "try", ast.For: "for", ast.AsyncFor: "async for", ast.While: "while",
              ast.With: "with", ast.AsyncWith: "async with", ast.FunctionDef: "def", ast.AsyncFunctionDef: "async def",
              ast.ClassDef: "class"}
if hasattr(ast, "Match"):
    _OPENED_BY[ast.Match] = "match"
if hasattr(ast, "TryStar"):
    _OPENED_BY[ast.TryStar] = "try"


def _undecided(statement: ast.stmt) -> str | None:
    """Why a registration inside this top-level statement cannot be read as made: the statement is a
    branch, a loop, a handler or a body that runs later (or never)."""
    opened_by = _OPENED_BY.get(type(statement))
    if opened_by is None:
        return None
    return (f"it is made inside the `{opened_by}` statement at line {statement.lineno}, so whether (and which) "
            "registration the runtime makes is decided when it runs; sync reads only a registration made "
            "unconditionally at module level")


def _conditionally_registered(statement: ast.stmt) -> set[str]:
    """The names a compound statement passes to register_model_adapter: specs made at module level and
    registered only on one path."""
    if _OPENED_BY.get(type(statement)) is None:
        return set()
    out = set()
    for node in ast.walk(statement):
        if isinstance(node, ast.Call):
            callee = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if callee == REGISTER:
                out |= {a.id for a in node.args if isinstance(a, ast.Name)}
    return out


def registrations(tree: SourceTree) -> tuple[list[Registration], list[UnreadableSource]]:
    found = []
    paths, broken = tree.registration_files()
    for path in paths:
        dotted = ".".join(path.relative_to(tree.root).with_suffix("").parts)
        try:
            module = tree.module(dotted)
        except UnreadableSource as error:
            broken.append(error)
            continue
        if module is None:  # a folder name Python cannot import (a hyphen), or a directory for the file
            broken.append(UnreadableSource(tree.rel(path), None, "is not an importable Python module (is each folder "
                                           "name an identifier, and the file a file?)"))
            continue
        conditional = set().union(*(_conditionally_registered(s) for s in module.tree.body))
        specs = [(node, statement) for statement in module.tree.body for node in ast.walk(statement) if _is_spec(node)]
        for node, statement in specs:
            model_type, architecture = _string(node, "model_type"), _string(node, "architecture")
            if model_type is None or architecture is None:
                continue
            registration = Registration(model_type, architecture, Site(module.rel, node.lineno), path.parts[-3])
            why = _undecided(statement)
            bound = [t.id for t in getattr(statement, "targets", []) if isinstance(t, ast.Name)]
            if why is None and conditional & set(bound):
                why = (f"{bound[0]} is passed to {REGISTER} only inside a branch, loop or body that runs later, so "
                       "whether the runtime registers it is decided when it runs")
            if why is not None:
                registration.undecided = (registration.site, why)
            try:
                for provider in provider_forms.read(tree, module, node):
                    registration.providers[provider.keyword] = (provider.module, Site(provider.file, provider.line))
                    if provider.borrowed_from:
                        registration.borrowed[provider.keyword] = provider.borrowed_from
            except provider_forms.ProviderUnreadable as error:
                registration.unreadable = error
            found.append(registration)
    return found, broken


def in_folder(tree: SourceTree, directory: str) -> list[Registration]:
    """Every registration one ``registration.py`` declares, in source order."""
    return [r for r in registrations(tree)[0] if r.directory == directory]


def owner(tree: SourceTree, registration: Registration) -> Registration:
    """The family a registration file's plugin is named after: the one its folder is named for, else
    the first it registers. The others of the file are declared in the same plugin."""
    siblings = in_folder(tree, registration.directory)
    return next((r for r in siblings if owns_directory(r)), siblings[0])


def check_readable(registration: Registration) -> None:
    if registration.undecided is not None:
        site, why = registration.undecided
        raise SyncUnreadable(f"{site}: the registration of {registration.model_type} cannot be read: {why}; nothing "
                             "was written")
    error = registration.unreadable
    if error is not None:
        raise SyncUnreadable(f"{error.file}:{error.line}: the {error.keyword} provider of {registration.model_type} "
                             f"cannot be read: {error.reason}; {error.remedy}; nothing was written")


def find(tree: SourceTree, name: str) -> Registration:
    """The registration named by any spelling: model_type, architecture, an alias or a directory alias."""
    found, broken = registrations(tree)
    if not found and not broken:
        raise SyncError(f"--source-root {tree.root}: no family registration under hyper_parallel/models/*/adapter/")
    # Each registration with the spellings the registry tables give it, looked up by the core's rule.
    tables = [_table(tree, FAMILY_ALIASES), _table(tree, DIRECTORY_ALIASES)]

    def given(r: Registration, table: list[tuple[str, str, Site]]) -> list[str]:
        return [k for k, v, _ in table if normalize_family_key(v) == normalize_family_key(r.model_type)]

    named = [family_names(r.model_type, r.architecture, *(given(r, t) for t in tables)) for r in found]
    at = find_family(named, name)
    if at is not None:
        return found[at]
    message = f"--family {name}: no registration in {tree.root} declares it"
    known = ", ".join(sorted(r.model_type for r in found))
    message += f" (families: {known or 'none'})"
    if broken:
        message += "; unreadable: " + "; ".join(str(b) for b in broken)
    raise SyncError(message)


def _table(tree: SourceTree, variable: str) -> list[tuple[str, str, Site]]:
    """The (spelling, model_type, site) entries of a ``{"spelling": "model_type"}`` dict literal of the
    registry module, as written."""
    try:
        module = tree.module(REGISTRY_MODULE)
    except UnreadableSource as error:
        raise SyncError(f"{error.rel}:{error.line or 1}: {error.reason}") from None
    node = module.definitions.get(variable) if module is not None else None
    value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
    if not isinstance(value, ast.Dict):
        return []
    return [
        (str(key.value), str(item.value), Site(module.rel, key.lineno))
        for key, item in zip(value.keys, value.values)
        if isinstance(key, ast.Constant) and isinstance(item, ast.Constant)
    ]


def spellings(tree: SourceTree, model_type: str, variable: str) -> list[tuple[str, Site]]:
    """The entries of an alias table that name this family, in source order."""
    return [(k, site) for k, v, site in _table(tree, variable) if normalize_family_key(v) == normalize_family_key(model_type)]


def owns_directory(registration: Registration) -> bool:
    """The family the adapter directory is named after (deepseek_v3, not deepseek_v2 registered beside it)."""
    return normalize_family_key(registration.directory) == normalize_family_key(registration.model_type)


def adapter_package(registration: Registration) -> str:
    return f"hyper_parallel.models.{registration.directory}.adapter"


def providers(tree: SourceTree, registration: Registration) -> list[tuple[str, Site]]:
    """The replacement providers: the one the spec names, then the other layouts beside it."""
    out = []
    named = registration.providers.get("replacements")
    if named is not None:
        out.append(named)
    if named is None or not owns_directory(registration):
        return out
    for layout in REPLACEMENT_LAYOUTS:
        module = f"{adapter_package(registration)}.{layout}"
        if module != named[0] and tree.exists(module):
            out.append((module, Site(tree.display(module), 1)))
    return out
