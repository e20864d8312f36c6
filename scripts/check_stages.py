#!/usr/bin/env python3
"""The stage rule of core/src and core/include (docs/architecture.md): every source sits in one stage
folder, a stage holds at most 15 files, a file includes the private headers of its own stage or of
the stages before it (never of a later one, and always by "<stage>/name.hpp"), and no files include
each other in a circle (a source and its header count as one). Each public header (core/include/
famspec) has a stage too (PUBLIC below): a public header includes only public headers of its own
stage or before, and a private file only public headers of its own stage or before.

    check_stages.py ROOT

Prints one line per breach and exits 1, or one summary line and exits 0. Only the standard library.
"""
import os
import re
import sys

# In the order of a run: a stage may include its own headers and those of the stages before it.
STAGES = ("common", "discovery", "registry", "loading", "plan", "resolution", "output")
MAX_FILES = 15
# The stage of each public header: where what it declares is first needed (a type-only header of
# vocabulary that several stages speak is in the first of them) and, for a header that declares
# functions, no earlier than the stage that defines them.
PUBLIC = {
    "digest.hpp": "common",
    "expected.hpp": "common",
    "explanation.hpp": "common",
    "family_source.hpp": "common",
    "fingerprint.hpp": "common",
    "log.hpp": "common",
    "moe_vocabulary.hpp": "common",
    "names.hpp": "common",
    "plugin_record.hpp": "common",
    "resolution.hpp": "common",
    "search_origin.hpp": "common",
    "required_digests.hpp": "discovery",
    "search_path.hpp": "discovery",
    "plugin_manifest.hpp": "registry",
    "registry.hpp": "registry",
    "registry_entries.hpp": "registry",
    "plugin_loader.hpp": "loading",
    "family_suggestions.hpp": "plan",
    "plan.hpp": "plan",
    "plan_family.hpp": "plan",
    "plan_keys.hpp": "plan",
    "component_renderer.hpp": "resolution",
    "family_dependence.hpp": "resolution",
    "resolver.hpp": "resolution",
    "specs.hpp": "resolution",
    "declaration_summary.hpp": "output",
    "famspec.hpp": "output",
    "registry_description.hpp": "output",
    "snapshot.hpp": "output",
    "summary_diff.hpp": "output",
}
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

    public, stage_of = read_public(root, problems)
    order = {stage: i for i, stage in enumerate(STAGES)}
    edges = {}
    for path, text in list(files.items()) + list(public.items()):
        stage = stage_of.get(path) or path.split("/")[0]
        where = f"core/include/{path}" if path in public else f"core/src/{path}"
        for included in INCLUDE.findall(text):
            if included in public:
                if order[stage_of[included]] > order[stage]:
                    problems.append(f"{where} ({stage}): includes {included}, of a later stage ({stage_of[included]})")
                if included != path:
                    edges.setdefault(unit(path), set()).add(unit(included))
            elif path in public:
                continue
            elif included in files:
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
    return problems, len(files) + len(public)


def read_public(root, problems):
    """The public headers ("famspec/name.hpp" -> text) and the stage of each, from PUBLIC."""
    folder = os.path.join(root, "core", "include", "famspec")
    names = sorted(n for n in os.listdir(folder) if n.endswith(".hpp"))
    public, stage_of = {}, {}
    for name in names:
        if name not in PUBLIC:
            problems.append(f"core/include/famspec/{name}: no stage (add it to PUBLIC in scripts/check_stages.py)")
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            public[f"famspec/{name}"] = f.read()
        stage_of[f"famspec/{name}"] = PUBLIC[name]
    for name in sorted(set(PUBLIC) - set(names)):
        problems.append(f"scripts/check_stages.py: PUBLIC names famspec/{name}, which is not a public header")
    return public, stage_of


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    problems, count = check(sys.argv[1])
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"core/src and core/include: {count} files in {len(STAGES)} stages, each included only by its own and"
          " later stages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
