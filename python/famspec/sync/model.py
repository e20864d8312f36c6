"""What ``famspec sync`` read from the runtime's source: one family's declarations, each with the
``file:line`` it comes from. The reader fills these in; the renderer writes them as C++."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Site:
    """A position in the source tree, relative to the source root."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Value:
    """A Python default or option value: a literal (None, bool, int, float, str) or an expression."""

    kind: str  # "literal" | "expression" | "required"
    value: object = None


@dataclass(frozen=True)
class Param:
    name: str
    value: Value
    keyword_only: bool = False
    choices: tuple = ()  # the values of a Literal[...] annotation, when it has one


@dataclass
class Todo:
    """Something the source does not state structurally: declared by hand, or not at all."""

    site: Site
    subject: str
    reason: str


@dataclass
class Argument:
    keyword: str
    binding: str  # "bind" | "pass" | "hand_over"
    value: str


@dataclass
class Factory:
    name: str
    provider: str
    site: Site
    mode: str = ""  # "wraps" | "wraps_positionally" | "replaces" | "runtime_only"
    component: str = ""
    import_module: str = ""
    arguments: list[Argument] = field(default_factory=list)
    options: list[Param] = field(default_factory=list)
    runtime_only_reason: str = ""


@dataclass
class CpWrapper:
    target: str
    site: Site
    options: list[Param] = field(default_factory=list)


@dataclass
class Archetype:
    site: Site
    fingerprint: tuple[str, str, str]
    kind: str
    target_class: str
    router_kind: str
    shared: str
    strip_boundary_subpatterns: tuple[str, ...]
    compute_factory: str
    options: list[Param] = field(default_factory=list)


@dataclass
class Block:
    """A top-level block of Python handed over to a component with the function it belongs to."""

    site: Site
    defines: list[str]
    needs: list[str]
    imports: list[str]
    text: str
    asset: str = ""  # the file name under OUT/python/, set by the renderer


@dataclass
class Component:
    name: str
    package: str
    submodule: str
    site: Site
    signature: list[Param] = field(default_factory=list)
    # The class and the module-level code it needs, when a factory renders it with a handed-over function.
    source: list[Block] = field(default_factory=list)


@dataclass
class Identity:
    """Another family the same registration file declares, with nothing but its spellings."""

    model_type: str
    architecture: str
    site: Site
    aliases: list[tuple[str, Site]] = field(default_factory=list)
    directory_aliases: list[tuple[str, Site]] = field(default_factory=list)


@dataclass
class FamilySource:
    model_type: str
    architecture: str
    site: Site
    directory: str  # hyper_parallel.models.<directory>
    aliases: list[tuple[str, Site]] = field(default_factory=list)
    directory_aliases: list[tuple[str, Site]] = field(default_factory=list)
    providers: list[tuple[str, Site]] = field(default_factory=list)
    factories: list[Factory] = field(default_factory=list)
    cp_wrappers: list[CpWrapper] = field(default_factory=list)
    archetypes: list[Archetype] = field(default_factory=list)
    compute_functions: list[tuple[str, Site]] = field(default_factory=list)
    interface: list[Block] = field(default_factory=list)
    components: list[Component] = field(default_factory=list)
    todos: list[Todo] = field(default_factory=list)
    companions: list[Identity] = field(default_factory=list)
    # Providers borrowed from another family's package: (spec keyword, module, site, that family's folder).
    borrowed: list[tuple[str, str, Site, str]] = field(default_factory=list)
    # The CP wrappers of a borrowed context-parallel provider: the lending family's plugin declares them,
    # and they answer for this family too.
    borrowed_cp_wrappers: list[tuple[str, Site]] = field(default_factory=list)

    def embedded(self) -> list[Block]:
        """Every block the project embeds as a file under python/: handed-over functions, then the source
        of the components it renders."""
        return self.interface + [b for c in self.components for b in c.source]


@dataclass
class FrameworkSource:
    """The framework's part of the tree, declared by the plugin ``FRAMEWORK``: the generic components a
    family's factories construct, and the MoE archetypes and CP wrappers that belong to no family."""

    name: str
    components: list[Component] = field(default_factory=list)
    archetypes: list[Archetype] = field(default_factory=list)
    cp_wrappers: list[CpWrapper] = field(default_factory=list)
    todos: list[Todo] = field(default_factory=list)

    @property
    def model_type(self) -> str:  # the plugin's name, as a family plugin is named after its family
        return self.name

    def embedded(self) -> list[Block]:
        """Every block the project embeds as a file under python/: the source of the components it renders."""
        return [b for c in self.components for b in c.source]
