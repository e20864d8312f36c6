"""The runtime's family registry module as sync and the audit read it: where its alias tables live, and
the key a family is looked up by."""

from __future__ import annotations

REGISTRY_MODULE = "hyper_parallel.models.registry"
DIRECTORY_ALIASES = "_FAMILY_DIR_ALIASES"
_SUFFIXES = ("forcausallm", "forconditionalgeneration", "forsequenceclassification", "forimagetexttotext")


def normalize(name: str) -> str:
    """The runtime's family key: lower case, no '_' or '-', the first task suffix stripped."""
    key = name.lower().replace("_", "").replace("-", "")
    for suffix in _SUFFIXES:
        if len(key) > len(suffix) and key.endswith(suffix):
            return key[: -len(suffix)]
    return key
