"""famspec._native: the pybind11 extension over the core (use the famspec package, not this module).

Every result crosses as a dict keyed by field name, described here; the package builds its public
classes from them."""

from typing import Callable, Dict, List, Optional, Sequence, Tuple, TypedDict, Union

version: str
abi: str

OptionValue = Union[None, bool, int, float, str]

class ImportPatchFields(TypedDict):
    module: str
    names: Tuple[str, ...]
    raw: Optional[str]

class SnippetFields(TypedDict):
    text: str

class ReplacementSpecFields(TypedDict):
    old_ctor: str
    new_ctor: str
    imports: Tuple[ImportPatchFields, ...]
    mode: str
    keyword_args: Tuple[str, ...]
    snippets: Tuple[SnippetFields, ...]
    remove_class: bool
    replacement_note: Optional[str]

class StrategySpecFields(TypedDict):
    kind: str
    imports: Tuple[ImportPatchFields, ...]
    target_class: Optional[str]
    method_name: str
    body_template: Optional[str]
    snippets: Tuple[SnippetFields, ...]
    strip_boundary_subpatterns: Tuple[str, ...]

class DeclaredByFields(TypedDict):
    role: str
    name: str
    plugin: str

class ExplanationFields(TypedDict):
    spellings_tried: Tuple[str, ...]
    family: str
    plugin: str
    channel: str
    cache_hit: bool
    rule: str
    declared_by: Tuple[DeclaredByFields, ...]

class DiagnosticFields(TypedDict):
    kind: str
    message: str
    suggestion: Optional[str]

class ResolutionFields(TypedDict):
    status: str
    value: Union[ReplacementSpecFields, StrategySpecFields, str, None]
    reason: str
    gap: Optional[str]
    diagnostics: List[DiagnosticFields]
    explanation: ExplanationFields

class PlanTarget(TypedDict):
    slot: str
    target: str
    options: Dict[str, OptionValue]
    module_type: Optional[str]
    line: int
    column: int

class PlanErrorFields(TypedDict):
    file: str
    line: int
    column: int
    message: str

class PlanParse(TypedDict):
    plan: Optional[Plan]
    errors: List[PlanErrorFields]

class SummaryEntryFields(TypedDict):
    slot: str
    target: str
    module_type: Optional[str]
    status: str
    value: Union[ReplacementSpecFields, StrategySpecFields, None]
    reason: str
    gap: Optional[str]
    line: int
    column: int
    diagnostics: List[DiagnosticFields]

class Comparison(TypedDict):
    error: Optional[str]
    differences: List[str]

class PluginRecordFields(TypedDict):
    name: str
    version: str
    abi: str
    path: str
    paths: Tuple[str, ...]
    build_id: str
    families: Tuple[str, ...]
    status: str
    stage: Optional[str]
    message: str
    notes: Tuple[str, ...]

class Injection(TypedDict):
    target: Optional[str]
    options: Optional[Dict[str, OptionValue]]

class PlanEntry(TypedDict):
    match: List[str]
    when: Optional[str]
    module_type: Optional[str]
    exact_type: Optional[bool]
    inner_target: Optional[str]
    replace_module: Optional[Dict[str, OptionValue]]
    local_compute_fn: Optional[Dict[str, OptionValue]]
    inner_wrapper: Optional[Dict[str, OptionValue]]
    line: int
    column: int

class PlanWarningFields(TypedDict):
    file: str
    line: int
    column: int
    message: str
    suggestion: str
    refuses: bool

class UnreadKeyFields(TypedDict):
    message: str
    suggestion: str
    refuses: bool

class Plan:
    @property
    def file(self) -> str: ...
    @property
    def model_type(self) -> Optional[str]: ...
    @property
    def architecture(self) -> Optional[str]: ...
    @property
    def model_target(self) -> Optional[str]: ...
    @property
    def targets(self) -> List[PlanTarget]: ...
    @property
    def entries(self) -> List[PlanEntry]: ...
    @property
    def reads_family(self) -> bool: ...
    @property
    def warnings(self) -> List[PlanWarningFields]: ...

def parse_plan_file(path: str) -> PlanParse: ...
def parse_plan_text(text: str, file_name: str) -> PlanParse: ...
def unread_entry_key(key: str) -> Optional[UnreadKeyFields]: ...
def plan_refusal_reason(refusing_warnings: int) -> str: ...
def target_reads_family(slot: str, target: str) -> bool: ...

MAX_OPTIONS_PER_CALL: int

class Registry:
    @property
    def generation(self) -> int: ...
    @property
    def all_ok(self) -> bool: ...
    @property
    def plugins(self) -> List[PluginRecordFields]: ...
    @property
    def families(self) -> List[str]: ...
    def describe(self) -> str: ...
    def unknown_family(self, name: str) -> Optional[str]: ...
    def snapshot(self) -> str: ...

def load_plugins(explicit_paths: List[str], environment: Optional[str], default_directory: str,
                 log: Optional[Callable[[str, str], None]]) -> Registry: ...
def compare_snapshots(stored: str, live: str) -> Comparison: ...
def compare_summaries(old_summary: str, new_summary: str) -> Comparison: ...

class Summary:
    def canonical_json(self) -> str: ...
    def digest(self) -> str: ...
    @property
    def entries(self) -> List[SummaryEntryFields]: ...

class Resolver:
    def __init__(self, registry: Registry, *, strict: bool = False) -> None: ...
    def replacement(self, target: str, model_type: Optional[str], module_type: Optional[str],
                    options: Optional[Dict[str, OptionValue]]) -> ResolutionFields: ...
    def strategy(self, target: str, model_type: Optional[str], slot: str,
                 options: Optional[Dict[str, OptionValue]]) -> ResolutionFields: ...
    def interface_component_class(self, model_type: str) -> ResolutionFields: ...
    def external_state_classes(self, model_type: Optional[str], injections: List[Injection]) -> List[str]: ...
    def summary(self, plan: Plan, model_type: Optional[str]) -> Summary: ...
    def clear_cache(self) -> None: ...

class FamilyNamesFields(TypedDict):
    model_type: str
    architecture: str
    aliases: Sequence[str]
    directory_aliases: Sequence[str]

def normalize_family_key(name: str) -> str: ...
def find_family(families: Sequence[FamilyNamesFields], spelling: str) -> Optional[int]: ...
