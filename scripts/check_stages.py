#!/usr/bin/env python3
"""The stage rule of core/src and core/include (docs/architecture.md): every source sits in one stage
folder, a stage holds at most 15 files, a file includes the private headers of its own stage or of
the stages before it (never of a later one, and always by "<stage>/name.hpp"), and no files include
each other in a circle (a source and its header count as one). Each public header (core/include/
famspec) has a stage too (PUBLIC below): a public header includes only public headers of its own
stage or before, and a private file only public headers of its own stage or before.

docs/architecture.md draws the stages with the number of files in each, and lists the public headers
by stage between two markers: both are checked here, and `--write` writes them from the tree, so they
cannot drift.

    check_stages.py [--write] ROOT

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
    "construction.hpp": "common",
    "default_value.hpp": "common",
    "digest.hpp": "common",
    "expected.hpp": "common",
    "explanation.hpp": "common",
    "family_keys.hpp": "common",
    "family_source.hpp": "common",
    "fingerprint.hpp": "common",
    "log.hpp": "common",
    "moe_vocabulary.hpp": "common",
    "names.hpp": "common",
    "parameter.hpp": "common",
    "plugin_record.hpp": "common",
    "py_literal.hpp": "common",
    "resolution.hpp": "common",
    "search_origin.hpp": "common",
    "source_block.hpp": "common",
    "required_digests.hpp": "discovery",
    "search_path.hpp": "discovery",
    "component.hpp": "registry",
    "cp_wrapper.hpp": "registry",
    "family_adapter.hpp": "registry",
    "moe_archetype.hpp": "registry",
    "plugin_manifest.hpp": "registry",
    "registry.hpp": "registry",
    "registry_entries.hpp": "registry",
    "replacement_factory.hpp": "registry",
    "plugin_loader.hpp": "loading",
    "family_suggestions.hpp": "plan",
    "plan.hpp": "plan",
    "plan_family.hpp": "plan",
    "plan_keys.hpp": "plan",
    "read_selection.hpp": "plan",
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


DOCUMENT = os.path.join("docs", "architecture.md")
# A stage's line in the drawing of core/src: "   plan/        what it holds ...    5 files".
STAGE_LINE = re.compile(r"^(   (%s)/ .*?)(\d+) files?$" % "|".join(STAGES), re.M)
HEADERS_BEGIN = "<!-- public headers by stage: written by scripts/check_stages.py --write -->"
HEADERS_END = "<!-- end of the public headers -->"


def stage_counts(root):
    """The number of sources in each stage folder of core/src."""
    src = os.path.join(root, "core", "src")
    counts = {}
    for stage in STAGES:
        folder = os.path.join(src, stage)
        names = os.listdir(folder) if os.path.isdir(folder) else []
        counts[stage] = sum(1 for n in names if n.endswith(SOURCES))
    return counts


def header_block(root):
    """The list of public headers by stage, as docs/architecture.md shows it between its markers."""
    folder = os.path.join(root, "core", "include", "famspec")
    names = sorted(n for n in os.listdir(folder) if n.endswith(".hpp") and n in PUBLIC)
    lines = [HEADERS_BEGIN, "```", " core/include/famspec/"]
    for stage in STAGES:
        words = [n for n in names if PUBLIC[n] == stage]
        line = f"   {stage + '/':<13}"
        for i, word in enumerate(words):
            word += "," if i < len(words) - 1 else ""
            if len(line) + 1 + len(word) > 100 and not line.endswith(" " * 13):
                lines.append(line)
                line = " " * 16
            line += word if line.endswith(" ") else " " + word
        lines.append(line.rstrip())
    return "\n".join(lines + ["```", HEADERS_END])


def written_document(root, text):
    """The document with its stage counts and header list as the tree has them."""
    counts = stage_counts(root)

    def count(match):
        head, stage, old = match.group(1), match.group(2), match.group(3)
        new = str(counts[stage])
        head = head[: len(head) - (len(new) - len(old))] if len(new) > len(old) else head + " " * (len(old) - len(new))
        return f"{head}{new} file{'s' if counts[stage] != 1 else ''}"

    text = STAGE_LINE.sub(count, text)
    begin, end = text.find(HEADERS_BEGIN), text.find(HEADERS_END)
    if begin >= 0 and end > begin:
        text = text[:begin] + header_block(root) + text[end + len(HEADERS_END):]
    return text


def check_document(root, write=False):
    """Breaches of docs/architecture.md against the tree; with write, the document is rewritten instead."""
    path = os.path.join(root, DOCUMENT)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    problems = []
    if sorted(m.group(2) for m in STAGE_LINE.finditer(text)) != sorted(STAGES):
        problems.append(f"{DOCUMENT}: the drawing of core/src does not have one line per stage ({', '.join(STAGES)})")
    if text.count(HEADERS_BEGIN) != 1 or text.count(HEADERS_END) != 1:
        problems.append(f"{DOCUMENT}: no list of the public headers between {HEADERS_BEGIN} and {HEADERS_END}")
    wanted = written_document(root, text)
    if write and not problems:
        with open(path, "w", encoding="utf-8") as f:
            f.write(wanted)
    elif wanted != text:
        counts = stage_counts(root)
        for match in STAGE_LINE.finditer(text):
            if int(match.group(3)) != counts[match.group(2)]:
                problems.append(f"{DOCUMENT}: core/src/{match.group(2)}/ is drawn with {match.group(3)} files, it holds"
                                f" {counts[match.group(2)]} (scripts/check_stages.py --write ROOT rewrites them)")
        if header_block(root) not in text:
            problems.append(f"{DOCUMENT}: the list of public headers differs from core/include/famspec"
                            " (scripts/check_stages.py --write ROOT rewrites it)")
    return problems


def main():
    args = sys.argv[1:]
    write = args[:1] == ["--write"]
    args = args[1:] if write else args
    if len(args) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    problems, count = check(args[0])
    problems += check_document(args[0], write)
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"core/src and core/include: {count} files in {len(STAGES)} stages, each included only by its own and"
          " later stages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
