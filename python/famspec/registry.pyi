import os
from typing import Callable, Iterable, Optional, Tuple, Union

from . import _native

def default_plugin_directory() -> str: ...

class PluginRecord:
    name: str
    version: str
    path: str
    status: str
    stage: Optional[str]
    message: str
    families: Tuple[str, ...]
    abi: str
    build_id: str
    paths: Tuple[str, ...]
    notes: Tuple[str, ...]
    def __init__(self, name: str, version: str, path: str, status: str, stage: Optional[str], message: str,
                 families: Tuple[str, ...], abi: str, build_id: str, paths: Tuple[str, ...],
                 notes: Tuple[str, ...]) -> None: ...
    def __hash__(self) -> int: ...

class Registry:
    def __init__(self, native: _native.Registry, *, allow_partial: bool = False) -> None: ...
    @property
    def plugins(self) -> Tuple[PluginRecord, ...]: ...
    @property
    def all_ok(self) -> bool: ...
    @property
    def allow_partial(self) -> bool: ...
    @property
    def failures(self) -> Tuple[PluginRecord, ...]: ...
    @property
    def families(self) -> Tuple[str, ...]: ...
    def snapshot(self) -> str: ...
    def describe(self) -> str: ...

_Path = Union[str, "os.PathLike[str]"]

def load_plugins(paths: Union[_Path, Iterable[_Path], None] = None, *,
                 log: Optional[Callable[[str, str], None]] = None, allow_partial: bool = False) -> Registry: ...
