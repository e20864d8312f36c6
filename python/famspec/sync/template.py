"""The family project's template files, which `famspec new-family` writes from too (scaffold.py):
sdk/templates/family/ in the sources, famspec/templates/family/ in a built or installed package. A placeholder is ``@NAME@``; each is replaced by its value in one pass (a value is
never searched for placeholders), and a line holding nothing but a placeholder whose value is empty is
left out. The caller validates or escapes every value for the place it lands in."""

from __future__ import annotations

import re
from pathlib import Path

from .errors import SyncError

_PLACEHOLDER = re.compile(r"@([A-Z_]+)@")
_PACKAGE = Path(__file__).resolve().parents[1]
# The package's own copy, else (a source checkout run without a build) the SDK's.
_DIRECTORIES = (_PACKAGE / "templates" / "family", _PACKAGE.parents[1] / "sdk" / "templates" / "family")


def directory() -> Path:
    for candidate in _DIRECTORIES:
        if (candidate / "plugin.cpp.in").is_file():
            return candidate
    raise SyncError(f"the family project templates are missing (looked in {', '.join(map(str, _DIRECTORIES))}): "
                    "reinstall famspec; nothing was written")


def substitute(text: str, values: dict[str, str], name: str) -> str:
    """``text`` (the template ``name``) with every placeholder replaced; one without a value is an error."""

    def value(match: re.Match) -> str:
        if match.group(1) not in values:
            raise SyncError(f"template {name}: {match.group(0)} has no value (the templates and famspec sync "
                            "disagree: reinstall famspec); nothing was written")
        return values[match.group(1)]

    lines = []
    for line in text.splitlines(keepends=True):
        alone = _PLACEHOLDER.fullmatch(line.rstrip("\n"))
        if alone and values.get(alone.group(1)) == "":
            continue
        lines.append(_PLACEHOLDER.sub(value, line))
    return "".join(lines)


def expand(name: str, values: dict[str, str]) -> str:
    """The template file ``name`` (e.g. "plugin.cpp.in") expanded with ``values``."""
    path = directory() / name
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise SyncError(f"{path}: cannot be read: {error}; nothing was written") from None
    return substitute(text, values, name)
