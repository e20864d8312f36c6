"""OUT as files: the generated regions merged into what is there, the assets sync wrote before
(recorded with their digests in OUT/.famspec-sync.json) and ``--check``'s diff; planning refuses before
anything is touched when the write would overwrite an author's work. The write is journal.py's."""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
import stat
from pathlib import Path

from . import render
from .errors import SyncError
from .model import FamilySource, FrameworkSource

STATE = ".famspec-sync.json"
# The only files the state may name: the assets render.asset_names() gives (python/<C++ name>.py).
ASSET = re.compile(r"python/[A-Za-z][A-Za-z0-9_]*\.py\Z")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as error:
        raise SyncError(f"{path}: cannot be read: {error}") from None


def _merge(path: Path, parts: tuple[str, str, str], kept_tail=None) -> str:
    """The new file: the existing text around the region, or the default around it for a new file.
    ``kept_tail(path, existing, default)`` may replace the existing text after the region."""
    before, region, after = parts
    existing = _read(path)
    if existing is None:
        return before + region + after
    lines = existing.splitlines(keepends=True)
    begins = [i for i, line in enumerate(lines) if render.BEGIN in line]
    ends = [i for i, line in enumerate(lines) if render.END in line]
    if len(begins) != 1 or len(ends) != 1 or ends[0] < begins[0]:
        raise SyncError(
            f"{path} exists and does not hold exactly one region between '{render.BEGIN}' and '{render.END}': "
            "refusing to overwrite it (move it away, or restore the markers)"
        )
    after = "".join(lines[ends[0] + 1 :])
    return "".join(lines[: begins[0]]) + region + (kept_tail(path, after, parts[2]) if kept_tail else after)


def check_inside(out: Path, rel: str) -> None:
    """OUT/rel is a regular file (or nothing yet) reached without a symbolic link below OUT: sync never
    reads, writes or deletes through a link, whatever it points at."""
    path = out
    for part in Path(rel).parts:
        path = path / part
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            return
        except OSError as error:
            raise SyncError(f"{path}: cannot be examined: {error}") from None
        if stat.S_ISLNK(mode):
            raise SyncError(f"{path} is a symbolic link: sync writes only regular files under --out {out}, never "
                            "through a link; remove it; nothing was written")
        if path != out / rel and not stat.S_ISDIR(mode):
            raise SyncError(f"{path} is not a directory; nothing was written")
        if path == out / rel and not stat.S_ISREG(mode):
            raise SyncError(f"{path} is not a regular file: sync will not replace it; nothing was written")


def planned(out: Path, family: FamilySource | FrameworkSource) -> tuple[dict[str, str], list[str]]:
    """Every file sync would leave in OUT (relative path -> text), and the stale assets it would delete."""
    render.asset_names(family.embedded())
    for rel in ("CMakeLists.txt", "plugin.cpp", STATE):
        check_inside(out, rel)
    version = render.kept_version(_read(out / "plugin.cpp"), family)
    files = {
        "CMakeLists.txt": _merge(out / "CMakeLists.txt", render.cmake_file(family, version)),
        "plugin.cpp": _merge(out / "plugin.cpp", render.plugin_file(family, version), render.kept_tail),
    }
    assets = render.assets(family)
    for rel in assets:
        check_inside(out, rel)
    files.update(assets)
    previous = _state(out)
    recorded = previous.get("files", {})
    for rel, text in assets.items():
        current = _read(out / rel)
        if current is not None and current != text and recorded.get(rel) != _digest(current):
            raise SyncError(f"{out / rel} was not written by sync (or was edited since): refusing to overwrite it")
    stale = []
    for rel, digest in sorted(recorded.items()):
        if rel in assets:
            continue
        current = _read(out / rel)
        if current is None:
            continue
        if _digest(current) != digest:
            raise SyncError(f"{out / rel} is no longer generated but was edited since sync wrote it: move it away")
        stale.append(rel)
    files[STATE] = json.dumps(
        {"generated_by": "famspec sync", "family": family.model_type,
         "files": {rel: _digest(text) for rel, text in sorted(assets.items())}},
        indent=2, sort_keys=True,
    ) + "\n"
    return files, stale


def _state(out: Path) -> dict:
    text = _read(out / STATE)
    if text is None:
        return {}
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise SyncError(f"{out / STATE} is not JSON: restore it or remove it") from None
    if not isinstance(data, dict):
        return {}
    # Untrusted: an entry is a file sync deletes when it is no longer generated, so only an asset name
    # sync itself gives is taken; anything else (`../x`, an absolute path) is refused, never touched.
    files = data.get("files", {})
    if not isinstance(files, dict):
        raise SyncError(f"{out / STATE}: 'files' is not an object: restore it or remove it; nothing was written")
    for rel, digest in files.items():
        if not isinstance(rel, str) or not ASSET.match(rel) or not isinstance(digest, str):
            raise SyncError(f"{out / STATE}: names {rel!r}, which is no asset sync writes (python/<name>.py): "
                            "restore it or remove it; nothing was written")
        check_inside(out, rel)
    return data


def diff(out: Path, files: dict[str, str], stale: list[str]) -> str:
    """A unified diff from what OUT holds to what sync would write ('' when they agree)."""
    chunks = []
    for rel in sorted(files):
        if rel == STATE:
            continue
        old = _read(out / rel)
        new = files[rel]
        if old != new:
            chunks += difflib.unified_diff(
                (old or "").splitlines(keepends=True), new.splitlines(keepends=True),
                fromfile=f"a/{rel}" if old is not None else "/dev/null", tofile=f"b/{rel}",
            )
    for rel in stale:
        old = _read(out / rel) or ""
        chunks += difflib.unified_diff(old.splitlines(keepends=True), [], fromfile=f"a/{rel}", tofile="/dev/null")
    return "".join(c if c.endswith("\n") else c + "\n" for c in chunks)
