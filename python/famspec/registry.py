"""Loading the family plugins into a frozen, thread-safe registry."""

from __future__ import annotations

import os

from . import _layout, _native
from ._record import Record

__all__ = ["PluginRecord", "Registry", "default_plugin_directory", "load_plugins"]


def default_plugin_directory() -> str:
    """The plugins of this build or install tree, found relative to the package itself."""
    package = os.path.dirname(os.path.abspath(_native.__file__))
    return os.path.normpath(os.path.join(package, _layout.PLUGIN_DIRECTORY_FROM_PACKAGE))


class PluginRecord(Record):
    """One candidate plugin file, as ``famspec list --json`` describes it: ``name``, ``version``,
    ``path``, ``status`` ("ok" or "error"), ``stage`` (the loader stage that failed, None when ok),
    ``message``, ``families``, ``abi``, ``build_id``, ``paths`` and ``notes`` (what differs from this
    famspec without changing the ABI, such as another compiler). Read-only."""

    __slots__ = ("name", "version", "path", "status", "stage", "message", "families", "abi", "build_id", "paths",
                 "notes")

    def __repr__(self):
        return f"PluginRecord(name={self.name!r}, version={self.version!r}, status={self.status!r}, path={self.path!r})"


class Registry:
    """The frozen set of loaded plugins. Immutable and safe to share between threads; holding it
    keeps the plugin libraries loaded."""

    __slots__ = ("_native", "_plugins", "_snapshot", "_allow_partial")

    def __init__(self, native, *, allow_partial: bool = False):
        if not isinstance(native, _native.Registry):
            raise TypeError("Registry objects come from famspec.load_plugins()")
        self._native = native
        self._plugins = tuple(PluginRecord(**record) for record in native.plugins)
        self._snapshot = None
        self._allow_partial = allow_partial

    @property
    def plugins(self) -> tuple[PluginRecord, ...]:
        return self._plugins

    @property
    def all_ok(self) -> bool:
        return self._native.all_ok

    @property
    def allow_partial(self) -> bool:
        """Whether ``load_plugins(..., allow_partial=True)`` made it: a ``Resolver`` on it then answers
        from the plugins that did load even when ``all_ok`` is false."""
        return self._allow_partial

    @property
    def failures(self) -> tuple[PluginRecord, ...]:
        """The records of the plugins and directories that failed, in ``plugins`` order."""
        return tuple(plugin for plugin in self._plugins if plugin.status != "ok")

    @property
    def families(self) -> tuple[str, ...]:
        """The registered model types, sorted."""
        return tuple(sorted(self._native.families))

    def snapshot(self) -> str:
        """The loaded plugin set as canonical JSON: famspec's version and ABI; per plugin its name,
        version, file sha256, GNU build-id, ABI, families and keys, status; and a ``digest`` over all of
        it except the paths. Computed once (it hashes the plugin files)."""
        if self._snapshot is None:
            self._snapshot = self._native.snapshot()
        return self._snapshot

    def describe(self) -> str:
        """Everything the loaded plugins declared, as canonical JSON (the core's describe_registry_json:
        plugins, families with their factories, wrappers and archetypes, components)."""
        return self._native.describe()

    def __repr__(self):
        ok = sum(1 for plugin in self._plugins if plugin.status == "ok")
        return f"<famspec.Registry {ok}/{len(self._plugins)} plugins ok, {len(self.families)} families>"


def _directories(paths) -> list:
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    try:
        items = list(paths)
    except TypeError:
        raise TypeError(f"paths must be a path or an iterable of paths, got {type(paths).__name__}") from None
    directories = []
    for item in items:
        if not isinstance(item, (str, os.PathLike)):
            raise TypeError(f"paths: expected str or os.PathLike, got {type(item).__name__}")
        directory = os.fspath(item)
        if not isinstance(directory, str):
            raise TypeError("paths: bytes paths are not supported")
        if not os.path.isabs(directory):
            raise ValueError(f"paths: plugin directories must be absolute, got {directory!r}")
        directories.append(directory)
    return directories


def load_plugins(paths: str | os.PathLike | Iterable[str | os.PathLike] | None = None, *,
                 log: Callable[[str, str], None] | None = None, allow_partial: bool = False) -> Registry:
    """Find, check and load the family plugins.

    ``paths``: plugin directories (absolute). Without them, ``FAMSPEC_PLUGIN_PATH`` when set, else the
    plugins of the tree this package belongs to. A plugin that fails is recorded in
    ``Registry.plugins`` with its stage and message; the others still load, but a ``Resolver`` on the
    registry refuses to answer (``PartialRegistryError``) unless ``allow_partial=True`` is given here or
    to the ``Resolver``. ``log`` receives ``(level, message)``.
    """
    directories = [] if paths is None else _directories(paths)
    if log is not None and not callable(log):
        raise TypeError("log must be callable with (level, message)")
    if not isinstance(allow_partial, bool):
        raise TypeError("allow_partial must be a bool")
    environment = os.environ.get("FAMSPEC_PLUGIN_PATH")
    native = _native.load_plugins(directories, environment, default_plugin_directory(), log)
    return Registry(native, allow_partial=allow_partial)
