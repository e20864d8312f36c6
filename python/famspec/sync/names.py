"""Which strings read from the source may become names in the generated project: a family's
model_type names the plugin, its CMake target, its assets header and a C++ variable, so it must be a
plain identifier; every other string is written as an escaped literal (cpp.string) or an inert comment
(cpp.comment)."""

from __future__ import annotations

import re

from .errors import SyncError

# No leading underscore or digit (reserved or invalid in C++ and CMake), no `__` (reserved in C++).
_FAMILY_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
# The names plugin.cpp's region declares itself: a companion family's variable must not be one.
_TAKEN = re.compile(r"(family|registrar|py|components(_[0-9]+)?)\Z")
# A Python class name, as upstream's architectures are.
_ARCHITECTURE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def check_family(model_type: str, architecture: str, site) -> None:
    """Exit 2 at the registration's file:line unless both are names the project can hold as they are."""
    if not _FAMILY_KEY.match(model_type) or "__" in model_type or _TAKEN.match(model_type):
        raise SyncError(f"{site}: model_type {model_type!r} is not a family key sync can name a plugin after "
                        "(a letter, then letters, digits and single underscores, not a name the generated "
                        "plugin.cpp uses); nothing was written")
    if not _ARCHITECTURE.match(architecture):
        raise SyncError(f"{site}: architecture {architecture!r} is not a Python class name; nothing was written")


def check_spelling(spelling: str, site) -> None:
    """An alias is a string literal in plugin.cpp; one the registry could never be asked for is refused."""
    if not spelling or "\0" in spelling or not spelling.isprintable():
        raise SyncError(f"{site}: alias {spelling!r} holds a character no model name has; nothing was written")
