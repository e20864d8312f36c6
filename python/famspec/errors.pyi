from typing import Iterable, Optional, Tuple

from .registry import PluginRecord

class PlanError(ValueError):
    file: str
    line: int
    column: int
    message: str
    errors: Tuple["PlanError", ...]
    def __init__(self, file: str, line: int, column: int, message: str, others: Tuple["PlanError", ...] = ...) -> None: ...

class PlanWarning(UserWarning):
    file: str
    line: int
    column: int
    message: str
    def __init__(self, file: str, line: int, column: int, message: str) -> None: ...

class ResolutionError(RuntimeError):
    target: Optional[str]
    message: str
    def __init__(self, message: str, target: Optional[str] = None) -> None: ...

class PartialRegistryError(RuntimeError):
    failures: Tuple[PluginRecord, ...]
    def __init__(self, failures: Iterable[PluginRecord]) -> None: ...
