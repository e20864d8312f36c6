"""famspec: what each target of a distributed-training plan stands for, answered by family plugins.

``famspec.framework_spec`` is a drop-in for the runtime's own resolver module; the rest is the
rich API: ``load_plugins`` -> ``Registry``; ``Resolver(registry)`` -> ``Resolution``;
``parse_plan`` -> ``Plan``; ``Resolver.summary(plan)`` -> ``Summary``.

Importing famspec loads the core library only: no plugin, no torch, nothing of the runtime. The
names below that are not needed to load plugins are imported on first use, so that a job's start-up
pays only for what it calls.
"""

from . import _native
from .registry import PluginRecord, Registry, default_plugin_directory, load_plugins

__version__ = _native.version
#: The plugin ABI (major.minor) this core loads.
ABI = _native.abi

_LAZY = {
    "Explanation": "resolver",
    "ImportPatch": "specs",
    "ModuleSnippetPatch": "specs",
    "Plan": "plan",
    "PlanError": "errors",
    "ReplacementSpec": "specs",
    "Resolution": "resolver",
    "ResolutionError": "errors",
    "Resolver": "resolver",
    "StrategySpec": "specs",
    "Summary": "resolver",
    "SummaryEntry": "resolver",
    "parse_plan": "plan",
}

__all__ = sorted(["ABI", "PluginRecord", "Registry", "default_plugin_directory", "load_plugins", *_LAZY])


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'famspec' has no attribute {name!r}")
    value = getattr(__import__(f"{__name__}.{module}", fromlist=[name]), name)
    globals()[name] = value
    return value


def __dir__():
    return __all__
