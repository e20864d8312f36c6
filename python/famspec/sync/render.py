"""The generated project: plugin.cpp and CMakeLists.txt expanded from the family project templates
that `famspec new-family` writes from too (template.py), split into the region sync owns and its
default surroundings for a new project; and the Python assets (handed-over functions) as files."""

from __future__ import annotations

import re

from . import cpp, template
from .errors import SyncError
from .model import Block, FamilySource, Identity, Todo

BEGIN = "famspec sync: begin generated region"
END = "famspec sync: end generated region"
INDENT = "    "


def asset_names(blocks: list[Block]) -> None:
    """Each block's file under python/, named after the first name it defines (a C++ identifier)."""
    used = set()
    for block in blocks:
        stem = re.sub(r"[^0-9a-zA-Z_]", "_", block.defines[0].lstrip("_").lower()) or "block"
        if stem[0].isdigit() or stem in cpp.KEYWORDS or "__" in stem:
            stem = "block_" + stem.replace("__", "_")  # `py::<stem>` must be a C++ name
        candidate, n = stem, 2
        while candidate in used:
            candidate, n = f"{stem}_{n}", n + 1
        used.add(candidate)
        block.asset = f"{candidate}.py"


def _todo(t: Todo) -> list[str]:
    what = f"{cpp.comment(t.site)}: {cpp.comment(t.subject)}: {cpp.comment(t.reason)}"
    return [f"// TODO(famspec sync) {what}; declare it by hand outside the region"]


NEW_VERSION = "0.1.0"

# Lines in the body are indented once; a statement that fits stays on one line, as clang-format has it.
_WIDTH = 120 - len(INDENT)


def _statement(head: str, chained: list[str]) -> list[str]:
    """`head.a(...).b(...);` on one line when it fits, else one call a line under the head."""
    one_line = head + "".join(f".{c}" for c in chained) + ";"
    if len(one_line) <= _WIDTH or not chained:
        return [one_line]
    lines = [head] + [f"{INDENT}.{c}" for c in chained]
    lines[-1] += ";"
    return lines


def _filled(opening: str, items: list[str], closing: str, indent: str) -> list[str]:
    """`opening a, b, c closing`, wrapped at the width with the items aligned after the opening."""
    lines, current = [], opening
    for n, item in enumerate(items):
        piece = item + (closing if n == len(items) - 1 else ",")
        if current not in (opening,) and len(indent + current + " " + piece) > _WIDTH:
            lines.append(current)
            current = " " * len(opening) + piece
        else:
            current += ("" if current == opening else " ") + piece
    lines.append(current if items else opening + closing)
    return lines


def _call(function: str, arguments: list[str]) -> list[str]:
    """`function(a, b);` on one line when it fits, else the arguments on the next line(s)."""
    one_line = f"{function}({', '.join(arguments)});"
    if len(one_line) <= _WIDTH:
        return [one_line]
    joined = f"{INDENT}{', '.join(arguments)});"
    if len(joined) <= _WIDTH:
        return [f"{function}(", joined]
    return [f"{function}(", *[f"{INDENT}{a}," for a in arguments[:-1]], f"{INDENT}{arguments[-1]});"]


def _wrapper_call(w) -> list[str]:
    """`family.cp_wrapper(target, {options})`, the options filled under the target when too long."""
    arguments = [cpp.string(w.target)] + ([cpp.signature(w.options)] if w.options else [])
    lines = _call("family.cp_wrapper", arguments)
    if all(len(line) <= _WIDTH for line in lines) or not w.options:
        return lines
    options = _filled("{", cpp.signature_items(w.options), "});", INDENT)
    return ["family.cp_wrapper(", f"{INDENT}{cpp.string(w.target)},", *[INDENT + line for line in options]]


def _factory_lines(family: FamilySource, f) -> list[str]:
    first_provider = family.providers[0][0] if family.providers else ""
    target = f.name if f.provider == first_provider else f"{f.provider}.{f.name}"
    lines = [f"// {cpp.comment(f.site)}"]
    head = f"family.factory({cpp.string(target)})"
    chained = []
    if f.mode == "runtime_only":
        chained.append(f"runtime_only({cpp.string(f.runtime_only_reason)})")
    else:
        chained.append(f"{f.mode}({cpp.string(f.component)}, {cpp.string(f.import_module)})")
        for a in f.arguments:
            if a.binding == "bind":
                args = cpp.string(a.keyword) if a.keyword == a.value else f"{cpp.string(a.keyword)}, {cpp.string(a.value)}"
                chained.append(f"bind({args})")
            elif a.binding == "hand_over":
                chained.append(f"hand_over({cpp.string(a.keyword)}, {cpp.string(a.value)})")
            else:
                chained.append(f"pass({cpp.string(a.keyword)}, {cpp.string(a.value)})")
    options = [f"option({cpp.string(p.name)}, {cpp.literal(p.value.value)})" for p in f.options]
    if f.mode == "runtime_only" and options:
        chained = options + chained  # runtime_only() ends the statement
    else:
        chained += options
    lines += cpp.choices_comment(f.options)
    return lines + _statement(head, chained)


def _interface_lines(blocks: list[Block]) -> list[str]:
    lines = ["family.interface({"]
    for b in blocks:
        lines.append(f"{INDENT}// {cpp.comment(b.site)}")
        lines.append(f"{INDENT}{{.defines = {cpp.strings(b.defines)},")
        lines.append(f"{INDENT} .needs = {cpp.strings(b.needs)},")
        lines.append(f"{INDENT} .imports = {cpp.strings(b.imports)},")
        lines.append(f"{INDENT} .text = std::string(py::{b.asset[:-3]})}},")
    return lines + ["});"]


def _archetype_lines(a) -> list[str]:
    return [
        f"// {cpp.comment(a.site)}",
        *cpp.choices_comment(a.options),
        "family.archetype({",
        f"{INDENT}.fingerprint = {cpp.strings(a.fingerprint)},",
        f"{INDENT}.kind = {cpp.string(a.kind)},",
        f"{INDENT}.target_class = {cpp.string(a.target_class)},",
        f"{INDENT}.router_kind = {cpp.string(a.router_kind)},",
        f"{INDENT}.shared = {cpp.string(a.shared)},",
        f"{INDENT}.strip_boundary_subpatterns = {cpp.strings(a.strip_boundary_subpatterns)},",
        f"{INDENT}.compute_factory = {cpp.string(a.compute_factory)},",
        f"{INDENT}.options = {cpp.signature(a.options)},",
        "});",
    ]


def _component_lines(family: FamilySource) -> list[str]:
    lines = []
    by_package: dict[str, list] = {}
    for c in family.components:
        by_package.setdefault(c.package, []).append(c)
    for n, (package, items) in enumerate(by_package.items()):
        variable = "components" if n == 0 else f"components_{n + 1}"
        lines.append(f"Components {variable}{{{cpp.string(package)}}};")
        for c in items:
            lines += [
                f"// {cpp.comment(c.site)}",
                f"{variable}.component({{",
                f"{INDENT}.name = {cpp.string(c.name)},",
                f"{INDENT}.submodule = {cpp.string(c.submodule)},",
                *_filled(f"{INDENT}.signature = {{", cpp.signature_items(c.signature), "},", INDENT),
                "});",
            ]
        lines.append(f"{variable}.register_into(registrar);")
    return lines


def _companion_lines(c: Identity) -> list[str]:
    """Another family the same registration file declares: its identity, registered here so that
    each registration file has exactly one plugin."""
    variable = "".join(ch if ch.isalnum() else "_" for ch in c.model_type)
    lines = [f"// {cpp.comment(c.site)}", f"Family {variable}{{{cpp.string(c.model_type)}, {cpp.string(c.architecture)}}};"]
    for spelling, site in c.aliases:
        lines += [f"// {cpp.comment(site)}", f"{variable}.alias({cpp.string(spelling)});"]
    for directory, site in c.directory_aliases:
        lines += [f"// {cpp.comment(site)}", f"{variable}.directory_alias({cpp.string(directory)});"]
    return lines + [f"{variable}.register_into(registrar);"]


def _declarations(family: FamilySource) -> list[str]:
    """The statements of the plugin's entry point after `using namespace famspec::declare;`."""
    body: list[str] = []
    if family.interface:
        body.append("namespace py = famspec_assets;")
    if family.components:
        body += [""] + _component_lines(family)
    body += ["", f"// {cpp.comment(family.site)}", f"Family family{{{cpp.string(family.model_type)}, {cpp.string(family.architecture)}}};"]
    for spelling, site in family.aliases:
        body += [f"// {cpp.comment(site)}", f"family.alias({cpp.string(spelling)});"]
    for directory, site in family.directory_aliases:
        body += [f"// {cpp.comment(site)}", f"family.directory_alias({cpp.string(directory)});"]
    for provider, site in family.providers:
        body += [f"// {cpp.comment(site)}", f"family.provider({cpp.string(provider)});"]
    for keyword, module, site, folder in family.borrowed:
        body += [f"// {cpp.comment(site)}", f"// {cpp.comment(keyword)}: {cpp.comment(module)},",
                 f"// borrowed from {cpp.comment(folder)}, whose plugin declares it."]
    if family.interface:
        body += [""] + _interface_lines(family.interface)
    if family.factories:
        body.append("")
        for f in family.factories:
            body += _factory_lines(family, f)
    if family.cp_wrappers:
        body.append("")
        for w in family.cp_wrappers:
            body += [f"// {cpp.comment(w.site)}", *cpp.choices_comment(w.options)]
            body += _wrapper_call(w)
    for a in family.archetypes:
        body += [""] + _archetype_lines(a)
    if family.compute_functions:
        body.append("")
        for target, site in family.compute_functions:
            body += [f"// {cpp.comment(site)}", *_call("family.compute_function", [cpp.string(target)])]
    for c in family.companions:
        body += ["", *_companion_lines(c)]
    if family.todos:
        body.append("")
        for t in sorted(family.todos, key=lambda t: (t.site.file, t.site.line)):
            body += _todo(t)
    return body


def _marker(comment: str, which: str) -> str:
    if which == BEGIN:
        return f"{comment} {BEGIN}: rewritten by `famspec sync`; what you write outside it is kept."
    return f"{comment} {END}"


def _split(text: str, begin: str, end: str, name: str) -> tuple[str, str, str]:
    """(text before the region, the region with its marker lines, text after it) of an expanded template:
    the region runs from the line that is ``begin`` to the line that is ``end``."""
    lines = text.splitlines(keepends=True)
    begins = [i for i, line in enumerate(lines) if line.rstrip("\n") == begin]
    ends = [i for i, line in enumerate(lines) if line.rstrip("\n") == end]
    if len(begins) != 1 or len(ends) != 1 or ends[0] < begins[0]:
        raise SyncError(f"template {name}: @BEGIN_REGION@ and @END_REGION@ must each stand once, in that order")
    first, last = begins[0], ends[0] + 1
    return "".join(lines[:first]), "".join(lines[first:last]), "".join(lines[last:])


def plugin_file(family: FamilySource, version: str = NEW_VERSION) -> tuple[str, str, str]:
    """(text before the region, the region, text after it) of a new plugin.cpp."""
    description = f"{family.architecture} family, generated by famspec sync"
    begin, end = _marker("//", BEGIN), INDENT + _marker("//", END)
    # clang-format would split the long target strings; sync's layout is the region's format, and
    # --check (not clang-format) is what keeps it.
    text = template.expand("plugin.cpp.in", {
        "FAMILY": family.model_type,
        "ARCHITECTURE": family.architecture,
        "ABOUT": "declared from the runtime's Python source by\n"
                 "// `famspec sync`: each statement names the file:line it was read from. Regenerate after a "
                 "change of\n// the source and review the diff; `famspec sync --check` fails when this file is "
                 "out of date.",
        "BEGIN_REGION": begin + "\n// clang-format off",
        "ASSETS_INCLUDE": f'#include "{family.model_type}_assets.hpp"' if family.interface else "",
        "PLUGIN_NAME": cpp.string(family.model_type),
        "PLUGIN_VERSION": cpp.string(version),
        "PLUGIN_DESCRIPTION": cpp.string(description),
        "DECLARATIONS": "\n".join((INDENT + line) if line else "" for line in _declarations(family)),
        "END_REGION": f"{INDENT}// clang-format on\n{end}",
    })
    return _split(text, begin, end, "plugin.cpp.in")


def plugin_region(family: FamilySource, version: str = NEW_VERSION) -> str:
    """plugin.cpp from the begin marker to the end marker, both included."""
    return plugin_file(family, version)[1]


def kept_version(existing: str | None, family: FamilySource) -> str:
    """The plugin's version is its author's: the one an existing plugin.cpp declares, else NEW_VERSION."""
    found = re.search(r'FAMSPEC_PLUGIN\("' + re.escape(family.model_type) + r'", "([^"\\]+)"', existing or "")
    return found.group(1) if found else NEW_VERSION


def famspec_version() -> str:
    """major.minor of the famspec that runs sync: the version the project's find_package asks for."""
    from .._native import version  # the core this package is built on

    return ".".join(version.split(".")[:2])


def cmake_file(family: FamilySource, version: str = NEW_VERSION) -> tuple[str, str, str]:
    """(text before the region, the region, text after it) of a new CMakeLists.txt. CMake's project()
    takes a numeric version only: the plugin's, or that much of it."""
    numeric = re.match(r"[0-9]+(\.[0-9]+){0,3}", version)
    assets = "".join(f"\n{INDENT}{INDENT}python/{b.asset}" for b in family.interface)
    text = template.expand("CMakeLists.txt.in", {
        "FAMILY": family.model_type,
        "WRITTEN_BY": "generated by `famspec sync`",
        "VERSION": numeric.group(0) if numeric else NEW_VERSION,
        "BEGIN_REGION": _marker("#", BEGIN),
        "FAMSPEC_VERSION": famspec_version(),
        "ASSETS": f"\n{INDENT}ASSETS{assets}" if assets else "",
        "TEST_PURPOSE": "`famspec verify`, which fails unless every plugin built here loads",
        "TEST_NAME": f"verify_{family.model_type}",
        "TEST_COMMAND": "verify --plugin-path ${CMAKE_BINARY_DIR}/plugins",
        "END_REGION": _marker("#", END),
    })
    return _split(text, _marker("#", BEGIN), _marker("#", END), "CMakeLists.txt.in")


def assets(family: FamilySource) -> dict[str, str]:
    return {f"python/{b.asset}": b.text for b in family.interface}
