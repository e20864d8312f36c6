from typing import Optional, Tuple

class PlanError(ValueError):
    file: str
    line: int
    column: int
    message: str
    errors: Tuple["PlanError", ...]
    def __init__(self, file: str, line: int, column: int, message: str, others: Tuple["PlanError", ...] = ...) -> None: ...

class ResolutionError(RuntimeError):
    target: Optional[str]
    message: str
    def __init__(self, message: str, target: Optional[str] = None) -> None: ...
