import os
from typing import Union

from ._native import Plan as Plan
from ._native import PlanEntry as PlanEntry
from ._native import PlanTarget as PlanTarget

def parse_plan(path_or_text: Union[str, "os.PathLike[str]"]) -> Plan: ...
