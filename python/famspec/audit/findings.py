"""What the audit says about one declaration: ok, drift or unreadable, where, and what to do."""

from __future__ import annotations

from dataclasses import asdict, dataclass

OK = "ok"
DRIFT = "drift"
UNREADABLE = "unreadable"


@dataclass(frozen=True)
class Finding:
    status: str  # ok | drift | unreadable
    check: str  # provider_module | factory | construction | component | signature | archetype | ...
    subject: str  # the dotted target or component the finding is about
    file: str | None  # relative to the source root
    line: int | None
    declared: str  # what the plugin declares
    found: str  # what the source says
    remedy: str = ""  # one line; empty for ok
    kind: str = ""  # the precise kind of drift, e.g. parameter_renamed, factory_missing
    family: str | None = None  # model_type, or None for catalogue components
    plugin: str = ""  # the plugin that declared it
    where: str = ""  # the declaration site in the plugin source

    @property
    def position(self) -> str:
        if self.file is None:
            return "-"
        return f"{self.file}:{self.line}" if self.line else self.file

    def to_json(self) -> dict:
        return asdict(self)

    def sort_key(self):
        return (self.family or "", self.check, self.subject, self.file or "", self.line or 0)


def ok(check: str, subject: str, file: str | None, line: int | None, declared: str, found: str = "", **ctx) -> Finding:
    return Finding(OK, check, subject, file, line, declared, found or declared, "", **ctx)


def drift(check, subject, file, line, declared, found, remedy, **ctx) -> Finding:
    return Finding(DRIFT, check, subject, file, line, declared, found, remedy, **ctx)


def unreadable(check, subject, file, line, declared, found, remedy="", **ctx) -> Finding:
    return Finding(
        UNREADABLE,
        check,
        subject,
        file,
        line,
        declared,
        found,
        remedy or "read this by hand, or write it with literal names the audit can follow",
        **ctx,
    )
