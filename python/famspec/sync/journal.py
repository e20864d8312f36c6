"""The write of OUT as one step. Everything a sync writes is staged first in a temporary directory
inside OUT (the same filesystem), with a journal of where each file goes and what it replaces;
renaming that directory to OUT/.famspec-sync-pending commits the write, and only then are the files
moved into place. A sync killed before the commit leaves the old project (and a temporary directory,
which the next sync removes); one killed after it leaves a pending write, which the next sync
completes before it plans its own. So whatever the moment of the kill, the next sync finds the old
project or the new one, never a mix it would refuse."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import tempfile
from pathlib import Path

from .errors import SyncError
from .project import ASSET, STATE, check_inside

PENDING = ".famspec-sync-pending"
# The prefix of a staging directory (and of the temporary files older versions of sync wrote).
_STAGING = ".famspec-sync-tmp."
_JOURNAL = "journal.json"
_PROJECT_FILES = ("CMakeLists.txt", "plugin.cpp", STATE)
_STAGED_NAME = re.compile(r"[0-9]+\Z")
_DIGEST = re.compile(r"[0-9a-f]{64}\Z")


def _file_digest(path: Path) -> str | None:
    """The SHA-256 of a file's bytes, or None when there is none."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return None


def _order(rel: str) -> tuple[int, str]:
    """Assets, then the project files, then the state file: the order the files are moved in."""
    return (2 if rel == STATE else 0 if rel.startswith("python/") else 1, rel)


def _remove_leftovers(out: Path) -> None:
    """A staging directory a sync killed before its commit left, and a temporary file of an older sync."""
    for directory in (out, out / "python"):
        try:
            names = os.listdir(directory)
        except (FileNotFoundError, NotADirectoryError):
            continue
        for name in names:
            if not name.startswith(_STAGING):
                continue
            path = directory / name
            mode = os.lstat(path).st_mode
            if stat.S_ISDIR(mode) and directory == out:
                shutil.rmtree(path)  # never follows a link inside it
            elif stat.S_ISREG(mode):
                path.unlink()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_file(path: Path, text: str) -> None:
    """One file of a project, as every writer of one writes it: UTF-8, the lines as given, mode 0644
    less the umask."""
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
    os.chmod(path, 0o644 & ~_umask())


def _stage(out: Path, files: dict[str, str], changes: list[str], stale: list[str]) -> tuple[Path, list[dict]]:
    """The staging directory, holding each changed file and the journal; nothing in OUT is replaced yet."""
    out.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=_STAGING, dir=out))
    entries = []
    try:
        for index, rel in enumerate(changes):
            staged = staging / str(index)
            write_file(staged, files[rel])
            entries.append({"file": rel, "staged": staged.name, "before": _file_digest(out / rel)})
        # Stale assets go before the state file that stops naming them.
        at = len(entries) - (1 if entries and entries[-1]["file"] == STATE else 0)
        entries[at:at] = [{"file": rel, "staged": None, "before": _file_digest(out / rel)} for rel in stale]
        (staging / _JOURNAL).write_text(json.dumps({"entries": entries}, indent=1) + "\n", encoding="utf-8")
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return staging, entries


def _text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def write(out: Path, files: dict[str, str], stale: list[str]) -> list[str]:
    """Writes the changed files and deletes the stale ones as one step; returns what changed."""
    if out.exists() and not out.is_dir():
        raise SyncError(f"--out {out}: not a directory")
    if unfinished(out):
        raise SyncError(f"{out / PENDING} appeared while sync was planning: run sync again; nothing was written")
    try:
        _remove_leftovers(out)
        changes = [rel for rel in sorted(files, key=_order) if _file_digest(out / rel) != _text_digest(files[rel])]
        if not changes and not stale:
            return []
        staging, entries = _stage(out, files, changes, stale)
        os.rename(staging, out / PENDING)  # the commit: from here on, the next sync completes this write
    except OSError as error:
        raise SyncError(f"--out {out}: cannot write: {error}; nothing was written") from None
    _apply(out, out / PENDING, entries)
    return sorted(entry["file"] for entry in entries)


def _apply(out: Path, pending: Path, entries: list[dict]) -> None:
    """Moves each staged file into place and deletes each stale file, then removes the pending write.
    A file still staged must hold what it held when it was staged: an edit since is refused, whole."""
    for entry in entries:
        target = out / entry["file"]
        moved = entry["staged"] is not None and not os.path.lexists(pending / entry["staged"])
        # What it held when the write was staged, or nothing (deleted already, or moved away by hand).
        if not moved and _file_digest(target) not in (entry["before"], None):
            raise SyncError(f"{target} changed since sync staged the write in {pending}: move it away to let "
                            f"sync complete that write, or remove {pending} to drop it; nothing was written")
    for entry in entries:
        target = out / entry["file"]
        if entry["staged"] is None:
            if os.path.lexists(target):
                target.unlink()
            continue
        staged = pending / entry["staged"]
        if os.path.lexists(staged):
            target.parent.mkdir(exist_ok=True)
            os.replace(staged, target)
    os.unlink(pending / _JOURNAL)
    os.rmdir(pending)


def unfinished(out: Path) -> bool:
    """Whether OUT holds a committed write that is not yet complete."""
    return os.path.lexists(out / PENDING)


def finish(out: Path) -> list[str]:
    """Completes the write a killed sync committed (the files it had left to move); returns them."""
    pending = out / PENDING
    try:
        mode = os.lstat(pending).st_mode
    except FileNotFoundError:
        return []
    except OSError as error:
        raise SyncError(f"{pending}: cannot be examined: {error}; nothing was written") from None
    if not stat.S_ISDIR(mode):
        raise SyncError(f"{pending} is not a write sync left (not a directory): remove it; nothing was written")
    if not os.path.lexists(pending / _JOURNAL) and not os.listdir(pending):
        os.rmdir(pending)  # killed after its last step
        return []
    entries = _journal(out, pending)
    left = [e["file"] for e in entries
            if os.path.lexists(out / e["file"] if e["staged"] is None else pending / e["staged"])]
    _apply(out, pending, entries)
    return sorted(left)


def _journal(out: Path, pending: Path) -> list[dict]:
    """The pending write's entries. Untrusted, as the state file is: each names a file sync writes,
    reached without a link, and a staged file that is a regular file in the pending directory."""
    path = pending / _JOURNAL

    def refused(why: str) -> SyncError:
        return SyncError(f"{path}: {why}: remove {pending} to drop the unfinished write; nothing was written")

    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            raise refused("not a regular file")
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as error:
        raise refused(f"cannot be read ({error})") from None
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise refused("holds no list of entries")
    for entry in entries:
        if not isinstance(entry, dict) or set(entry) != {"file", "staged", "before"}:
            raise refused(f"{entry!r} is not an entry sync writes")
        rel, staged, before = entry["file"], entry["staged"], entry["before"]
        if not isinstance(rel, str) or not (rel in _PROJECT_FILES or ASSET.match(rel)):
            raise refused(f"names {rel!r}, which is no file sync writes")
        if staged is None and not ASSET.match(rel):
            raise refused(f"deletes {rel!r}, which is no asset sync writes")
        if staged is not None and not (isinstance(staged, str) and _STAGED_NAME.match(staged)):
            raise refused(f"stages {rel!r} as {staged!r}, which is no name sync stages under")
        if not (before is None or isinstance(before, str) and _DIGEST.match(before)):
            raise refused(f"gives {before!r} as what {rel!r} held, which is no SHA-256")
        if staged is not None and os.path.lexists(pending / staged) and \
                not stat.S_ISREG(os.lstat(pending / staged).st_mode):
            raise refused(f"{pending / staged} is not a regular file")
        check_inside(out, rel)
    return entries
