"""Family registrations: ``ModelAdapterSpec(model_type=..., architecture=...)`` in each family's
``adapter/registration.py``, and the directory aliases in ``hyper_parallel/models/registry.py``."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from ..source import providers as provider_forms
from ..source.family_keys import normalize_family_key
from ..source.registry_tables import DIRECTORY_ALIASES, REGISTRY_MODULE
from ..source.source_tree import SourceTree, UnreadableSource
from .findings import drift, ok, unreadable


@dataclass
class Registration:
    file: str
    line: int
    model_type: str | None  # None when not a literal
    architecture: str | None
    architecture_line: int
    unreadable: str = ""
    # The module providers as sync reads them (famspec.source.providers), or why they cannot be read.
    providers: list[provider_forms.Provider] = field(default_factory=list)
    providers_problem: provider_forms.ProviderUnreadable | None = None


@dataclass
class RegistrationIndex:
    registrations: list[Registration] = field(default_factory=list)
    broken: list[tuple[str, int | None, str]] = field(default_factory=list)  # unparseable files
    aliases: dict[str, tuple[str, int]] | None = None  # normalised key -> (directory, line)
    aliases_problem: tuple[str, int | None, str] | None = None


def _literal(call: ast.Call, name: str) -> tuple[str | None, int, bool]:
    for keyword in call.keywords:
        if keyword.arg == name:
            value = keyword.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                return value.value, value.lineno, True
            return None, value.lineno, False
    return None, call.lineno, False


def _is_spec_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    callee = node.func
    name = callee.attr if isinstance(callee, ast.Attribute) else getattr(callee, "id", "")
    return name == "ModelAdapterSpec"


def index_registrations(tree: SourceTree) -> RegistrationIndex:
    index = RegistrationIndex()
    paths, unreadable = tree.registration_files()
    index.broken += [(error.rel, error.line, error.reason) for error in unreadable]
    for path in paths:
        dotted = ".".join(path.relative_to(tree.root).with_suffix("").parts)
        try:
            module = tree.module(dotted)
        except UnreadableSource as error:
            index.broken.append((error.rel, error.line, error.reason))
            continue
        if module is None:  # a folder name Python cannot import (a hyphen)
            index.broken.append((tree.rel(path), None, "is not an importable Python module (is each folder name an "
                                 "identifier?)"))
            continue
        for node in ast.walk(module.tree):
            if not _is_spec_call(node):
                continue
            model_type, _, readable_type = _literal(node, "model_type")
            architecture, arch_line, readable_arch = _literal(node, "architecture")
            problem = ""
            if not readable_type or not readable_arch:
                problem = "model_type or architecture is not a string literal"
            if any(k.arg is None for k in node.keywords) or node.args:
                problem = "the spec is built from positional or ** arguments"
            registration = Registration(module.rel, node.lineno, model_type, architecture, arch_line, problem)
            try:
                registration.providers = provider_forms.read(tree, module, node)
            except provider_forms.ProviderUnreadable as error:
                registration.providers_problem = error
            index.registrations.append(registration)
    _index_aliases(tree, index)
    return index


def _index_aliases(tree: SourceTree, index: RegistrationIndex) -> None:
    try:
        module = tree.module(REGISTRY_MODULE)
    except UnreadableSource as error:
        index.aliases_problem = (error.rel, error.line, error.reason)
        return
    if module is None:
        return
    node = module.definitions.get(DIRECTORY_ALIASES)
    if node is None:
        return
    value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
    if not isinstance(value, ast.Dict) or any(k is None for k in value.keys):
        index.aliases_problem = (module.rel, node.lineno, f"{DIRECTORY_ALIASES} is not a dict literal")
        return
    aliases = {}
    for key, item in zip(value.keys, value.values):
        if not (isinstance(key, ast.Constant) and isinstance(item, ast.Constant)):
            index.aliases_problem = (module.rel, key.lineno, f"{DIRECTORY_ALIASES} holds a computed entry")
            return
        aliases[normalize_family_key(str(key.value))] = (str(item.value), key.lineno)
    index.aliases = aliases


def check_registration(index: RegistrationIndex, family: dict) -> list:
    model_type, architecture = family["model_type"], family["architecture"]
    ctx = {"family": model_type, "plugin": family.get("plugin", ""), "where": family.get("where", "")}
    declared = f"ModelAdapterSpec(model_type={model_type!r}, architecture={architecture!r})"
    mine = [r for r in index.registrations if r.model_type == model_type and not r.unreadable]
    if not mine:
        unclear = [r for r in index.registrations if r.unreadable]
        if index.broken:
            file, line, reason = index.broken[0]
            return [unreadable("registration", model_type, file, line, declared, reason, **ctx)]
        if unclear:
            r = unclear[0]
            return [unreadable("registration", model_type, r.file, r.line, declared, r.unreadable, **ctx)]
        in_dir = [r for r in index.registrations if r.file.startswith(f"hyper_parallel/models/{model_type}/")]
        found = "no registration declares this model_type"
        if in_dir:
            found += f"; {in_dir[0].file} registers {in_dir[0].model_type!r}"
        return [
            drift(
                "registration",
                model_type,
                in_dir[0].file if in_dir else None,
                in_dir[0].line if in_dir else None,
                declared,
                found,
                "declare the model_type the runtime registers, or remove the family",
                kind="registration_missing",
                **ctx,
            )
        ]
    r = mine[0]
    if r.architecture != architecture:
        return [
            drift(
                "registration",
                model_type,
                r.file,
                r.architecture_line,
                f"architecture {architecture!r}",
                f"architecture {r.architecture!r}",
                f"declare the architecture {r.architecture!r}",
                kind="registration_architecture",
                **ctx,
            )
        ]
    return [ok("registration", model_type, r.file, r.line, declared, **ctx)]


def check_directory_aliases(tree: SourceTree, index: RegistrationIndex, family: dict) -> list:
    model_type = family["model_type"]
    ctx = {"family": model_type, "plugin": family.get("plugin", ""), "where": family.get("where", "")}
    declared = {normalize_family_key(a): a for a in family.get("directory_aliases", [])}
    rel = tree.display(REGISTRY_MODULE)
    if index.aliases_problem is not None:
        if not declared:
            return []
        file, line, reason = index.aliases_problem
        return [unreadable("directory_alias", model_type, file, line, ", ".join(declared.values()), reason, **ctx)]
    source = index.aliases or {}
    findings = []
    for key, alias in sorted(declared.items()):
        entry = source.get(key)
        if entry is None:
            findings.append(
                drift(
                    "directory_alias",
                    alias,
                    rel,
                    None,
                    f"{alias} -> {model_type}",
                    f"{DIRECTORY_ALIASES} has no {alias!r}",
                    f"remove .directory_alias(\"{alias}\")",
                    kind="directory_alias_missing",
                    **ctx,
                )
            )
        elif normalize_family_key(entry[0]) != normalize_family_key(model_type):
            findings.append(
                drift(
                    "directory_alias",
                    alias,
                    rel,
                    entry[1],
                    f"{alias} -> {model_type}",
                    f"{alias} -> {entry[0]}",
                    f"move .directory_alias(\"{alias}\") to the family {entry[0]}",
                    kind="directory_alias_target",
                    **ctx,
                )
            )
        else:
            findings.append(ok("directory_alias", alias, rel, entry[1], f"{alias} -> {model_type}", **ctx))
    for key, (directory, line) in sorted(source.items()):
        if key not in declared and normalize_family_key(directory) == normalize_family_key(model_type):
            findings.append(
                drift(
                    "directory_alias",
                    key,
                    rel,
                    line,
                    "(absent)",
                    f"{key} -> {directory}",
                    f"declare .directory_alias(\"{key}\")",
                    kind="directory_alias_added",
                    **ctx,
                )
            )
    return findings


def check_named_providers(index: RegistrationIndex, family: dict, declared_providers: list[str]) -> list:
    """The replacement provider the registration hands over, read as sync reads it: the plugin must
    resolve factories there; a provider written in a form sync cannot read is unreadable here too."""
    model_type = family["model_type"]
    ctx = {"family": model_type, "plugin": family.get("plugin", ""), "where": family.get("where", "")}
    mine = [r for r in index.registrations if r.model_type == model_type and not r.unreadable]
    if not mine:
        return []  # check_registration reports it
    r = mine[0]
    problem = r.providers_problem
    if problem is not None:
        return [unreadable("registration_provider", problem.keyword, problem.file, problem.line,
                           "a provider sync reads", problem.reason,
                           problem.remedy, **ctx)]
    findings = []
    for p in r.providers:
        if p.keyword != "replacements":
            continue
        declared = ", ".join(declared_providers) or "(none)"
        if p.module in declared_providers:
            findings.append(ok("registration_provider", p.module, p.file, p.line, f"provider {p.module}", **ctx))
        else:
            findings.append(drift("registration_provider", p.module, p.file, p.line, f"providers {declared}",
                                  f"the registration hands over replacements from {p.module}",
                                  f"declare .provider(\"{p.module}\") (famspec sync does)",
                                  kind="provider_not_declared", **ctx))
    return findings
