"""famspec: what each target of a distributed-training plan stands for, answered by family plugins.

``famspec.framework_spec`` is a drop-in for the runtime's own resolver module; the rest is the
rich API: ``load_plugins`` -> ``Registry``; ``Resolver(registry)`` -> ``Resolution``;
``parse_plan`` -> ``Plan``; ``Resolver.summary(plan)`` -> ``Summary``.

Importing famspec runs no plugin, imports no torch and nothing of the runtime. Every name below is
imported on first use (the core library with the first one that needs it), so that a job's
start-up pays only for what it calls, and the pure-Python tools (``famspec.audit``) import without
the extension.
"""

_LAZY = {
    "ABI": "_version",
    "Diagnostic": "resolver",
    "Explanation": "resolver",
    "ImportPatch": "specs",
    "ModuleSnippetPatch": "specs",
    "PartialRegistryError": "errors",
    "Plan": "plan",
    "PlanError": "errors",
    "PluginRecord": "registry",
    "ProvenanceMismatch": "_provenance",
    "Registry": "registry",
    "ReplacementSpec": "specs",
    "Resolution": "resolver",
    "ResolutionError": "errors",
    "Resolver": "resolver",
    "StrategySpec": "specs",
    "Summary": "resolver",
    "SummaryEntry": "resolver",
    "__version__": "_version",
    "check_provenance": "_provenance",
    "default_plugin_directory": "registry",
    "load_plugins": "registry",
    "parse_plan": "plan",
    "provenance": "_provenance",
}

__all__ = sorted(name for name in _LAZY if name != "__version__")


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'famspec' has no attribute {name!r}")
    value = getattr(__import__(f"{__name__}.{module}", fromlist=[name]), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted([*_LAZY, "framework_spec"])
