"""Why ``famspec sync`` writes nothing: bad input (exit 2), or a form in the source it cannot read (exit 1)."""


class SyncError(Exception):
    """Bad input: nothing is written, the command exits 2 with the message."""

    exit_code = 2


class SyncUnreadable(SyncError):
    """The source is readable Python, but a registration is written in a form sync does not follow:
    nothing is written, the command exits 1 with the file:line and why."""

    exit_code = 1
