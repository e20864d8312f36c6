"""``famspec sync --all``: the framework's plugin and every family's, from one tree in one run, each into
OUT/<name>, with one record per plugin (generated, unchanged or refused, and why). The framework comes
first: a family's project then declares no component the framework's declares, nor one an earlier
family's does, so each is declared by exactly one plugin of the run."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..source.source_tree import SourceTree, UnreadableSource
from . import build, family, framework, installed, outcome
from .errors import SyncError
from .model import FamilySource, FrameworkSource
from .reader import checked_root, read_family

GENERATED, UNCHANGED, REFUSED = "generated", "unchanged", "refused"
UP_TO_DATE, DIFFERS = "up_to_date", "differs"


@dataclass
class Record:
    """What the run did for one plugin."""

    name: str
    out: Path
    status: str = REFUSED
    reason: str = ""
    changed: list[str] = field(default_factory=list)
    todos: list = field(default_factory=list)
    diff: str = ""
    plugin: Path | None = None  # with --build: the plugin built into DIR
    build_error: str = ""

    @property
    def failed(self) -> bool:
        return self.status in (REFUSED, DIFFERS) or bool(self.build_error)

    def to_json(self) -> dict:
        return {"family": self.name, "out": str(self.out), "status": self.status, "reason": self.reason or None,
                "changed": self.changed,
                "todos": [{"file": t.site.file, "line": t.site.line, "subject": t.subject, "reason": t.reason}
                          for t in self.todos],
                "diff": self.diff or None, "plugin": str(self.plugin) if self.plugin else None,
                "build_error": self.build_error or None}

    def line(self) -> str:
        """The record as a line for a reader."""
        if self.status == REFUSED:
            said = f"refused: {self.reason}"
        elif self.status == GENERATED:
            said = ", ".join(self.changed) + " changed"
        else:
            said = self.status.replace("_", " ")
        if self.todos:
            said += f" ({len(self.todos)} TODO(s))"
        if self.plugin is not None:
            said += f"; built {self.plugin}"
        if self.build_error:
            said += f"; build failed: {self.build_error}"
        return f"famspec sync: {self.name} -> {self.out}: {said}"


def _families(tree: SourceTree) -> tuple[list[family.Registration], list[Record]]:
    """One registration per registration file (the family its folder is named for, else its first), and
    a refused record for each file that cannot be read."""
    found, broken = family.registrations(tree)
    owners, refused = {}, []
    for registration in found:
        if registration.directory not in owners:
            owners[registration.directory] = family.owner(tree, registration)
    for error in broken:
        parts = error.rel.split("/")
        name = parts[2] if len(parts) > 2 else error.rel
        refused.append(Record(name, Path(), reason=str(error)))
    return [owners[d] for d in sorted(owners)], refused


def _apply(record: Record, source: FamilySource | FrameworkSource, check: bool, allow_incomplete: bool) -> None:
    done = outcome.apply(record.out, source, check)
    record.todos = done.todos
    if check:
        record.status = UP_TO_DATE if done.current else DIFFERS
        record.diff = done.difference
        if done.unfinished:
            record.reason = "an earlier sync was killed before it finished writing; run famspec sync"
    else:
        record.status = GENERATED if done.changed else UNCHANGED
        record.changed = done.changed
    if record.todos and not allow_incomplete:
        record.reason = record.reason or ("the source leaves TODOs; declare them in .amendments or pass "
                                          "--allow-incomplete")


def run_all(args, out=None, err=None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    if not args.out.strip():
        raise SyncError("--out is empty: name the directory of the projects; nothing was written")
    root = checked_root(Path(args.source_root) if args.source_root else installed.source_root())
    tree = SourceTree(root)
    projects = Path(args.out)
    records = []
    described: dict = {"components": []}
    frame = Record(framework.FRAMEWORK, projects / framework.FRAMEWORK)
    try:
        source = framework.read_framework(tree)
        _apply(frame, source, args.check, args.allow_incomplete)
        described = {"components": framework.declared(source.name, source.components)}
    except (SyncError, UnreadableSource) as error:
        frame.reason = str(error)
    records.append(frame)
    owners, refused = _families(tree)
    for registration in owners:
        record = Record(registration.model_type, projects / registration.model_type)
        if frame.status == REFUSED:
            record.reason = (f"the {framework.FRAMEWORK} plugin was refused, so the components a family need not "
                             "declare are unknown; nothing was written")
            records.append(record)
            continue
        try:
            read = read_family(root, registration.model_type, described)
            _apply(record, read, args.check, args.allow_incomplete)
            described["components"] += framework.declared(read.model_type, read.components)
        except (SyncError, UnreadableSource) as error:
            record.reason = str(error)
        records.append(record)
    records += refused
    if args.build and not args.check:
        build.build_all(records, Path(args.build), err=None if args.quiet else err)
    for record in records:
        if args.json:
            json.dump(record.to_json(), out, sort_keys=True, separators=(",", ":"))
            out.write("\n")
        else:
            print(record.line(), file=out)
            if not args.quiet:
                for todo in record.todos:
                    print(f"famspec sync: TODO {todo.site}: {todo.subject}: {todo.reason}", file=err)
            if record.diff:
                out.write(record.diff)
    incomplete = any(r.todos for r in records) and not args.allow_incomplete
    return 1 if incomplete or any(r.failed for r in records) else 0
