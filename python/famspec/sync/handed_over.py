"""Functions a factory hands over to a component (``attention_interface=run_...``): their Python text,
taken from the source with the module-level helpers, constants and imports they need, as blocks in
dependency order (the function, then what it needs, breadth first)."""

from __future__ import annotations

import ast
import builtins
import importlib.util
import re

from ..source.source_tree import ParsedModule, SourceTree, UnreadableSource
from .errors import SyncError
from .model import Block, Site, Todo

_BUILTINS = set(dir(builtins))


def _bound_inside(node: ast.AST) -> set[str]:
    """Names a def or class binds for itself: parameters, assignments, loop targets, local imports."""
    bound = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.arg):
            bound.add(inner.arg)
        elif isinstance(inner, ast.Name) and isinstance(inner.ctx, (ast.Store, ast.Del)):
            bound.add(inner.id)
        elif isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and inner is not node:
            bound.add(inner.name)
        elif isinstance(inner, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in inner.names)
        elif isinstance(inner, ast.ExceptHandler) and inner.name:
            bound.add(inner.name)
    return bound


def _read_names(statements: list[ast.stmt]) -> list[str]:
    """Names the statements read, in order of first use."""
    seen: dict[str, tuple[int, int]] = {}
    for statement in statements:
        for inner in ast.walk(statement):
            if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Load):
                position = (inner.lineno, inner.col_offset)
                if inner.id not in seen or position < seen[inner.id]:
                    seen[inner.id] = position
    return sorted(seen, key=seen.get)


def _import_line(module: ParsedModule, name: str) -> str:
    source, original, node = module.imports[name]
    if isinstance(node, ast.Import):
        alias = next(a for a in node.names if (a.asname or a.name.split(".")[0]) == name)
        return f"import {alias.name}" + (f" as {alias.asname}" if alias.asname else "")
    return f"from {source} import {original}" + (f" as {name}" if name != original else "")


def _paragraph(module: ParsedModule, statement: ast.stmt) -> list[ast.stmt]:
    """The run of top-level assignments around one, with no blank line between them: one block."""
    body = module.tree.body
    index = body.index(statement)
    lines = source_lines(module)

    def joined(a: ast.stmt, b: ast.stmt) -> bool:
        assigns = (ast.Assign, ast.AnnAssign, ast.AugAssign)
        return isinstance(a, assigns) and isinstance(b, assigns) and all(
            lines[i].strip() for i in range(a.end_lineno, b.lineno - 1)
        ) and b.lineno == a.end_lineno + 1

    start = index
    while start > 0 and joined(body[start - 1], body[start]):
        start -= 1
    end = index
    while end + 1 < len(body) and joined(body[end], body[end + 1]):
        end += 1
    return body[start : end + 1]


def _top_statement(module: ParsedModule, node: ast.AST) -> ast.stmt | None:
    return node if node in module.tree.body else None


def _defines(statements: list[ast.stmt]) -> list[str]:
    names = []
    for s in statements:
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(s.name)
        else:
            targets = s.targets if isinstance(s, ast.Assign) else [s.target]
            for t in targets:
                names += [n.id for n in ast.walk(t) if isinstance(n, ast.Name) and n.id not in names]
    return names


# Python's tokenizer ends a line only at \n, \r\n or \r; str.splitlines() also splits at a form feed,
# U+2028 and others, which would shift every line number ast gives.
_LINE_END = re.compile(r"\r\n|\r|\n")


def source_lines(module: ParsedModule) -> list[str]:
    """The module's lines as ast numbers them (without their line ends), decoded as Python decodes the
    file (its coding declaration, else UTF-8)."""
    return _LINE_END.split(importlib.util.decode_source(module.path.read_bytes()))


def _same_code(a: list[ast.stmt], b: list[ast.stmt]) -> bool:
    return ast.dump(ast.Module(body=a, type_ignores=[])) == ast.dump(ast.Module(body=b, type_ignores=[]))


def _text(module: ParsedModule, statements: list[ast.stmt]) -> str:
    """The statements' lines as written; what is copied must parse to the same code, and must be a text
    the plugin can embed (FamspecEmbedAssets.cmake holds it in a raw string)."""
    lines = source_lines(module)
    first = statements[0]
    start = min([first.lineno] + [d.lineno for d in getattr(first, "decorator_list", [])])
    text = "\n".join(lines[start - 1 : statements[-1].end_lineno]) + "\n"
    where = f"{module.rel}:{start}"
    for bad, why in (("\0", "a NUL character"), (')famspec"', "the raw-string delimiter )famspec\"")):
        if bad in text:
            raise SyncError(f"{where}: the handed-over code holds {why}, which the plugin cannot embed; "
                            "nothing was written")
    try:
        copied = ast.parse(text).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        copied = None
    if copied is None or not _same_code(copied, statements):
        raise SyncError(f"{where}: the lines of {', '.join(_defines(statements))} do not parse on their own to the "
                        "same code as in the module (another statement shares their lines?); nothing was written")
    return text


def blocks_for(tree: SourceTree, provider: ParsedModule, name: str, site: Site) -> tuple[list[Block], list[Todo]]:
    """The handed-over function ``name`` (as the provider module binds it) and everything it needs."""
    return _definition_blocks(tree, provider.name, name, site, (ast.FunctionDef, ast.AsyncFunctionDef),
                              "the handed-over function", "a def")


def class_blocks(tree: SourceTree, module: str, name: str, site: Site) -> tuple[list[Block], list[Todo]]:
    """A component's class, defined in ``module``, and everything it needs: what a plan renders when a
    factory hands the component a function."""
    return _definition_blocks(tree, module, name, site, (ast.ClassDef,), "the rendered component", "a class")


def _definition_blocks(tree: SourceTree, module_name: str, name: str, site: Site, kinds: tuple, what: str,
                       expected: str) -> tuple[list[Block], list[Todo]]:
    try:
        binding = tree.resolve(module_name, name)
    except UnreadableSource as error:
        return [], [Todo(Site(error.rel, error.line or 1), name, error.reason)]
    if binding.kind != "definition" or not isinstance(binding.node, kinds):
        reason = binding.reason or f"{name} is not {expected} in the source tree"
        return [], [Todo(site, name, f"{what} cannot be read: {reason}")]
    blocks, todos, done = [], [], set()
    queue = [(binding.module, binding.node)]
    while queue:
        module, node = queue.pop(0)
        statement = _top_statement(module, node)
        if statement is None:
            todos.append(Todo(Site(module.rel, node.lineno), name, "a needed name is not bound at module level"))
            continue
        statements = _paragraph(module, statement) if isinstance(statement, (ast.Assign, ast.AnnAssign)) else [
            statement
        ]
        key = (module.name, statements[0].lineno)
        if key in done:
            continue
        done.add(key)
        defines = _defines(statements)
        bound = set(defines)
        for s in statements:
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                bound |= _bound_inside(s)
        imported, defined = [], []
        for used in _read_names(statements):
            if used in bound and used not in defines:
                continue
            if used in defines:
                continue
            if used in module.imports:
                imported.append(used)
            elif used in module.definitions:
                defined.append(used)
                queue.append((module, module.definitions[used]))
            elif used not in _BUILTINS:
                todos.append(Todo(Site(module.rel, statements[0].lineno), name,
                                  f"{used}, read by {defines[0]}, is neither defined nor imported in {module.rel}"))
        imports = list(dict.fromkeys(_import_line(module, n) for n in imported))
        # What it needs from its module in the order the module defines it: the artifact renders the
        # helpers in that order, as the runtime's module lays them out.
        defined.sort(key=lambda n: module.definitions[n].lineno)
        blocks.append(Block(Site(module.rel, statements[0].lineno), defines, imported + defined, imports,
                            _text(module, statements)))
    return blocks, todos
