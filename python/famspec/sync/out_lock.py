"""One sync at a time in an OUT. Two syncs into one OUT would each remove the staging directory the
other is writing (journal.py removes a killed sync's leftovers) and plan from files the other is
replacing; so a sync holds an advisory lock (``flock``) on the OUT directory from before it completes
an earlier write until its own is done, and a second one waits for it. ``--check`` holds a shared
lock: checks run side by side, and none reads OUT halfway through a write."""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path
from typing import Iterator

from .errors import SyncError


def _made(out: Path) -> list[Path]:
    """Creates OUT and the folders above it that are missing; returns those it created, deepest last."""
    missing = []
    for folder in (out, *out.parents):
        if os.path.lexists(folder):
            break
        missing.append(folder)
    made = []
    for folder in reversed(missing):
        try:
            os.mkdir(folder)
        except FileExistsError:
            continue  # another sync made it first: it is not ours to remove
        made.append(folder)
    return made


def _open_locked(out: Path, operation: int, create: bool) -> int | None:
    """A descriptor of the OUT directory holding the lock (None when OUT is not there to check). Tried
    again when OUT was removed or replaced while this sync waited: the lock must be on the directory
    that OUT names now."""
    while True:
        try:
            fd = os.open(out, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except NotADirectoryError:
            raise SyncError(f"--out {out}: not a directory; nothing was written") from None
        except FileNotFoundError:
            if not create:
                return None
            if os.path.islink(out):
                raise SyncError(f"--out {out}: a symbolic link that leads nowhere; nothing was written") from None
            _made(out)
            continue
        try:
            fcntl.flock(fd, operation)
            held, named = os.fstat(fd), os.stat(out)
        except FileNotFoundError:
            os.close(fd)
            continue
        except OSError as error:
            os.close(fd)
            raise SyncError(f"--out {out}: cannot be locked against another sync writing it ({error.strerror}); "
                            "nothing was written") from None
        if (held.st_dev, held.st_ino) == (named.st_dev, named.st_ino):
            return fd
        os.close(fd)


@contextlib.contextmanager
def held(out: Path, shared: bool) -> Iterator[None]:
    """The lock on OUT for the block: exclusive to write, shared to check. A write creates OUT first,
    and removes the folders it created when the block fails with them still empty; a check of an OUT
    that does not exist locks nothing."""
    made = [] if shared else _made(out)
    fd = _open_locked(out, fcntl.LOCK_SH if shared else fcntl.LOCK_EX, create=not shared)
    try:
        yield
    except BaseException:
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                os.rmdir(folder)  # only while still empty: nothing of anyone else's is removed
        raise
    finally:
        if fd is not None:
            os.close(fd)
