"""Provenance for checkpoints: which plugin set and which summary made an artifact."""

from __future__ import annotations

import json

from . import _native
from .registry import Registry
from .resolver import Summary

__all__ = ["ProvenanceMismatch", "check_provenance", "provenance"]


class ProvenanceMismatch(RuntimeError):
    """The live plugin set or summary is not the one a checkpoint was made with; ``differences`` lists why."""

    def __init__(self, differences):
        super().__init__("famspec: the checkpoint was made with other declarations:\n  " + "\n  ".join(differences))
        self.differences = list(differences)


def _registry(registry):
    if registry is None:
        from .framework_spec import _loaded
        return _loaded().resolver.registry
    if not isinstance(registry, Registry):
        raise TypeError(f"registry must be a famspec.Registry, got {type(registry).__name__}")
    return registry


def provenance(registry: Registry | None = None, summary: Summary | None = None) -> dict:
    """``{"snapshot": <the registry snapshot, parsed>, "summary_digest": <digest or None>}``, JSON-safe,
    for a checkpoint's metadata. The registry defaults to framework_spec's."""
    if summary is not None and not isinstance(summary, Summary):
        raise TypeError(f"summary must be a famspec.Summary, got {type(summary).__name__}")
    return {"snapshot": json.loads(_registry(registry).snapshot()),
            "summary_digest": summary.digest() if summary is not None else None}


def check_provenance(stored: dict, registry: Registry | None, summary: Summary | None = None) -> None:
    """Raises ``ProvenanceMismatch`` listing every difference between ``stored`` (from ``provenance()``)
    and the live registry (and summary, when given)."""
    if not isinstance(stored, dict) or "snapshot" not in stored:
        raise TypeError("stored must be the dict famspec.provenance() returned")
    comparison = _native.compare_snapshots(json.dumps(stored["snapshot"]), _registry(registry).snapshot())
    if comparison["error"]:
        raise ValueError(f"stored provenance: {comparison['error']}")
    differences = list(comparison["differences"])
    if summary is not None and stored.get("summary_digest") != summary.digest():
        differences.append(f"summary digest changed: {stored.get('summary_digest')} -> {summary.digest()}")
    if differences:
        raise ProvenanceMismatch(differences)
