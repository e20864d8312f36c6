"""Resolving targets against a registry: the tri-state ``Resolution`` and plan summaries."""

from __future__ import annotations

import threading
import weakref
from typing import Any, Iterable, Mapping, Optional, Tuple

from . import _native
from ._record import Record
from .errors import PartialRegistryError, ResolutionError
from .plan import Plan, parse_plan
from .registry import Registry
from .specs import replacement_from_native, strategy_from_native

__all__ = ["Diagnostic", "Explanation", "Resolution", "Resolver", "Summary", "SummaryEntry"]

SLOTS = ("replace_module", "local_compute_fn", "inner_wrapper")


class Explanation(Record):
    """The decision trace of one answer (what ``famspec resolve --explain`` prints): ``spellings_tried``,
    ``family``, ``plugin``, ``channel``, ``cache_hit``, ``rule``, and ``declared_by``: a
    ``(role, name, plugin)`` triple for each declaration the answer used (family, factory, component,
    archetype, cp-wrapper or compute-function)."""

    __slots__ = ("spellings_tried", "family", "plugin", "channel", "cache_hit", "rule", "declared_by")


class Diagnostic(Record):
    """A check famspec makes where the reference makes none (``kind`` as in docs/compatibility.md), with
    its ``message`` and ``suggestion`` (or None). The answer stands; under ``strict`` the target is not
    covered instead."""

    __slots__ = ("kind", "message", "suggestion")


def _diagnostics(rows) -> Tuple[Diagnostic, ...]:
    return tuple(Diagnostic(**row) for row in rows)


def _explanation(fields) -> Explanation:
    declared_by = tuple((by["role"], by["name"], by["plugin"]) for by in fields["declared_by"])
    return Explanation(**{**fields, "declared_by": declared_by})


class Resolution(Record):
    """One answer: ``status`` is "resolved" (``value`` set), "not_covered" (``reason`` and ``gap`` set),
    "native" (the family builds it at runtime: nothing to sink) or "error" (a declaration exists but is
    broken; ``reason`` says why). ``diagnostics`` are famspec's stricter checks on the answer;
    ``explanation`` is its ``Explanation``."""

    __slots__ = ("status", "value", "reason", "gap", "diagnostics", "explanation")

    @property
    def resolved(self) -> bool:
        return self.status == "resolved"


class SummaryEntry(Record):
    """One target of a summarised plan: where it is (``line``, ``column``), its ``slot``, ``target`` and
    ``module_type``, and its answer (``status``, ``value``, ``reason``, ``gap``, ``diagnostics``)."""

    __slots__ = ("slot", "target", "module_type", "status", "value", "reason", "gap", "line", "column",
                 "diagnostics")
    _defaults = {"diagnostics": ()}


class Summary:
    """A plan's declaration summary; ``canonical_json()`` and ``digest()`` are the bytes
    ``famspec summary`` and ``famspec summary --digest`` print."""

    __slots__ = ("_native", "_canonical", "_digest")

    def __init__(self, native):
        self._native = native
        self._canonical = native.canonical_json()
        self._digest = native.digest()

    @classmethod
    def from_canonical_json(cls, text: str) -> "Summary":
        """A summary received from another process (``famspec.distributed.resolve_once``): its bytes
        and digest, without the per-entry details, which only the resolving process has."""
        import hashlib

        if not isinstance(text, str):
            raise TypeError(f"canonical summary must be str, got {type(text).__name__}")
        summary = cls.__new__(cls)
        summary._native = None
        summary._canonical = text
        summary._digest = "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
        return summary

    def canonical_json(self) -> str:
        return self._canonical

    def digest(self) -> str:
        return self._digest

    @property
    def entries(self) -> Tuple[SummaryEntry, ...]:
        if self._native is None:
            raise ValueError("this summary was received as canonical JSON: its entries' reasons and positions "
                             "are known only where it was resolved (read canonical_json())")
        return tuple(SummaryEntry(**_entry_fields(entry)) for entry in self._native.entries)

    def __repr__(self):
        return f"<famspec.Summary {self.digest()}>"


def _entry_fields(entry) -> dict:
    value = entry["value"]
    if value is not None:
        value = replacement_from_native(value) if entry["slot"] == "replace_module" else strategy_from_native(value)
    return {**entry, "value": value, "diagnostics": _diagnostics(entry["diagnostics"])}


def _optional_str(name, value):
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{name} must be str or None, got {type(value).__name__}")
    return value


def _options(options):
    if options is None:
        return None
    if not isinstance(options, Mapping):
        raise TypeError(f"options must be a mapping, got {type(options).__name__}")
    return dict(options)


class Resolver:
    """Answers what each target stands for, from a registry. Safe to use from many threads; every
    spelling of the same identity returns the same spec object.

    A registry in which a plugin or a plugin directory failed is refused with ``PartialRegistryError``
    (naming each failure and its stage), as ``famspec summary`` refuses it: its answers could silently
    lack a family. ``allow_partial=True`` here, or on ``load_plugins``, answers from what did load."""

    __slots__ = ("_registry", "_native", "_strict", "_interned", "_lock")

    def __init__(self, registry: Registry, *, strict: bool = False, allow_partial: bool = False):
        if not isinstance(registry, Registry):
            raise TypeError(f"Resolver expects a famspec.Registry, got {type(registry).__name__}")
        if not isinstance(strict, bool):
            raise TypeError("strict must be a bool")
        if not isinstance(allow_partial, bool):
            raise TypeError("allow_partial must be a bool")
        if not registry.all_ok and not (allow_partial or registry.allow_partial):
            raise PartialRegistryError(registry.failures)
        self._registry = registry
        self._native = _native.Resolver(registry._native, strict=strict)
        self._strict = strict
        # Weak: it keeps no spec alive, only makes equal ones one object while any caller holds one.
        self._interned = weakref.WeakValueDictionary()
        self._lock = threading.Lock()

    @property
    def registry(self) -> Registry:
        return self._registry

    @property
    def strict(self) -> bool:
        return self._strict

    def _intern(self, spec):
        # Equal specs are one object, whatever spelling or cache entry produced them.
        # Keyed by the fields, not by the spec itself, which would keep every one alive.
        with self._lock:
            return self._interned.setdefault((type(spec), spec._values()), spec)

    def _resolution(self, answer, convert) -> Resolution:
        value = answer["value"]
        if value is not None and convert is not None:
            value = self._intern(convert(value))
        return Resolution(status=answer["status"], value=value, reason=answer["reason"], gap=answer["gap"],
                          diagnostics=_diagnostics(answer["diagnostics"]),
                          explanation=_explanation(answer["explanation"]))

    def _check_family(self, model_type: Optional[str], given_by: str) -> None:
        """Under ``strict``, a family named explicitly that no loaded plugin registers raises: every
        answer would be "unknown family", and a summary's digest would look valid."""
        if not self._strict or model_type is None:
            return
        problem = self._registry._native.unknown_family(model_type)
        if problem is not None:
            raise ResolutionError(f"{problem} given by {given_by}; the loaded families are "
                                  f"{', '.join(self._registry.families)}")

    def replacement(self, target: str, model_type: Optional[str] = None, *, module_type: Optional[str] = None,
                    options: Optional[Mapping[str, Any]] = None) -> Resolution:
        if not isinstance(target, str):
            raise TypeError(f"target must be str, got {type(target).__name__}")
        if _native.target_reads_family("replace_module", target):
            self._check_family(_optional_str("model_type", model_type), "model_type")
        return self._replacement(target, model_type, module_type, options)

    def _replacement(self, target, model_type, module_type, options) -> Resolution:
        # Without the family check: the drop-in answers None for an unknown family, as the reference.
        row = self._native.replacement(target, _optional_str("model_type", model_type),
                                       _optional_str("module_type", module_type), _options(options))
        return self._resolution(row, replacement_from_native)

    def strategy(self, target: str, model_type: Optional[str] = None, *, slot: str = "local_compute_fn",
                 options: Optional[Mapping[str, Any]] = None) -> Resolution:
        if not isinstance(target, str):
            raise TypeError(f"target must be str, got {type(target).__name__}")
        if slot not in SLOTS[1:]:
            raise ValueError(f"slot must be 'local_compute_fn' or 'inner_wrapper', got {slot!r}")
        self._check_family(_optional_str("model_type", model_type), "model_type")
        return self._strategy(target, model_type, slot, options)

    def _strategy(self, target, model_type, slot, options) -> Resolution:
        row = self._native.strategy(target, _optional_str("model_type", model_type), slot, _options(options))
        return self._resolution(row, strategy_from_native)

    def interface_component_class(self, model_type: str) -> Resolution:
        if not isinstance(model_type, str):
            raise TypeError(f"model_type must be str, got {type(model_type).__name__}")
        return self._resolution(self._native.interface_component_class(model_type), None)

    def external_state_classes(self, model_type: Optional[str],
                               injections: Iterable[Tuple[Optional[str], Optional[Mapping[str, Any]]]] = ()
                               ) -> Tuple[str, ...]:
        """Classes whose forward an inline strategy body replaces; ``injections`` are
        ``(local_compute_fn target or None, options)`` pairs."""
        rows = []
        for target, options in injections:
            rows.append({"target": _optional_str("target", target), "options": _options(options)})
        return tuple(sorted(set(self._native.external_state_classes(_optional_str("model_type", model_type), rows))))

    def summary(self, plan, model_type: Optional[str] = None) -> Summary:
        """The declaration summary of a plan (a ``Plan``, a path or YAML text). Raises ``ResolutionError``
        when a declaration in it is broken, as ``famspec summary`` fails then, and under ``strict`` when
        the family given (``model_type``, else the plan's ``model_type`` or ``architecture``) is not
        registered and some target's answer depends on it (a component named directly does not)."""
        if not isinstance(plan, Plan):
            plan = parse_plan(plan)
        # A plan whose every target names a component directly reads no family: nothing to check.
        if plan.reads_family and model_type is not None:
            self._check_family(_optional_str("model_type", model_type), "model_type")
        elif plan.reads_family and plan.model_type is not None:
            self._check_family(plan.model_type, "the plan's model_type")
        elif plan.reads_family:
            self._check_family(plan.architecture, "the plan's architecture")
        summary = Summary(self._native.summary(plan, _optional_str("model_type", model_type)))
        errors = [e for e in summary.entries if e.status == "error"]
        if errors:
            lines = "; ".join(f"{plan.file}:{e.line}:{e.column}: {e.target}: {e.reason}" for e in errors)
            raise ResolutionError(f"broken declarations in the plan: {lines}", errors[0].target)
        return summary

    def clear_cache(self) -> None:
        """Forget every answer this resolver keeps (the intern table is weak: it keeps none)."""
        self._native.clear_cache()
