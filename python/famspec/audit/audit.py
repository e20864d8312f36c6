"""The audit itself: every declaration of the selected families, checked against one source root."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..source.family_keys import find_family
from ..source.source_tree import SourceTree
from . import components, factories, functions, registrations
from .findings import DRIFT, UNREADABLE, Finding


class AuditError(Exception):
    """Bad input: a source root that is not a runtime, or a family no plugin declares."""


@dataclass
class Report:
    source_root: str
    families: list[str]
    findings: list[Finding] = field(default_factory=list)
    failed_plugins: list[dict] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for f in self.findings if f.status == status)

    def exit_code(self, strict: bool = False) -> int:
        failed = self.count(DRIFT) or self.failed_plugins or (strict and self.count(UNREADABLE))
        return 1 if failed else 0

    def to_json(self, strict: bool = False) -> dict:
        return {
            "source_root": self.source_root,
            "families": self.families,
            "counts": {s: self.count(s) for s in ("ok", DRIFT, UNREADABLE)},
            "failed_plugins": self.failed_plugins,
            "findings": [f.to_json() for f in self.findings],
            "exit_code": self.exit_code(strict),
        }


def check_root(root: Path) -> Path:
    if not root.is_dir():
        raise AuditError(f"--source-root {root}: not a directory")
    if not (root / "hyper_parallel").is_dir():
        raise AuditError(
            f"--source-root {root}: no hyper_parallel/ in it; give the folder that holds the runtime's "
            "hyper_parallel package (a checkout or site-packages)"
        )
    return root.resolve()


def select_families(declarations: dict, names: list[str] | None) -> list[dict]:
    """The declared families named by any spelling (model_type, architecture, alias, directory alias), as
    the registry looks a name up, or all of them."""
    families = declarations.get("families", [])
    if not names:
        return families
    chosen = []
    for name in names:
        found = find_family(families, name)
        if found is None:
            known = ", ".join(f["model_type"] for f in families) or "none"
            raise AuditError(f"--family {name}: no loaded plugin declares it (families: {known})")
        if families[found] not in chosen:
            chosen.append(families[found])
    return chosen


def _used_components(declarations: dict, families: list[dict], everything: bool) -> list[dict]:
    catalogue = declarations.get("components", [])
    if everything:
        return catalogue
    used = set()
    for family in families:
        for factory in family.get("factories", []):
            c = factory.get("construction")
            if c:
                used.add((c["import_module"], c["component"]))
    return [
        c
        for c in catalogue
        if (c["import_module"], c["name"]) in used or (c["defining_module"], c["name"]) in used
    ]


def audit_family(tree: SourceTree, index: registrations.RegistrationIndex, family: dict) -> list[Finding]:
    findings = registrations.check_registration(index, family)
    findings += registrations.check_directory_aliases(tree, index, family)
    findings += factories.check_providers(tree, family)
    findings += registrations.check_named_providers(index, family, factories.provider_modules(family))
    for factory in family.get("factories", []):
        findings += factories.check_factory(tree, family, factory)
    ctx = {"family": family["model_type"]}
    findings += _audit_strategies(tree, family, ctx)
    for target in family.get("compute_functions", []):
        site = {"plugin": family.get("plugin", ""), "where": family.get("where", "")}
        findings += functions.check_function(tree, "compute_function", target, {**ctx, **site})
    return findings


def _audit_strategies(tree: SourceTree, holder: dict, ctx: dict) -> list[Finding]:
    """The CP wrappers and archetypes ``holder`` (a family, or the framework's declarations) lists."""
    findings: list[Finding] = []
    for wrapper in holder.get("cp_wrappers", []):
        site = {"plugin": wrapper.get("plugin", ""), "where": wrapper.get("where", "")}
        findings += functions.check_function(tree, "cp_wrapper", wrapper["target"], {**ctx, **site}, wrapper)
    for archetype in holder.get("archetypes", []):
        site = {"plugin": archetype.get("plugin", ""), "where": archetype.get("where", "")}
        findings += functions.check_function(tree, "archetype", archetype["compute_factory"], {**ctx, **site})
    return findings


def audit_framework(tree: SourceTree, declarations: dict) -> list[Finding]:
    """The archetypes and CP wrappers of no family (the framework's plugin), as a family's are checked."""
    return _audit_strategies(tree, declarations, {"family": None})  # as for catalogue components: no family's


def run_audit(declarations: dict, source_root: Path, family_names: list[str] | None = None) -> Report:
    """Check the declarations (the registry's description) against the source under source_root."""
    root = check_root(Path(source_root))
    families = select_families(declarations, family_names)
    tree = SourceTree(root)
    index = registrations.index_registrations(tree)
    report = Report(str(root), [f["model_type"] for f in families])
    report.failed_plugins = [p for p in declarations.get("plugins", []) if p.get("status") != "ok"]
    for family in families:
        report.findings += audit_family(tree, index, family)
    for component in _used_components(declarations, families, everything=not family_names):
        report.findings += components.check_component(tree, component)
    if not family_names:
        report.findings += audit_framework(tree, declarations)
    report.findings.sort(key=Finding.sort_key)
    return report
