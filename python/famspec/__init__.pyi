from ._command import command_path as command_path
from ._provenance import ProvenanceMismatch as ProvenanceMismatch
from ._provenance import check_provenance as check_provenance
from ._provenance import provenance as provenance
from .errors import PartialRegistryError as PartialRegistryError
from .errors import PlanError as PlanError
from .errors import PlanWarning as PlanWarning
from .errors import ResolutionError as ResolutionError
from .plan import Plan as Plan
from .plan import parse_plan as parse_plan
from .registry import PluginRecord as PluginRecord
from .registry import Registry as Registry
from .registry import default_plugin_directory as default_plugin_directory
from .registry import load_plugins as load_plugins
from .resolver import Diagnostic as Diagnostic
from .resolver import Explanation as Explanation
from .resolver import Resolution as Resolution
from .resolver import Resolver as Resolver
from .resolver import Summary as Summary
from .resolver import SummaryEntry as SummaryEntry
from .specs import ImportPatch as ImportPatch
from .specs import ModuleSnippetPatch as ModuleSnippetPatch
from .specs import ReplacementSpec as ReplacementSpec
from .specs import StrategySpec as StrategySpec

__version__: str
#: The plugin ABI (major.minor) this core loads.
ABI: str

def cmake_dir() -> str: ...
