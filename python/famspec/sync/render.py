"""The generated project: plugin.cpp and CMakeLists.txt expanded from the family project templates
that `famspec new-family` writes from too (template.py), split into the region sync owns and its
default surroundings for a new project; and the Python assets (handed-over functions) as files."""

from __future__ import annotations

import re

from . import cpp, template
from .errors import SyncError
from .model import Block, FamilySource, FrameworkSource, Identity, Todo

BEGIN = "famspec sync: begin generated region"
END = "famspec sync: end generated region"
INDENT = "    "


def asset_names(blocks: list[Block]) -> None:
    """Each block's file under python/, named after the first name it defines (a C++ identifier)."""
    used = set()
    for block in blocks:
        # A class's name in snake case (GQAAttention -> gqa_attention), as the file that defines it is named.
        words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", block.defines[0].lstrip("_"))
        stem = re.sub(r"[^0-9a-zA-Z_]", "_", words.lower()) or "block"
        if stem[0].isdigit() or stem in cpp.KEYWORDS or "__" in stem:
            stem = "block_" + stem.replace("__", "_")  # `py::<stem>` must be a C++ name
        candidate, n = stem, 2
        while candidate in used:
            candidate, n = f"{stem}_{n}", n + 1
        used.add(candidate)
        block.asset = f"{candidate}.py"


def _todo(t: Todo) -> list[str]:
    what = f"{cpp.comment(t.site)}: {cpp.comment(t.subject)}: {cpp.comment(t.reason)}"
    return [f"// TODO(famspec sync) {what}; declare it by hand in .amendments, after the region"]


NEW_VERSION = "0.1.0"
WIDTH = 120

# The region's layout is sync's own (clang-format is off in it; --check keeps it): one field a line,
# each list of declarations one entry a block under its field, and the lists of names, arguments and
# parameters filled to the width, aligned after their brace.
FIELDS_AT = 12  # `{.model_type = ...` of an entry of .families (and of .components)
ITEMS_AT = FIELDS_AT + 1 + len(INDENT)  # an entry of a family's lists


def _filled(opening: str, items: list[str], closing: str, column: int) -> list[str]:
    """`opening a, b, c closing` starting at ``column``, wrapped at the width with the items aligned
    after the opening."""
    lines, current = [], opening
    for n, item in enumerate(items):
        piece = item + (closing if n == len(items) - 1 else ",")
        if current != opening and column + len(current) + 1 + len(piece) > WIDTH:
            lines.append(current)
            current = " " * len(opening) + piece
        else:
            current += ("" if current == opening else " ") + piece
    lines.append(current if items else opening + closing)
    return lines


def _entry(fields: list[tuple[str, list[str]]]) -> list[str]:
    """A designated initializer, `{.a = x,` then ` .b = y}`: one field a line. A value may span lines: a
    _block's under its field, a _filled list's under its first item."""
    lines = []
    for n, (name, value) in enumerate(fields):
        head = ("{" if n == 0 else " ") + f".{name} = "
        under = " " if value[0] == "{" else " " * len(head)
        block = [head + value[0], *[under + line for line in value[1:]]]
        block[-1] += "}" if n == len(fields) - 1 else ","
        lines += block
    return lines


def _block(items: list[tuple[list[str], list[str]]]) -> list[str]:
    """`{`, each item's comment lines and lines (the last with a comma) one indent in, `}`."""
    lines = ["{"]
    for comments, item in items:
        lines += [INDENT + c for c in comments]
        lines += [INDENT + line for line in item[:-1]] + [INDENT + item[-1] + ","]
    return lines + ["}"]


def _names(named: list[tuple[str, object]]) -> list[str]:
    """A list of names, each under the comment of the file:line it was read from."""
    return _block([([f"// {cpp.comment(site)}"], [cpp.string(name)]) for name, site in named])


def _signature(params, column: int) -> list[str]:
    return _filled("{", cpp.signature_items(params), "}", column)


def _where(site) -> str:
    return cpp.string(str(site))


def _argument(a) -> str:
    if a.binding == "bind":
        return f"bind({cpp.string(a.keyword)})" if a.keyword == a.value else \
            f"bind({cpp.string(a.keyword)}, {cpp.string(a.value)})"
    if a.binding == "hand_over":
        return f"hand_over({cpp.string(a.keyword)}, {cpp.string(a.value)})"
    return f"pass({cpp.string(a.keyword)}, {cpp.string(a.value)})"


def _factory(family: FamilySource, f) -> tuple[list[str], list[str]]:
    first_provider = family.providers[0][0] if family.providers else ""
    target = f.name if f.provider == first_provider else f"{f.provider}.{f.name}"
    column = ITEMS_AT + 1
    fields = [("target", [cpp.string(target)])]
    if f.mode != "runtime_only":
        fields.append(("constructs", [f"{f.mode}({cpp.string(f.component)}, {cpp.string(f.import_module)})"]))
        if f.arguments:
            fields.append(("arguments", _filled("{", [_argument(a) for a in f.arguments], "}",
                                                column + len(".arguments = "))))
    if f.options:
        fields.append(("options", _signature(f.options, column + len(".options = "))))
    if f.mode == "runtime_only":
        fields.append(("runtime_only", [cpp.string(f.runtime_only_reason)]))
    fields.append(("where", [_where(f.site)]))
    return cpp.choices_comment(f.options), _entry(fields)


def _wrapper(w, column: int = ITEMS_AT + 1) -> tuple[list[str], list[str]]:
    fields = [("target", [cpp.string(w.target)])]
    if w.options:
        fields.append(("options", _signature(w.options, column + len(".options = "))))
    fields.append(("where", [_where(w.site)]))
    return cpp.choices_comment(w.options), _entry(fields)


def _archetype(a, column: int = ITEMS_AT + 1) -> tuple[list[str], list[str]]:
    router, shared_experts, storage = a.fingerprint
    return cpp.choices_comment(a.options), _entry([
        ("fingerprint", [f"{{.router = MoeRouter::{router}, .shared_experts = SharedExperts::{shared_experts}, "
                         f".expert_storage = ExpertStorage::{storage}}}"]),
        ("kind", ["ArchetypeKind::" + a.kind]),
        ("target_class", [cpp.string(a.target_class)]),
        ("router_kind", ["MoeRouter::" + a.router_kind]),
        ("shared", ["SharedExperts::" + a.shared]),
        ("strip_boundary_subpatterns", [cpp.strings(a.strip_boundary_subpatterns)]),
        ("compute_factory", [cpp.string(a.compute_factory)]),
        ("options", _signature(a.options, column + len(".options = "))),
        ("where", [_where(a.site)]),
    ])


def _interface_block(b: Block) -> tuple[list[str], list[str]]:
    return [f"// {cpp.comment(b.site)}"], _entry([
        ("defines", [cpp.strings(b.defines)]),
        ("needs", [cpp.strings(b.needs)]),
        ("imports", [cpp.strings(b.imports)]),
        ("text", [f"famspec_assets::{b.asset[:-3]}"]),
    ])


def _identity(model_type: str, architecture: str, site, aliases, directory_aliases) -> list[tuple[str, list[str]]]:
    fields = [("model_type", [cpp.string(model_type)]), ("architecture", [cpp.string(architecture)]),
              ("where", [_where(site)])]
    if aliases:
        fields.append(("aliases", _names(aliases)))
    if directory_aliases:
        fields.append(("directory_aliases", _names(directory_aliases)))
    return fields


def _family(family: FamilySource) -> tuple[list[str], list[str]]:
    """The family's entry of .families, under the comments of the providers it borrows."""
    comments = []
    for keyword, module, site, folder in family.borrowed:
        comments += [f"// {cpp.comment(site)}", f"// {cpp.comment(keyword)}: {cpp.comment(module)},",
                     f"// borrowed from {cpp.comment(folder)}, whose plugin declares it."]
    fields = _identity(family.model_type, family.architecture, family.site, family.aliases, family.directory_aliases)
    if family.providers:
        fields.append(("providers", _names(family.providers)))
    if family.interface:
        fields.append(("interface_blocks", _block([_interface_block(b) for b in family.interface])))
    if family.compute_functions:
        fields.append(("compute_functions", _names(family.compute_functions)))
    if family.factories:
        fields.append(("factories", _block([_factory(family, f) for f in family.factories])))
    if family.cp_wrappers:
        fields.append(("cp_wrappers", _block([_wrapper(w) for w in family.cp_wrappers])))
    if family.archetypes:
        fields.append(("archetypes", _block([_archetype(a) for a in family.archetypes])))
    if family.borrowed_cp_wrappers:
        fields.append(("borrowed_cp_wrappers", _names(family.borrowed_cp_wrappers)))
    return comments, _entry(fields)


def _companion(c: Identity) -> tuple[list[str], list[str]]:
    """Another family the same registration file declares: its identity, a second entry of .families,
    so that each registration file has exactly one plugin."""
    return [], _entry(_identity(c.model_type, c.architecture, c.site, c.aliases, c.directory_aliases))


def _component(c) -> tuple[list[str], list[str]]:
    fields = [
        ("name", [cpp.string(c.name)]),
        ("submodule", [cpp.string(c.submodule)]),
        ("signature", _signature(c.signature, ITEMS_AT + 1 + len(".signature = "))),
    ]
    if c.source:
        fields.append(("source", _block([_interface_block(b) for b in c.source])))
    return [], _entry([*fields, ("where", [_where(c.site)])])


def _components(family: FamilySource | FrameworkSource) -> list[str]:
    by_package: dict[str, list] = {}
    for c in family.components:
        by_package.setdefault(c.package, []).append(c)
    return _block([([], _entry([("package", [cpp.string(package)]),
                                ("components", _block([_component(c) for c in items]))]))
                   for package, items in by_package.items()])


def _field(name: str, block: list[str]) -> list[str]:
    """A field of `Plugin{...}`: `.name = {`, the block, `},`."""
    return [f".{name} = " + block[0], *block[1:-1], block[-1] + ","]


def _declarations(family: FamilySource | FrameworkSource) -> list[str]:
    """The fields of the plugin's `Plugin{...}` that sync writes: .families, and .components when the
    family declares components no other plugin does (the framework's plugin: .components, then the
    .archetypes and .cp_wrappers of no family); then its TODOs."""
    lines = []
    if isinstance(family, FamilySource):
        lines += _field("families", _block([_family(family), *[_companion(c) for c in family.companions]]))
    if family.components:
        lines += _field("components", _components(family))
    if isinstance(family, FrameworkSource):
        if family.archetypes:
            lines += _field("archetypes", _block([_archetype(a, FIELDS_AT + 1) for a in family.archetypes]))
        if family.cp_wrappers:
            lines += _field("cp_wrappers", _block([_wrapper(w, FIELDS_AT + 1) for w in family.cp_wrappers]))
    for t in sorted(family.todos, key=lambda t: (t.site.file, t.site.line)):
        lines += _todo(t)
    return lines


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


# What follows the region in a new plugin.cpp, its author's: declarations written by hand are entries
# of .amendments (each adds to the family of its model_type, as if written in the region). The region
# cannot end after the macro: a designated initializer cannot be extended from outside it.
AMENDMENTS = f"{INDENT * 2}.amendments = {{}},"
# clang-format stays off to the end of the file: after the region's layout it would realign what
# follows under `Plugin{` (clang-format 14), so neither form would be stable.
CLANG_FORMAT_ON = "// clang-format on"
FIELDS = INDENT * 2  # the fields of `Plugin{...}`


# What the framework's plugin is, in its header comment and its description.
FRAMEWORK_ABOUT = "the runtime's generic components"
FRAMEWORK_DESCRIPTION = "Generic components of hyper_parallel.components.modules, generated by famspec sync"


def plugin_file(family: FamilySource | FrameworkSource, version: str = NEW_VERSION) -> tuple[str, str, str]:
    """(text before the region, the region, text after it) of a new plugin.cpp."""
    if isinstance(family, FamilySource):
        about, description = family.architecture, f"{family.architecture} family, generated by famspec sync"
    else:
        about, description = FRAMEWORK_ABOUT, FRAMEWORK_DESCRIPTION
    begin, end = _marker("//", BEGIN), FIELDS + _marker("//", END)
    text = template.expand("plugin.cpp.in", {
        "FAMILY": family.model_type,
        "ARCHITECTURE": about,
        "ABOUT": "declared from the runtime's Python source by\n"
                 "// `famspec sync`: each declaration names the file:line it was read from. Regenerate after a "
                 "change of\n// the source and review the diff; `famspec sync --check` fails when this file is "
                 "out of date.",
        # clang-format would split the long target strings; sync's layout is the region's format, and
        # --check (not clang-format) is what keeps it.
        "BEGIN_REGION": begin + "\n// clang-format off",
        "ASSETS_INCLUDE": f'#include "{family.model_type}_assets.hpp"' if family.embedded() else "",
        "PLUGIN_NAME": cpp.string(family.model_type),
        "PLUGIN_VERSION": cpp.string(version),
        "PLUGIN_DESCRIPTION": cpp.string(description),
        "DECLARATIONS": "\n".join((FIELDS + line) if line else "" for line in _declarations(family)),
        "END_REGION": end,
        "AMENDMENTS": AMENDMENTS,
        "CLANG_FORMAT_ON": CLANG_FORMAT_ON,
    })
    return _split(text, begin, end, "plugin.cpp.in")


def plugin_region(family: FamilySource | FrameworkSource, version: str = NEW_VERSION) -> str:
    """plugin.cpp from the begin marker to the end marker, both included."""
    return plugin_file(family, version)[1]


def kept_version(existing: str | None, family: FamilySource | FrameworkSource) -> str:
    """The plugin's version is its author's: the one an existing plugin.cpp declares (in the table form,
    or the register form of famspec before ABI 4: both name it first in FAMSPEC_PLUGIN), else NEW_VERSION."""
    found = re.search(r'FAMSPEC_PLUGIN\(\s*"' + re.escape(family.model_type) + r'", "([^"\\]+)"',
                      existing or "")
    return found.group(1) if found else NEW_VERSION


# What followed the region of a plugin.cpp that sync wrote before plugins were data (ABI 4): the end of
# a register function. Replaced by the table form's tail; one its author added to is refused.
REGISTER_FORM_TAIL = f"{INDENT}family.register_into(registrar);\n}}\n"


def kept_tail(path, after: str, default: str) -> str:
    """What an existing plugin.cpp keeps after the region: its own text, or a new file's for the tail of
    a register function sync wrote."""
    if after == REGISTER_FORM_TAIL:
        return default
    if "register_into(registrar)" in after:
        raise SyncError(f"{path}: what follows the generated region is the end of a register function (famspec "
                        "before ABI 4), with declarations added by hand: write each as an entry of .amendments "
                        "after the region (docs/plugin-authors.md), or move the file away and run sync again; "
                        "nothing was written")
    return after


def famspec_version() -> str:
    """major.minor of the famspec that runs sync: the version the project's find_package asks for."""
    from .._native import version  # the core this package is built on

    return ".".join(version.split(".")[:2])


def cmake_file(family: FamilySource | FrameworkSource, version: str = NEW_VERSION) -> tuple[str, str, str]:
    """(text before the region, the region, text after it) of a new CMakeLists.txt. CMake's project()
    takes a numeric version only: the plugin's, or that much of it."""
    numeric = re.match(r"[0-9]+(\.[0-9]+){0,3}", version)
    assets = "".join(f"\n{INDENT}{INDENT}python/{b.asset}" for b in family.embedded())
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


def assets(family: FamilySource | FrameworkSource) -> dict[str, str]:
    return {f"python/{b.asset}": b.text for b in family.embedded()}
