"""The runtime's family registry module as sync and the audit read it: where its alias tables live.
The key a family is looked up by is the core's (``family_keys``)."""

from __future__ import annotations

REGISTRY_MODULE = "hyper_parallel.models.registry"
DIRECTORY_ALIASES = "_FAMILY_DIR_ALIASES"
