"""A new family's project, as ``famspec new-family`` writes it: sync's template files (template.py)
expanded for a family named on the command line, with one example factory whose target and module
type the README's resolve command and the project's test share. The project is its author's
throughout: none of sync's generated regions, amendments or clang-format fence."""

from __future__ import annotations

from . import cpp, render, template

VERSION = "0.1.0"
# The name becomes a Python package (hyper_parallel.models.<name>), a CMake target and a file name.
RESERVED = frozenset("""all clean help install package test edit_cache rebuild_cache and as assert async await break
class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise
return try while with yield match case type famspec""".split())
FILES = ("CMakeLists.txt", "plugin.cpp", "README.md")


def _lower(c: str) -> bool:
    return "a" <= c <= "z"


def _letter(c: str) -> bool:
    return _lower(c) or "A" <= c <= "Z"


def _digit(c: str) -> bool:
    return "0" <= c <= "9"


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a family's model_type and plugin name ([a-z][a-z0-9_]*), or None."""
    if not name:
        return "is empty"
    if len(name) > 64:
        return "is longer than 64 characters"
    if not _lower(name[0]):
        return "must start with a lower-case letter"
    if not all(_lower(c) or _digit(c) or c == "_" for c in name):
        return "may only contain a-z, 0-9 and '_'"
    if name.endswith("_"):
        return "must not end with '_'"
    if name in RESERVED:
        return "is a reserved word in Python or CMake"
    return None


def architecture_problem(architecture: str) -> str | None:
    """Why ``architecture`` cannot be an HF architecture name ([A-Za-z][A-Za-z0-9_]*), or None."""
    if not architecture:
        return "is empty"
    if len(architecture) > 128:
        return "is longer than 128 characters"
    if not _letter(architecture[0]):
        return "must start with a letter"
    if not all(_letter(c) or _digit(c) or c == "_" for c in architecture):
        return "may only contain letters, digits and '_'"
    return None


def camel_case(name: str) -> str:
    """acme_moe -> AcmeMoe"""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def files(name: str, architecture: str) -> dict[str, str]:
    """The project's files (name -> text, in FILES' order) of a validated name and architecture."""
    target = f"hyper_parallel.models.{name}.adapter.replacements.replace_{name}_rms_norm"
    module_type = f"transformers.models.{name}.modeling_{name}.{camel_case(name)}RMSNorm"
    values = {
        "FAMILY": name,
        "ARCHITECTURE": architecture,
        "CLASS": camel_case(name),
        "FAMSPEC_VERSION": render.famspec_version(),
        "VERSION": VERSION,
        "WRITTEN_BY": "written by `famspec new-family`",
        "ABOUT": "written by `famspec new-family`.\n// Each declaration below maps to one resolution channel; see "
                 "docs/plugin-authors.md in the famspec sources.",
        # sync's generated regions; this project is its author's throughout.
        "BEGIN_REGION": "", "END_REGION": "", "AMENDMENTS": "", "CLANG_FORMAT_ON": "", "ASSETS": "",
        "ASSETS_INCLUDE": "",
        "PLUGIN_NAME": cpp.string(name),
        "PLUGIN_VERSION": cpp.string(VERSION),
        "PLUGIN_DESCRIPTION": cpp.string(f"{camel_case(name)} family"),
        "RESOLVE_TARGET": target,
        "MODULE_TYPE": module_type,
        "TEST_PURPOSE": "the README's resolve command, which fails unless the example factory resolves",
        "TEST_NAME": f"resolve_{name}_rms_norm",
        "TEST_COMMAND": f"resolve --target {target}\n            --module-type {module_type} "
                        "--plugin-path ${CMAKE_BINARY_DIR}/plugins",
    }
    # The placeholder's line ends the declarations.
    values["DECLARATIONS"] = template.expand("example_declarations.cpp.in", values).removesuffix("\n")
    return {file: template.expand(f"{file}.in", values) for file in FILES}
