import os
from typing import Any, Dict, List, Optional, Union

from .plan import Plan
from .registry import Registry
from .resolver import Summary

class RankDisagreement(RuntimeError):
    #: each distinct digest -> the sorted ranks that hold it
    groups: Dict[str, List[int]]
    def __init__(self, message: str, groups: Dict[str, List[int]]) -> None: ...

def agree(summary: Optional[Summary] = None, registry: Optional[Registry] = None, *,
          group: Any = None) -> Dict[str, Any]: ...
def resolve_once(plan: Union[Plan, str, "os.PathLike[str]"], registry: Registry, *, src: int = 0,
                 group: Any = None) -> Summary: ...
