"""One project brought up to date with what the source generates (or, with ``check``, compared with it):
what ``famspec sync`` does for each plugin, whether it names one or ``--all``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import journal, out_lock, project
from .model import FamilySource, FrameworkSource, Todo


@dataclass
class Outcome:
    todos: list[Todo]
    completed: list[str] = field(default_factory=list)  # files of a write an earlier, killed sync left
    changed: list[str] = field(default_factory=list)  # written (without check)
    difference: str = ""  # --check's unified diff
    unfinished: bool = False  # --check: OUT holds a committed write not yet complete

    @property
    def current(self) -> bool:
        return not (self.changed or self.difference or self.unfinished)


def apply(target: Path, source: FamilySource | FrameworkSource, check: bool) -> Outcome:
    """Writes the project into ``target`` as one step, or with ``check`` writes nothing and diffs it."""
    todos = sorted(source.todos, key=lambda t: (t.site.file, t.site.line))
    # Another sync into the same OUT waits here (out_lock.py): each plans from the project the last one
    # left, and none removes another's staging directory.
    with out_lock.held(target, shared=check):
        completed = [] if check else journal.finish(target)
        files, stale = project.planned(target, source)
        if check:
            return Outcome(todos, difference=project.diff(target, files, stale),
                           unfinished=journal.unfinished(target))
        return Outcome(todos, completed, changed=journal.write(target, files, stale))
