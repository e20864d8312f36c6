"""The generated project: the regions of plugin.cpp and CMakeLists.txt that sync owns, their default
surroundings for a new project, and the Python assets (handed-over functions) as files."""

from __future__ import annotations

import re

from . import cpp
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


def plugin_region(family: FamilySource, version: str = NEW_VERSION) -> str:
    """plugin.cpp from the begin marker to the end marker, both included."""
    body: list[str] = ["using namespace famspec::declare;"]
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
    includes = ['#include "famspec/sdk.hpp"']
    if family.interface:
        includes = sorted(includes + [f'#include "{family.model_type}_assets.hpp"'])
    description = f"{family.architecture} family, generated by famspec sync"
    # clang-format would split the long target strings; sync's layout is the file's format, and
    # --check (not clang-format) is what keeps it.
    return _region("//", [
        "// clang-format off",
        *includes,
        "",
        f"FAMSPEC_PLUGIN({cpp.string(family.model_type)}, {cpp.string(version)}, {cpp.string(description)})",
        "(famspec::Registrar& registrar) {",
        *[(INDENT + line) if line else "" for line in body],
        f"{INDENT}// clang-format on",
    ], end_indent=INDENT)


def _region(comment: str, body: list[str], end_indent: str = "") -> str:
    """A generated region: its first line, ``body`` and its last line, in the file's ``comment`` syntax."""
    first = f"{comment} {BEGIN}: rewritten by `famspec sync`; what you write outside it is kept."
    return "\n".join([first, *body, f"{end_indent}{comment} {END}"]) + "\n"


def kept_version(existing: str | None, family: FamilySource) -> str:
    """The plugin's version is its author's: the one an existing plugin.cpp declares, else NEW_VERSION."""
    found = re.search(r'FAMSPEC_PLUGIN\("' + re.escape(family.model_type) + r'", "([^"\\]+)"', existing or "")
    return found.group(1) if found else NEW_VERSION


def plugin_file(family: FamilySource, version: str = NEW_VERSION) -> tuple[str, str, str]:
    """(text before the region, the region, text after it) of a new plugin.cpp."""
    before = (
        f"// The {family.model_type} family ({family.architecture}), declared from the runtime's Python source by\n"
        "// `famspec sync`: each statement names the file:line it was read from. Regenerate after a change of\n"
        "// the source and review the diff; `famspec sync --check` fails when this file is out of date.\n"
    )
    after = f"{INDENT}family.register_into(registrar);\n}}\n"
    return before, plugin_region(family, version), after


def cmake_region(family: FamilySource) -> str:
    assets = "".join(f"\n{INDENT}{INDENT}python/{b.asset}" for b in family.interface)
    # In famspec's own tree (which sets FAMSPEC_PLUGIN_OUTPUT_DIR) the project is a subdirectory of the
    # build and famspec_add_plugin puts the plugin beside the shipped ones; alone, it finds the install.
    return _region("#", [
        "if(NOT DEFINED FAMSPEC_PLUGIN_OUTPUT_DIR)",
        f"{INDENT}find_package(famspec CONFIG REQUIRED)",
        "endif()",
        f"famspec_add_plugin({family.model_type}",
        f"{INDENT}SOURCES plugin.cpp",
        f"{INDENT}INSTALL_DESTINATION ${{famspec_PLUGIN_DIR}}" + (f"\n{INDENT}ASSETS{assets}" if assets else "") + ")",
    ])


def cmake_file(family: FamilySource) -> tuple[str, str, str]:
    before = (
        f"# The {family.model_type} family plugin, generated by `famspec sync`; build it against an installed famspec:\n"
        "#\n"
        "#   cmake -S . -B build -DCMAKE_PREFIX_PATH=<famspec install prefix>\n"
        "#   cmake --build build\n"
        "#   famspec list --plugin-path \"$PWD/build/plugins\"\n"
        "cmake_minimum_required(VERSION 3.25)\n"
        f"project({family.model_type}_family VERSION 0.1.0 LANGUAGES CXX)\n\n"
    )
    return before, cmake_region(family), ""


def assets(family: FamilySource) -> dict[str, str]:
    return {f"python/{b.asset}": b.text for b in family.interface}
