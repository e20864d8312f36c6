"""The runtime's MoE archetype table (``hyper_parallel/distributed/expert_parallel/archetypes.py``:
a dict literal from a structure fingerprint to ``MoeArchetype(...)``), the entries that belong to a
family, and the family's other expert-parallel compute functions."""

from __future__ import annotations

import ast

from ..source.providers import family_folder
from ..source.runtime import RUNTIME_PARAMETERS
from ..source.source_tree import SourceTree, UnreadableSource
from . import values, wrappers
from .decorators import decorated_with
from .model import Archetype, Site, Todo

# What the runtime passes a @local_compute factory beside the module, by keyword: not options.
_MESHES = ("mesh", "tp_mesh", "cp_mesh", "ep_mesh")
LOCAL_COMPUTE = "local_compute"

ARCHETYPES_MODULE = "hyper_parallel.distributed.expert_parallel.archetypes"
_FIELDS = ("kind", "target_class", "router_kind", "shared", "strip_boundary_subpatterns", "compute_factory")

# The words of an archetype, as the SDK types them (famspec/sdk/moe_vocabulary.hpp): the C++ enum of
# each field and its enumerators. A word outside them could not be declared, so the entry is refused.
MOE_WORDS = {
    "MoeRouter": ("softmax_topk", "sigmoid_group", "topk_router_module"),
    "SharedExperts": ("none", "gated", "additive"),
    "ExpertStorage": ("module_list", "batched_parameters"),
    "ArchetypeKind": ("moe_ep_routed",),
}
# Each typed field of an entry, with its enum: the three parts of the fingerprint, then the others.
_TYPED = (("router", "MoeRouter"), ("shared_experts", "SharedExperts"), ("expert_storage", "ExpertStorage"),
          ("kind", "ArchetypeKind"), ("router_kind", "MoeRouter"), ("shared", "SharedExperts"))


def _unknown_word(fingerprint: tuple, fields: dict) -> str | None:
    values = dict(zip(("router", "shared_experts", "expert_storage"), fingerprint))
    values.update({k: fields[k] for k in ("kind", "router_kind", "shared")})
    for field, enum in _TYPED:
        if values[field] not in MOE_WORDS[enum]:
            return f"its {field} {values[field]!r} is not one of {', '.join(MOE_WORDS[enum])}"
    return None


def _is_archetype(node) -> bool:
    if not isinstance(node, ast.Call):
        return False
    callee = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
    return callee == "MoeArchetype"


def _read_entry(key, call: ast.Call, rel: str) -> Archetype | str:
    try:
        fingerprint = ast.literal_eval(key)
        fields = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
    except (ValueError, TypeError, SyntaxError):
        return "the fingerprint or a field is not a literal"
    if call.args or None in fields:
        return "the archetype is built from positional or ** arguments"
    missing = [f for f in _FIELDS if f not in fields and f != "strip_boundary_subpatterns"]
    if missing or not (isinstance(fingerprint, tuple) and len(fingerprint) == 3):
        return f"the entry lacks {', '.join(missing) or 'a three-part fingerprint'}"
    if (unknown := _unknown_word(tuple(fingerprint), fields)) is not None:
        return unknown
    return Archetype(
        Site(rel, call.lineno),
        tuple(fingerprint),
        fields["kind"],
        fields["target_class"],
        fields["router_kind"],
        fields["shared"],
        tuple(fields.get("strip_boundary_subpatterns", ())),
        fields["compute_factory"],
    )


def table(tree: SourceTree) -> tuple[list[Archetype], list[tuple[Site, str, str]]]:
    """Every archetype of the table, and the entries that cannot be read (site, target, reason)."""
    module = tree.module(ARCHETYPES_MODULE)
    if module is None:
        return [], []
    found, unreadable = [], []
    for node in module.tree.body:
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if not isinstance(value, ast.Dict) or not any(_is_archetype(v) for v in value.values):
            continue
        for key, item in zip(value.keys, value.values):
            if not _is_archetype(item):
                continue
            entry = _read_entry(key, item, module.rel)
            if isinstance(entry, str):
                factory = next((k.value for k in item.keywords if k.arg == "compute_factory"), None)
                target = factory.value if isinstance(factory, ast.Constant) else "?"
                unreadable.append((Site(module.rel, item.lineno), target, entry))
            else:
                found.append(entry)
    return found, unreadable


def _defines_class(tree: SourceTree, folder: str, name: str) -> bool:
    """Whether a module under hyper_parallel/models/<folder>/ defines the class ``name`` at top level."""
    for dotted in tree.module_files(f"hyper_parallel.models.{folder}"):
        if isinstance(tree.module(dotted).definitions.get(name), ast.ClassDef):
            return True
    return False


def owner(tree: SourceTree, archetype: Archetype) -> str | None:
    """The family folder that defines an archetype: the one holding its compute factory, else the one
    defining its target class. A name that merely starts like a family's is not ownership."""
    folder = family_folder(archetype.compute_factory)
    if folder is not None:
        return folder
    models, _ = tree.module_path("hyper_parallel.models")
    if models is None:
        return None
    base = models.parent if models.name == "__init__.py" else models
    folders = sorted(p.name for p in base.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))
    return next((f for f in folders if _defines_class(tree, f, archetype.target_class)), None)


def family_archetypes(tree: SourceTree, directory: str, owns: bool) -> tuple[list, list]:
    """The archetypes the family's folder defines (see ``owner``), with their options."""
    archetypes, todos = [], []
    if not owns:
        return archetypes, todos
    every, unreadable = table(tree)
    for a in every:
        if owner(tree, a) == directory:
            todo = options_of(tree, a)
            if todo is not None:
                todos.append(todo)
            archetypes.append(a)
    for site, target, reason in unreadable:
        if family_folder(target) == directory:
            todos.append(Todo(site, target, reason))
    return archetypes, todos


def options_of(tree: SourceTree, archetype: Archetype) -> Todo | None:
    """The compute factory's own parameters beyond the runtime's are the archetype's options."""
    module_name, rest = tree.split_dotted(archetype.compute_factory)
    if module_name is None or len(rest) != 1:
        return Todo(archetype.site, archetype.compute_factory, "the compute factory is not in the source tree")
    try:
        binding = tree.resolve(module_name, rest[0])
    except UnreadableSource as error:
        return Todo(Site(error.rel, error.line or 1), archetype.compute_factory, error.reason)
    if binding.kind != "definition" or not isinstance(binding.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return Todo(archetype.site, archetype.compute_factory, "the compute factory is not a def sync can read")
    for param, arg in values.parameters(binding.node, binding.module, skip=RUNTIME_PARAMETERS + _MESHES,
                                        tree=tree):
        if param.value.kind != "literal":
            return Todo(Site(binding.module.rel, arg.lineno), archetype.compute_factory,
                        f"option {param.name} has no literal default")
        archetype.options.append(param)
    return None


def compute_functions(tree: SourceTree, modules: list[str], archetype_factories: set[str]) -> list[tuple[str, Site]]:
    """The family's compute functions that are no archetype's factory: the public functions of its
    expert-parallel modules (every adapter module whose name ends in ``expert_parallel``:
    ``adapter.expert_parallel``, ``adapter.distributed.moe_engram_expert_parallel``), and every
    ``@local_compute`` function of its adapter wherever it lives (``adapter.distributed.ep_compute``)."""
    out: list[tuple[str, Site]] = []
    for dotted in modules:
        by_name = dotted.rsplit(".", 1)[-1].endswith("expert_parallel")
        module = tree.module(dotted)
        found: dict[str, tuple[str, Site]] = {}
        for node in module.tree.body:
            target = f"{dotted}.{getattr(node, 'name', '')}"
            if (
                isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                and not node.name.startswith("_")
                and (by_name or decorated_with(node, module, LOCAL_COMPUTE))
                and target not in archetype_factories
            ):
                found[node.name] = (target, Site(module.rel, node.lineno))
        out += found.values()
        # A module-level alias is the same compute function under a second name.
        out += [(f"{dotted}.{alias}", Site(module.rel, line)) for alias, _, line in wrappers.aliases_in(module, found)]
    return out
