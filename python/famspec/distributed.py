"""Every rank agrees: plugin-set and summary agreement over the job's own ``torch.distributed``.

``torch.distributed`` is imported only here, and only when a function is called; it must be
initialised (``init_process_group``, or ``torchrun``). Any backend works: gloo on CPU, NCCL or HCCL on
devices (objects travel through ``all_gather_object`` and ``broadcast_object_list``).
"""

from __future__ import annotations

import json
import socket

from . import _native
from ._provenance import _registry
from .registry import Registry
from .resolver import Resolver, Summary

__all__ = ["RankDisagreement", "agree", "resolve_once"]


class RankDisagreement(RuntimeError):
    """Raised on every rank when ranks hold different plugin sets or summaries.

    ``groups`` maps each distinct digest to the sorted list of ranks that hold it."""

    def __init__(self, message: str, groups: dict):
        super().__init__(message)
        self.groups = groups


def _distributed():
    import torch.distributed as dist  # only when used

    if not dist.is_available() or not dist.is_initialized():
        raise RuntimeError("famspec.distributed needs an initialised torch.distributed process group "
                           "(torch.distributed.init_process_group, or torchrun)")
    return dist


def _gather(dist, value, group):
    out = [None] * dist.get_world_size(group)
    dist.all_gather_object(out, value, group=group)
    return out


def _differences(compare, majority: str, minority: str) -> list:
    comparison = compare(majority, minority)
    return [comparison["error"]] if comparison["error"] else list(comparison["differences"])


def _check(dist, group, records, field, my_text, what, reference=None):
    """Raises RankDisagreement on every rank unless every record holds the same ``field``.

    Only then does a second round carry canonical texts, one per distinct value (broadcast by the
    lowest rank holding it), so that the message can name the first difference against the majority."""
    positions = {}
    for position, record in enumerate(records):
        positions.setdefault(record[field], []).append(position)
    if len(positions) == 1 and (reference is None or reference in positions):
        return
    me = dist.get_rank(group) if group is not None else dist.get_rank()
    # One broadcast per distinct value, from the lowest rank holding it: each rank receives as many
    # texts as there are distinct values (an all-gather would pad every rank's share to the largest).
    texts = {}
    for value, ps in sorted(positions.items(), key=lambda item: item[1][0]):
        box = [my_text if ps[0] == me else None]
        dist.broadcast_object_list(box, src=records[ps[0]]["rank"], group=group)
        texts[ps[0]] = box[0]
    groups = {value: sorted(records[p]["rank"] for p in ps) for value, ps in positions.items()}
    majority = reference if reference is not None else max(
        positions, key=lambda value: (len(positions[value]), -positions[value][0]))
    majority_text = texts[positions[majority][0]] if majority in positions else None
    compare = _native.compare_snapshots if field == "snapshot" else _native.compare_summaries
    lines = [f"famspec: ranks disagree on the {what}: {majority} is held by ranks {groups.get(majority, [])}"]
    for value, ps in sorted(positions.items(), key=lambda item: item[1][0]):
        if value == majority:
            continue
        hosts = sorted({records[p]["host"] for p in ps})
        first = "(no text to compare)"
        if majority_text is not None and texts[ps[0]] is not None:
            differences = _differences(compare, majority_text, texts[ps[0]])
            first = differences[0] if differences else "same content, different digest"
        lines.append(f"ranks {groups[value]} on {', '.join(hosts)} hold {value}: {first}")
    raise RankDisagreement("\n".join(lines), groups)


def _snapshot_of(registry):
    text = registry.snapshot()
    return text, json.loads(text)["digest"]


def agree(summary: Summary | None = None, registry: Registry | None = None, *, group=None) -> dict:
    """All-gathers rank, host, snapshot digest and summary digest; returns the common record
    ``{"snapshot", "summary", "world_size"}`` or raises ``RankDisagreement`` on every rank."""
    if summary is not None and not isinstance(summary, Summary):
        raise TypeError(f"summary must be a famspec.Summary, got {type(summary).__name__}")
    dist = _distributed()
    snapshot, snapshot_digest = _snapshot_of(_registry(registry))
    summary_digest = summary.digest() if summary is not None else None
    records = _gather(dist, {"rank": dist.get_rank(), "host": socket.gethostname(), "snapshot": snapshot_digest,
                             "summary": summary_digest}, group)
    # A different plugin set explains a different summary: it is named first.
    _check(dist, group, records, "snapshot", snapshot, "plugin snapshot")
    _check(dist, group, records, "summary", summary.canonical_json() if summary is not None else None,
           "plan summary")
    return {"snapshot": snapshot_digest, "summary": summary_digest, "world_size": len(records)}


def resolve_once(plan, registry: Registry, *, src: int = 0, group=None) -> Summary:
    """Rank ``src`` parses and resolves ``plan`` (a path, YAML text or a parsed plan); the others receive
    its canonical summary. Every rank checks its snapshot digest against ``src``'s and raises
    ``RankDisagreement`` (every rank) when one differs. Returns a summary whose ``digest()`` is ``src``'s."""
    dist = _distributed()
    registry = _registry(registry)
    snapshot, snapshot_digest = _snapshot_of(registry)
    payload = [None]
    summary = None
    if dist.get_rank() == src:
        try:
            summary = Resolver(registry).summary(plan)
            payload = [{"summary": summary.canonical_json(), "snapshot": snapshot_digest}]
        except Exception as error:  # every rank must learn that src failed, or they would wait forever
            payload = [{"error": f"{type(error).__name__}: {error}"}]
            dist.broadcast_object_list(payload, src=src, group=group)
            raise
    dist.broadcast_object_list(payload, src=src, group=group)
    received = payload[0]
    if "error" in received:
        raise RuntimeError(f"famspec: rank {src} could not resolve the plan: {received['error']}")
    records = _gather(dist, {"rank": dist.get_rank(), "host": socket.gethostname(), "snapshot": snapshot_digest},
                      group)
    _check(dist, group, records, "snapshot", snapshot, "plugin snapshot", reference=received["snapshot"])
    return summary if summary is not None else Summary.from_canonical_json(received["summary"])
