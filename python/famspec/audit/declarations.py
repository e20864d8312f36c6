"""Where the declarations come from: the loaded plugins' own description, or a saved copy of it."""

from __future__ import annotations

import json
import sys

from .audit import AuditError


def from_file(path: str) -> dict:
    """A description saved earlier (``Registry.describe()``); ``-`` reads standard input."""
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
        data = json.loads(text)
    except (OSError, ValueError) as error:
        raise AuditError(f"--declarations {path}: {error}") from None
    if not isinstance(data, dict) or "families" not in data:
        raise AuditError(f"--declarations {path}: not a registry description (no 'families')")
    return data


def from_plugins(plugin_paths: list[str] | None) -> dict:
    """Load the plugins as the runtime would (--plugin-path, else FAMSPEC_PLUGIN_PATH, else the default)."""
    from famspec import load_plugins

    registry = load_plugins(plugin_paths) if plugin_paths else load_plugins()
    return json.loads(registry.describe())
