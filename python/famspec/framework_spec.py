"""Drop-in for the runtime's ``framework_spec`` module, answered by famspec's family plugins.

Same public names, signatures and results: swap the import and nothing else changes::

    from famspec.framework_spec import replacement_spec_for, strategy_spec_for

Targets may be a dotted path, ``None``, or a mapping with ``_target_`` (or ``target``); the other keys
of a mapping are the target's static options. Results are frozen, hashable ``famspec`` specs, or
``None`` when the target is not covered; a declaration that exists but is broken raises
``famspec.ResolutionError`` (a ``RuntimeError``). Repeated lookups return the same object, whatever
spelling of the family is used.

The module answers from a process-wide registry, loaded on first use from the default plugin search
(``FAMSPEC_PLUGIN_PATH``, else the plugins installed with this package); ``use_registry`` replaces it.
While any plugin or plugin directory of the default search fails to load, every call raises
``famspec.PartialRegistryError`` naming each failure, rather than answer ``None`` for a family that
failed; ``use_registry(famspec.load_plugins(allow_partial=True))`` accepts the plugins that did load.
"""

from __future__ import annotations

import dataclasses
import threading
import warnings
from typing import Any, Iterable, Mapping, Optional, Tuple

from . import _native
from .errors import PlanWarning, ResolutionError
from .registry import Registry, load_plugins
from .resolver import Resolver
from .specs import ReplacementSpec, StrategySpec

#: The framework CP attention strategy kind.
CP_ATTENTION_KIND = "cp_attention"

__all__ = [
    "CP_ATTENTION_KIND",
    "declaration_summary",
    "external_state_classes_for",
    "interface_component_class",
    "replacement_spec_for",
    "strategy_spec_for",
]

_OPTION_TYPES = (type(None), bool, int, float, str)


#: The most answers the memo keeps, as many as the core's own cache; past it the oldest goes first.
_MEMO_CAPACITY = 4096


class _State:
    """One resolver and the one memo of the answers it gave, keyed by the call as made and ending with
    the kind of question (``_REPLACEMENT``, ``_STRATEGY``, ``_INTERFACE``). Replaced as a whole, so a
    lookup racing with ``use_registry`` stores into the state it read from, never into the new one."""

    __slots__ = ("resolver", "answers", "lock")

    def __init__(self, resolver: Optional[Resolver]):
        self.resolver = resolver
        self.answers = {}
        self.lock = threading.Lock()  # taken to store, never to read


_UNKNOWN = object()
_REPLACEMENT = "replace_module"
_STRATEGY = "strategy"
_INTERFACE = "interface"


_state = _State(None)
_state_lock = threading.Lock()


def use_registry(registry: Registry, *, strict: bool = False, allow_partial: bool = False) -> None:
    """Answer every later call from ``registry`` (``famspec.load_plugins(...)``); clears the caches.
    A registry in which a plugin failed is refused (``famspec.PartialRegistryError``) unless
    ``allow_partial=True`` is given here or was given to ``load_plugins``."""
    global _state
    resolver = Resolver(registry, strict=strict, allow_partial=allow_partial)
    with _state_lock:
        _state = _State(resolver)


def _loaded() -> _State:
    global _state
    state = _state
    if state.resolver is None:
        with _state_lock:
            if _state.resolver is None:
                _state = _State(Resolver(load_plugins()))
            state = _state
    return state


def _optional_text(name: str, value: Any) -> Optional[str]:
    """A str argument or None, as a plain str: the memo's keys are plain, so that only an equal text
    finds an answer (a str subclass may define its own equality)."""
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{name} must be str or None, got {type(value).__name__}")
    return None if value is None else str.__str__(value)


def _target(value: Any) -> Tuple[Optional[str], Optional[dict]]:
    """(path, static options) of a target: a str, None, or a mapping with ``_target_`` or ``target``."""
    if value is None or isinstance(value, str):
        return _optional_text("target", value), None
    if not isinstance(value, Mapping):
        raise TypeError(f"target must be str, None or a mapping with '_target_', got {type(value).__name__}")
    path = value.get("_target_") or value.get("target")
    if not path:
        return None, None
    if not isinstance(path, str):
        raise TypeError(f"target '_target_' must be str, got {type(path).__name__}")
    path = str.__str__(path)
    # Counted before any is read: a call's size is bounded (the native layer checks the same figure).
    given = len(value) - ("_target_" in value) - ("target" in value)
    if given > _native.MAX_OPTIONS_PER_CALL:
        raise ValueError(f"target {path!r}: {given} options, more than the {_native.MAX_OPTIONS_PER_CALL} one call "
                         "may give")
    options = {}
    for name, option in value.items():
        if name in ("_target_", "target"):
            continue
        if not isinstance(name, str):
            raise TypeError(f"target {path!r}: option names must be str, got {type(name).__name__}")
        if not isinstance(option, _OPTION_TYPES):
            raise TypeError(f"target {path!r}: option {name!r} must be None, bool, int, float or str, "
                            f"got {type(option).__name__}")
        options[name] = option
    return path, options


def _key(path: str, options: Optional[dict], *rest) -> tuple:
    """The memo's key. Option values are keyed by type and spelling as well as by value: ``1``, ``1.0``
    and ``True`` are equal in Python but render differently, as do ``0.0`` and ``-0.0``, and a NaN is
    equal to nothing, not even itself."""
    if options is None:
        return (path, *rest)
    spelled = tuple((name, type(value), repr(value)) for name, value in sorted(options.items()))
    return (path, spelled, *rest)


def _answer(resolution, target: str):
    if resolution.status == "resolved":
        return resolution.value
    if resolution.status == "error":
        raise ResolutionError(f"{target}: {resolution.reason}", target)
    return None


def _remember(state: _State, key: tuple, target: str, resolve):
    """The memo's answer for key, else resolve() once; not covered (None) is kept, errors are not."""
    answers = state.answers
    answer = answers.get(key, _UNKNOWN)  # one read: another thread may evict the key at any time
    if answer is not _UNKNOWN:
        return answer
    answer = _answer(resolve(), target)
    with state.lock:
        while len(answers) >= _MEMO_CAPACITY:
            del answers[next(iter(answers))]
        answers[key] = answer
    return answer


def clear_cache() -> None:
    """Forget every answer: the memo and the resolver's cache (the reference's caches have no such call;
    ``use_registry`` clears them too)."""
    state = _state
    with state.lock:
        state.answers.clear()
    if state.resolver is not None:
        state.resolver.clear_cache()


# The memo's fast path answers only a call made of exactly the types the slow path checks and stores
# (plain str or None, a bool): anything else, an int 1 equal to True or a str subclass among them, takes
# the slow path and its checks, as on a fresh process.
def _plain(value: Any) -> bool:
    return value is None or type(value) is str


def replacement_spec_for(target: Any, model_type: Optional[str] = None, *,
                         module_type: Optional[str] = None) -> Optional[ReplacementSpec]:
    """The ``ReplacementSpec`` a ``replace_module`` target stands for, or ``None``."""
    if type(target) is str and _plain(model_type) and _plain(module_type):
        answer = _state.answers.get((target, model_type, module_type, _REPLACEMENT), _UNKNOWN)
        if answer is not _UNKNOWN:
            return answer
    return _replacement(target, model_type, module_type)


def _replacement(target, model_type, module_type):
    path, options = _target(target)
    model_type = _optional_text("model_type", model_type)
    module_type = _optional_text("module_type", module_type)
    if path is None:
        return None
    state = _loaded()
    return _remember(state, _key(path, options, model_type, module_type, _REPLACEMENT), path,
                     lambda: state.resolver._replacement(path, model_type, module_type, options))


def strategy_spec_for(target: Any, model_type: Optional[str] = None, *,
                      inner_wrapper: bool = False) -> Optional[StrategySpec]:
    """The ``StrategySpec`` a ``local_compute_fn`` (or, with ``inner_wrapper=True``, an ``inner_wrapper``)
    target stands for, or ``None``."""
    if type(target) is str and _plain(model_type) and type(inner_wrapper) is bool:
        answer = _state.answers.get((target, model_type, inner_wrapper, _STRATEGY), _UNKNOWN)
        if answer is not _UNKNOWN:
            return answer
    return _strategy(target, model_type, inner_wrapper)


def _strategy(target, model_type, inner_wrapper):
    path, options = _target(target)
    model_type = _optional_text("model_type", model_type)
    if not isinstance(inner_wrapper, bool):
        raise TypeError(f"inner_wrapper must be a bool, got {type(inner_wrapper).__name__}")
    if path is None:
        return None
    state = _loaded()
    slot = "inner_wrapper" if inner_wrapper else "local_compute_fn"
    return _remember(state, _key(path, options, model_type, inner_wrapper, _STRATEGY), path,
                     lambda: state.resolver._strategy(path, model_type, slot, options))


def interface_component_class(model_type: Optional[str]) -> Optional[str]:
    """The component class a family's factories render (one hands over an interface), or ``None``."""
    model_type = _optional_text("model_type", model_type)
    if not model_type:
        return None
    state = _loaded()
    return _remember(state, (model_type, _INTERFACE), model_type,
                     lambda: state.resolver.interface_component_class(model_type))


def _records(name: str, records: Optional[Iterable[Mapping[str, Any]]]):
    if records is None:
        return ()
    if isinstance(records, (str, bytes, Mapping)):
        raise TypeError(f"{name} must be an iterable of mappings, got {type(records).__name__}")
    try:
        records = tuple(records)
    except TypeError:
        raise TypeError(f"{name} must be an iterable of mappings, got {type(records).__name__}") from None
    for record in records:
        if not isinstance(record, Mapping):
            raise TypeError(f"{name}: every record must be a mapping, got {type(record).__name__}")
    return records


def _heed_keys(records) -> None:
    """The plan reader's word on each key of the override records (``overrides[i]`` for a place), as a
    ``PlanWarning``. A near miss of a slot key, which ``famspec check`` and ``parse_plan`` refuse,
    only warns here: the drop-in answers as the upstream module does on every rank, and a raise
    there would stop the job where upstream runs."""
    for index, record in enumerate(records):
        for key in record:
            word = _native.unread_entry_key(key) if isinstance(key, str) else None
            if word is not None:
                warnings.warn(PlanWarning(f"overrides[{index}]", 0, 0, word["message"]), stacklevel=3)


def external_state_classes_for(model_type: Optional[str],
                               injections: Optional[Iterable[Mapping[str, Any]]] = None) -> Tuple[str, ...]:
    """Classes whose ``forward`` an inline strategy body replaces, sorted, each once."""
    model_type = _optional_text("model_type", model_type)
    pairs = [_target(record.get("local_compute_fn")) for record in _records("injections", injections)]
    if not pairs:
        return ()
    return _loaded().resolver.external_state_classes(model_type, pairs)


def declaration_summary(model_type: Optional[str],
                        overrides: Optional[Iterable[Mapping[str, Any]]] = None) -> dict:
    """``{"replacement_specs": {target: asdict(spec) or None}, "strategy_specs": {...}}`` for the
    targets of an override set; a later entry with the same target overwrites an earlier one. A key
    famspec does not read warns (``famspec.PlanWarning``), a near miss of a slot key
    (``replace_modul``, whose target is left out) included."""
    _optional_text("model_type", model_type)
    records = _records("overrides", overrides)
    _heed_keys(records)
    replacement_specs = {}
    strategy_specs = {}
    for entry in records:
        replace = entry.get("replace_module")
        path, _ = _target(replace)
        if path is not None:
            spec = replacement_spec_for(replace, model_type, module_type=entry.get("module_type"))
            replacement_specs[path] = dataclasses.asdict(spec) if spec is not None else None
        for slot, inner in (("local_compute_fn", False), ("inner_wrapper", True)):
            value = entry.get(slot)
            path, _ = _target(value)
            if path is not None:
                spec = strategy_spec_for(value, model_type, inner_wrapper=inner)
                strategy_specs[path] = dataclasses.asdict(spec) if spec is not None else None
    return {"replacement_specs": replacement_specs, "strategy_specs": strategy_specs}
