"""famspec: what each target of a distributed-training plan stands for, answered by family plugins.

``famspec.framework_spec`` is a drop-in for the runtime's own resolver module; the rest is the
rich API: ``load_plugins`` -> ``Registry``; ``Resolver(registry)`` -> ``Resolution``;
``parse_plan`` -> ``Plan``; ``Resolver.summary(plan)`` -> ``Summary``. ``cmake_dir()`` is the
directory of ``famspecConfig.cmake`` (for ``-Dfamspec_DIR=``, to build a family plugin against this
famspec) and ``command_path()`` the ``famspec`` executable, both found relative to the package.

Importing famspec runs no plugin, imports no torch and nothing of the runtime. Every name below is
imported on first use (the core library with the first one that needs it), so that a job's
start-up pays only for what it calls. ``famspec.audit`` and ``famspec.sync`` need the extension too:
they look families up by the core's own rule (``famspec.source.family_keys``).
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
    "PlanWarning": "errors",
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
    "command_path": "_command",
    "default_plugin_directory": "registry",
    "load_plugins": "registry",
    "parse_plan": "plan",
    "provenance": "_provenance",
}

__all__ = sorted([*(name for name in _LAZY if name != "__version__"), "cmake_dir"])


def cmake_dir() -> str:
    """The directory of ``famspecConfig.cmake`` that belongs to this package (as
    ``pybind11.get_cmake_dir()``): ``cmake -Dfamspec_DIR=$(python -c 'import famspec;
    print(famspec.cmake_dir())')`` builds a family plugin against this famspec. Raises
    ``FileNotFoundError`` for a package in a build tree, which has no CMake package."""
    import os

    from . import _layout

    package = os.path.dirname(os.path.abspath(__file__))
    relative = _layout.CMAKE_DIRECTORY_FROM_PACKAGE
    directory = os.path.normpath(os.path.join(package, relative)) if relative else ""
    if not directory or not os.path.isfile(os.path.join(directory, "famspecConfig.cmake")):
        raise FileNotFoundError(f"this famspec package ({package}) has no CMake package: install it "
                                "(pip install, or cmake --install) to build plugins against it")
    return directory


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'famspec' has no attribute {name!r}")
    value = getattr(__import__(f"{__name__}.{module}", fromlist=[name]), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted([*_LAZY, "cmake_dir", "framework_spec"])
