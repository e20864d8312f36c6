"""The provider modules a ``ModelAdapterSpec`` hands over, in every form the runtime's registrations
write them: a named loader function (``from a.b import m; return m``, ``import a.b.c as m``,
``importlib.import_module("a.b.c")`` inside), a ``lambda: importlib.import_module("...")``, a module
object, or a loader borrowed from another family's package. sync and the audit both read them here,
so the audit sees exactly what sync generates from."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from .source_tree import ParsedModule, SourceTree, UnreadableSource

# The spec keywords whose value returns a module of the family's code. The others (sharding_rules,
# loss, init hooks) return data or run code: nothing a plugin declares is read from them.
MODULE_KEYWORDS = ("replacements", "attention", "context_parallel", "expert_parallel")
MODELS_PACKAGE = "hyper_parallel.models"
_MISSING_FAMILY = "give the source root of a runtime that holds that family too"
_MISSING_MODULE = "give the source root of a runtime tree that holds the module"


@dataclass(frozen=True)
class Provider:
    keyword: str  # the spec keyword
    module: str  # the dotted module the provider returns
    file: str  # where the provider is written (the loader's return, the lambda, the keyword)
    line: int
    borrowed_from: str | None = None  # the other family folder whose package holds the loader


class ProviderUnreadable(Exception):
    """A provider written in a form nothing reads statically; carries the position and why."""

    def __init__(self, file: str, line: int, keyword: str, reason: str, remedy: str = ""):
        super().__init__(f"{file}:{line}: the {keyword} provider cannot be read: {reason}")
        self.file, self.line, self.keyword, self.reason = file, line, keyword, reason
        self.remedy = remedy or ("write it as a loader that imports one module and returns it, a lambda returning "
                                 "importlib.import_module(\"<module>\"), or a module")


def family_folder(dotted: str) -> str | None:
    """The folder under hyper_parallel/models a dotted name lives in (``deepseek_v3`` for its adapter)."""
    prefix = MODELS_PACKAGE + "."
    return dotted[len(prefix) :].split(".", 1)[0] if dotted.startswith(prefix) else None


def _callee(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")


def _import_module_call(node: ast.expr) -> str | None:
    """``importlib.import_module("x")`` (or ``import_module("x")``) with a literal name: ``x``."""
    if not isinstance(node, ast.Call) or _callee(node.func) != "import_module" or len(node.args) != 1:
        return None
    first = node.args[0]
    return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None


def _dotted(node: ast.expr) -> list[str] | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return [node.id, *reversed(parts)]


class _Reader:
    def __init__(self, tree: SourceTree, keyword: str):
        self.tree, self.keyword = tree, keyword

    def fail(self, module: ParsedModule, node: ast.AST, reason: str, remedy: str = ""):
        raise ProviderUnreadable(module.rel, getattr(node, "lineno", 1), self.keyword, reason, remedy)

    def module_named(self, module: ParsedModule, node: ast.AST, dotted: str, borrowed: str | None) -> Provider:
        if not self.tree.exists(dotted):
            folder = family_folder(dotted)
            if borrowed is None and folder and not self.tree.exists(f"{MODELS_PACKAGE}.{folder}"):
                borrowed = folder
            if borrowed is not None and not self.tree.exists(f"{MODELS_PACKAGE}.{borrowed}"):
                self.fail(module, node, f"it is borrowed from the family folder {borrowed}, which is not in the "
                                        "source tree", _MISSING_FAMILY)
            self.fail(module, node, f"it names the module {dotted}, which is neither a file nor a package under "
                                    "the source root", _MISSING_MODULE)
        # A module of another family's folder, returned by a loader of this one: borrowed all the same.
        folder, own = family_folder(dotted), family_folder(module.name)
        if borrowed is None and folder and own and folder != own:
            borrowed = folder
        return Provider(self.keyword, dotted, module.rel, getattr(node, "lineno", 1), borrowed)

    def value(self, module: ParsedModule, node: ast.expr, borrowed: str | None) -> Provider:
        """The spec keyword's value, as written in the registration module."""
        if isinstance(node, ast.Lambda):
            name = _import_module_call(node.body)
            if name is None:
                self.fail(module, node, "a lambda that does not return importlib.import_module(\"<literal>\")")
            return self.module_named(module, node, name, borrowed)
        name = _import_module_call(node)
        if name is not None:  # called at registration: the module object itself
            return self.module_named(module, node, name, borrowed)
        parts = _dotted(node)
        if parts is None:
            self.fail(module, node, f"`{ast.unparse(node)}` is neither a loader function, a lambda nor a module")
        return self.name(module, node, parts, borrowed)

    def name(self, module: ParsedModule, node: ast.AST, parts: list[str], borrowed: str | None) -> Provider:
        """A name bound at the registration module's top level: a def, an import of a module or of a loader."""
        head = parts[0]
        definition = module.definitions.get(head)
        if isinstance(definition, (ast.FunctionDef, ast.AsyncFunctionDef)) and len(parts) == 1:
            return self.loader(module, definition, borrowed)
        if head in module.imports:
            source, original, _ = module.imports[head]
            dotted = ".".join([source if original is None else f"{source}.{original}", *parts[1:]])
            if self.tree.exists(dotted):
                return self.module_named(module, node, dotted, borrowed)
            if original is not None and len(parts) == 1:
                return self.imported_loader(module, node, source, original)
            return self.module_named(module, node, dotted, borrowed)
        if definition is not None:
            self.fail(module, definition, f"{head} is bound by `{ast.unparse(definition).splitlines()[0]}`, not a "
                                          "def or an import")
        self.fail(module, node, f"{'.'.join(parts)} is not defined or imported in {module.rel}")

    def imported_loader(self, module: ParsedModule, node: ast.AST, source: str, original: str) -> Provider:
        """A loader imported from another module: another family's package makes it borrowed."""
        own = family_folder(module.name)
        folder = family_folder(source)
        borrowed = folder if folder and folder != own else None
        if not self.tree.exists(source):
            if borrowed is not None:
                self.fail(module, node, f"it is borrowed from {source}.{original}, and the family folder {borrowed} "
                                        "is not in the source tree", _MISSING_FAMILY)
            self.fail(module, node, f"it is imported from {source}, which is not under the source root")
        try:
            binding = self.tree.resolve(source, original)
        except UnreadableSource as error:
            raise ProviderUnreadable(error.rel, error.line or 1, self.keyword, error.reason) from None
        if binding.kind != "definition" or not isinstance(binding.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.fail(module, node, binding.reason or f"{source}.{original} is not a loader function")
        return self.loader(binding.module, binding.node, borrowed)

    def loader(self, module: ParsedModule, function, borrowed: str | None) -> Provider:
        """A loader with no parameters whose body imports one module and returns it."""
        args = function.args
        if args.posonlyargs or args.args or args.kwonlyargs or args.vararg or args.kwarg:
            self.fail(module, function, f"the loader {function.name} takes parameters")
        local: dict[str, str] = {}
        body = function.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]  # the docstring
        for statement in body:
            if isinstance(statement, ast.Import):
                for alias in statement.names:
                    if alias.asname:
                        local[alias.asname] = alias.name
                    else:
                        local[alias.name.split(".")[0]] = alias.name.split(".")[0]
            elif isinstance(statement, ast.ImportFrom):
                source = module.absolute(statement)
                for alias in statement.names:
                    local[alias.asname or alias.name] = f"{source}.{alias.name}"
            elif (
                isinstance(statement, ast.Assign)
                and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
                and _import_module_call(statement.value) is not None
            ):
                local[statement.targets[0].id] = _import_module_call(statement.value)
            elif isinstance(statement, ast.Return) and statement.value is not None:
                return self.returned(module, function, statement, local, borrowed)
            else:
                self.fail(module, statement, f"the loader {function.name} does more than import and return a "
                                             f"module (`{ast.unparse(statement).splitlines()[0]}`)")
        self.fail(module, function, f"the loader {function.name} returns nothing")

    def returned(self, module: ParsedModule, function, statement: ast.Return, local: dict, borrowed) -> Provider:
        value = statement.value
        name = _import_module_call(value)
        if name is not None:
            return self.module_named(module, statement, name, borrowed)
        parts = _dotted(value)
        if parts is not None and parts[0] not in local and parts[0] in module.imports:
            return self.name(module, statement, parts, borrowed)  # a module imported at the top of the file
        if parts is None or parts[0] not in local:
            self.fail(module, statement, f"the loader {function.name} returns `{ast.unparse(value)}`, not a module "
                                         "it imports")
        dotted = ".".join([local[parts[0]], *parts[1:]])
        source, attribute = dotted.rsplit(".", 1)
        package = self.tree.module(source) if not self.tree.exists(dotted) and self.tree.exists(source) else None
        # `from pkg import x; return x`: x is a name pkg binds (not a module), or a submodule whose file
        # is missing, which module_named reports.
        if package is not None and (attribute in package.definitions or attribute in package.imports):
            self.fail(module, statement, f"the loader {function.name} returns {attribute}, a name of {source}, not a "
                                         "module")
        return self.module_named(module, statement, dotted, borrowed)


def read(tree: SourceTree, module: ParsedModule, spec: ast.Call) -> list[Provider]:
    """The module providers of one ``ModelAdapterSpec(...)`` call, in keyword order; raises
    ProviderUnreadable for the first one written in a form this reader does not follow."""
    out = []
    for keyword in spec.keywords:
        if keyword.arg in MODULE_KEYWORDS and not (
            isinstance(keyword.value, ast.Constant) and keyword.value.value is None
        ):
            out.append(_Reader(tree, keyword.arg).value(module, keyword.value, None))
    return out
