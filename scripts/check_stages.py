#!/usr/bin/env python3
"""The stage rule of core/src (docs/architecture.md): every source sits in one stage folder, a stage
holds at most 15 files, a file includes the private headers of its own stage or of the stages before
it (never of a later one, and always by "<stage>/name.hpp"), and no files include each other in a
circle (a source and its header count as one).

    check_stages.py ROOT

Prints one line per breach and exits 1, or one summary line and exits 0. Only the standard library.
"""
import os
import re
import sys

# In the order of a run: a stage may include its own headers and those of the stages before it.
STAGES = ("common", "discovery", "registry", "loading", "plan", "resolution", "output")
MAX_FILES = 15
SOURCES = (".cpp", ".hpp")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def unit(path):
    """A source and its header are one unit: core/src/plan/plan_yaml.cpp -> plan/plan_yaml."""
    return os.path.splitext(path)[0]


def check(root):
    src = os.path.join(root, "core", "src")
    problems = []
    files = {}  # "stage/name.ext" -> its text
    for name in sorted(os.listdir(src)):
        path = os.path.join(src, name)
        if os.path.isfile(path):
            problems.append(f"core/src/{name}: in no stage folder ({', '.join(STAGES)})")
        elif name not in STAGES:
            problems.append(f"core/src/{name}/: not a stage ({', '.join(STAGES)})")
    for stage in STAGES:
        folder = os.path.join(src, stage)
        names = sorted(n for n in os.listdir(folder) if n.endswith(SOURCES)) if os.path.isdir(folder) else []
        if len(names) > MAX_FILES:
            problems.append(f"core/src/{stage}/: {len(names)} files (at most {MAX_FILES})")
        for name in names:
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                files[f"{stage}/{name}"] = f.read()

    order = {stage: i for i, stage in enumerate(STAGES)}
    edges = {}
    for path, text in files.items():
        stage = path.split("/")[0]
        for included in INCLUDE.findall(text):
            if included in files:
                target = included.split("/")[0]
                if order[target] > order[stage]:
                    problems.append(f"core/src/{path}: includes {included}, of a later stage")
                if unit(included) != unit(path):
                    edges.setdefault(unit(path), set()).add(unit(included))
            elif os.path.isfile(os.path.join(src, stage, included)):
                problems.append(f"core/src/{path}: includes \"{included}\" without its stage")

    # Circles between units, by depth-first search.
    state = {}

    def visit(node, trail):
        state[node] = "open"
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == "open":
                circle = trail[trail.index(nxt):] + [nxt] if nxt in trail else [node, nxt]
                problems.append("include circle: " + " -> ".join(circle))
            elif nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node, [node])
    return problems, len(files)


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    problems, count = check(sys.argv[1])
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"core/src: {count} files in {len(STAGES)} stages, each included only by its own and later stages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
