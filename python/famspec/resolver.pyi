import os
from typing import Any, Iterable, Mapping, Optional, Tuple, Union

from .plan import Plan
from .registry import Registry
from .specs import ReplacementSpec, StrategySpec

SLOTS: Tuple[str, str, str]

class Explanation:
    spellings_tried: Tuple[str, ...]
    family: str
    plugin: str
    channel: str
    cache_hit: bool
    rule: str
    #: (role, name, plugin) for each declaration the answer used.
    declared_by: Tuple[Tuple[str, str, str], ...]
    def __hash__(self) -> int: ...

class Diagnostic:
    kind: str
    message: str
    suggestion: Optional[str]
    def __hash__(self) -> int: ...

class Resolution:
    status: str
    value: Union[ReplacementSpec, StrategySpec, str, None]
    reason: str
    gap: Optional[str]
    diagnostics: Tuple[Diagnostic, ...]
    explanation: Explanation
    @property
    def resolved(self) -> bool: ...
    def __hash__(self) -> int: ...

class SummaryEntry:
    slot: str
    target: str
    module_type: Optional[str]
    status: str
    value: Union[ReplacementSpec, StrategySpec, None]
    reason: str
    gap: Optional[str]
    line: int
    column: int
    diagnostics: Tuple[Diagnostic, ...]
    def __hash__(self) -> int: ...

class Summary:
    @classmethod
    def from_canonical_json(cls, text: str) -> "Summary": ...
    def canonical_json(self) -> str: ...
    def digest(self) -> str: ...
    @property
    def entries(self) -> Tuple[SummaryEntry, ...]: ...

class Resolver:
    def __init__(self, registry: Registry, *, strict: bool = False, allow_partial: bool = False) -> None: ...
    @property
    def registry(self) -> Registry: ...
    @property
    def strict(self) -> bool: ...
    def replacement(self, target: str, model_type: Optional[str] = None, *, module_type: Optional[str] = None,
                    options: Optional[Mapping[str, Any]] = None) -> Resolution: ...
    def strategy(self, target: str, model_type: Optional[str] = None, *, slot: str = "local_compute_fn",
                 options: Optional[Mapping[str, Any]] = None) -> Resolution: ...
    def interface_component_class(self, model_type: str) -> Resolution: ...
    def external_state_classes(self, model_type: Optional[str],
                               injections: Iterable[Tuple[Optional[str], Optional[Mapping[str, Any]]]] = ()
                               ) -> Tuple[str, ...]: ...
    def summary(self, plan: Union[Plan, str, "os.PathLike[str]"], model_type: Optional[str] = None) -> Summary: ...
    def clear_cache(self) -> None: ...
