from typing import Any, Dict, Iterable, List, Optional

from .registry import Registry
from .resolver import Summary

class ProvenanceMismatch(RuntimeError):
    differences: List[str]
    def __init__(self, differences: Iterable[str]) -> None: ...

def provenance(registry: Optional[Registry] = None, summary: Optional[Summary] = None) -> Dict[str, Any]: ...
def check_provenance(stored: Dict[str, Any], registry: Optional[Registry],
                     summary: Optional[Summary] = None) -> None: ...
