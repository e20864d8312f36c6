"""The key a family is looked up by, and which family a name finds: the core registry's own rule
(``famspec/family_keys.hpp``), called through the extension, so that sync and the audit find a family
exactly as the resolver does. Nothing here restates it: without the extension these tools do not run."""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

try:
    from .._native import find_family as _find_family
    from .._native import normalize_family_key
except ImportError as error:
    raise ImportError(
        f"famspec._native, the core's extension, cannot be imported ({error}); famspec sync and audit look "
        "families up by the core's own rule: build famspec (its famspec_python target) and run the package "
        "it builds (build/python), or install famspec"
    ) from error

__all__ = ["family_names", "find_family", "normalize_family_key"]


def family_names(model_type: str, architecture: str, aliases: Iterable[str] = (),
                 directory_aliases: Iterable[str] = ()) -> dict:
    """One family as ``find_family`` is given it."""
    return {"model_type": model_type, "architecture": architecture, "aliases": list(aliases),
            "directory_aliases": list(directory_aliases)}


def find_family(families: Sequence[Mapping], name: str) -> int | None:
    """The index of the family ``name`` finds among ``families`` (each with ``model_type``,
    ``architecture`` and optionally ``aliases`` and ``directory_aliases``), or None: the exact
    model_type, else the first family whose model_type has the name's key, else the first whose
    architecture or alias has it, else the first with a directory alias of that key."""
    named = [
        family_names(f["model_type"], f["architecture"], f.get("aliases", ()), f.get("directory_aliases", ()))
        for f in families
    ]
    return _find_family(named, name)
