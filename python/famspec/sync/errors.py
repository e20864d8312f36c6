"""Bad input to ``famspec sync``: nothing is written, the command exits 2 with the message."""


class SyncError(Exception):
    pass
