"""A project written where nothing is yet (``famspec new-family``): its files are staged in a fresh
sibling directory, which is renamed to the project's path only if nothing is there, not even an empty
directory. So the project appears whole or not at all, and a failure leaves nothing behind."""

from __future__ import annotations

import ctypes
import errno
import os
import shutil
import tempfile
from pathlib import Path

from .errors import SyncError
from .journal import write_file

_AT_FDCWD = -100
_RENAME_NOREPLACE = 1


class ProjectNotWritten(SyncError):
    """The path is taken, or cannot be created or written: the command exits 1 (bad names exit 2)."""

    exit_code = 1


def _rename_no_replace(source: Path, target: Path) -> None:
    """rename(2) that fails with EEXIST when target exists: renameat2's RENAME_NOREPLACE, or, where the C
    library or the filesystem has none, a check just before a plain rename (which would replace an empty
    directory)."""
    renameat2 = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
    if renameat2 is not None:
        if renameat2(_AT_FDCWD, os.fsencode(source), _AT_FDCWD, os.fsencode(target), _RENAME_NOREPLACE) == 0:
            return
        code = ctypes.get_errno()
        if code not in (errno.EINVAL, errno.ENOSYS):
            raise OSError(code, os.strerror(code), str(target))
    if os.path.lexists(target):
        raise OSError(errno.EEXIST, os.strerror(errno.EEXIST), str(target))
    os.rename(source, target)


def create(directory: Path, files: dict[str, str]) -> None:
    """Writes ``files`` (name -> text) as the new directory ``directory``; raises ProjectNotWritten."""
    parent = directory.parent
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{directory.name}.new-family.", dir=parent))
    except OSError as error:
        raise ProjectNotWritten(f"cannot create {directory}: {error.strerror}") from None
    try:
        for name, text in files.items():
            try:
                write_file(staging / name, text)
            except OSError:
                raise ProjectNotWritten(f"cannot write {directory / name}") from None
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(staging, 0o777 & ~mask)  # as mkdir would make it, not mkdtemp's 0700
        try:
            _rename_no_replace(staging, directory)
        except OSError as error:
            if error.errno in (errno.EEXIST, errno.ENOTEMPTY):
                raise ProjectNotWritten(f"{directory} already exists; choose another --dir or remove it") from None
            raise ProjectNotWritten(f"cannot create {directory}: {error.strerror}") from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
