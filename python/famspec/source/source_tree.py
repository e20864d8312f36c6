"""The runtime's Python source, read with ``ast`` only: nothing under the root is ever imported."""

from __future__ import annotations

import ast
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

# How deep a chain of re-exports (``from .x import y`` in a package) is followed.
_MAX_REEXPORTS = 8


# A source file larger than this is refused before it is parsed (ast needs ~150 bytes a byte of source).
MAX_SOURCE_BYTES = 4 << 20

# How deep a module's syntax tree may nest: `a + b + ...` of N terms nests N deep. The readers walk
# expressions recursively (ast.unparse, ast.literal_eval, ast.dump), and past ~300 levels Python's
# recursion limit ends them with a RecursionError that names no file; a module beyond this is refused
# at the line where it goes too deep, so only the declarations it holds are unreadable.
MAX_NESTING = 200


class UnreadableSource(Exception):
    """A file that exists but cannot be parsed; carries its position."""

    def __init__(self, rel: str, line: int | None, reason: str):
        super().__init__(f"{rel}:{line or 1}: {reason}")
        self.rel = rel
        self.line = line
        self.reason = reason


@dataclass
class ParsedModule:
    """One parsed module and its top-level bindings (including those under if/try/with)."""

    name: str
    path: Path
    rel: str  # path relative to the source root, posix form, for messages
    is_package: bool
    tree: ast.Module
    definitions: dict[str, ast.AST] = field(default_factory=dict)  # def/class/assignment, last wins
    imports: dict[str, tuple[str, str | None, ast.AST]] = field(default_factory=dict)
    star_imports: list[ast.ImportFrom] = field(default_factory=list)
    lazy_getattr: ast.AST | None = None  # a module-level __getattr__ computes names on access

    def absolute(self, node: ast.ImportFrom) -> str:
        """The absolute module an ``from ... import`` statement names."""
        if not node.level:
            return node.module or ""
        parts = self.name.split(".")
        if not self.is_package:
            parts = parts[:-1]
        parts = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
        return ".".join(parts + ([node.module] if node.module else []))


def _too_deep(tree: ast.AST) -> ast.AST | None:
    """The first node nested more than MAX_NESTING levels below the module, if any (walked without
    recursion, so a tree of any depth is measured)."""
    pending = [(tree, 0)]
    while pending:
        node, depth = pending.pop()
        if depth > MAX_NESTING:
            return node
        pending.extend((child, depth + 1) for child in ast.iter_child_nodes(node)
                       if not isinstance(child, ast.expr_context))
    return None


def _file_kind(mode: int) -> str:
    """What a path that is not a regular file is, for messages."""
    for test, kind in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "a special file"


def top_level_statements(body: list[ast.stmt]):
    """Statements that bind module names: the body, and the bodies of if/try/with at top level."""
    for statement in body:
        yield statement
        if isinstance(statement, (ast.If, ast.While, ast.For)):
            yield from top_level_statements(statement.body)
            yield from top_level_statements(statement.orelse)
        elif isinstance(statement, ast.Try):
            for block in (statement.body, statement.orelse, statement.finalbody):
                yield from top_level_statements(block)
            for handler in statement.handlers:
                yield from top_level_statements(handler.body)
        elif isinstance(statement, ast.With):
            yield from top_level_statements(statement.body)


def imports_of(statements, module: ParsedModule | None, into: dict) -> list[ast.ImportFrom]:
    """Record ``name -> (module, original name or None, node)`` for each import; returns star imports."""
    stars = []
    for node in statements:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    into[alias.asname] = (alias.name, None, node)
                else:
                    head = alias.name.split(".")[0]
                    into[head] = (head, None, node)
        elif isinstance(node, ast.ImportFrom):
            source = module.absolute(node) if module is not None else (node.module or "")
            for alias in node.names:
                if alias.name == "*":
                    stars.append(node)
                else:
                    into[alias.asname or alias.name] = (source, alias.name, node)
    return stars


@dataclass
class Binding:
    """What a name in a module turned out to be."""

    kind: str  # "definition" | "external" | "missing" | "computed"
    module: ParsedModule | None = None  # where the definition (or the dead end) is
    node: ast.AST | None = None
    external: str | None = None  # "module.name" outside the root, for kind "external"
    reason: str = ""


class SourceTree:
    """Modules under one root, parsed lazily and once."""

    def __init__(self, root: Path):
        self.root = root
        self._cache: dict[str, ParsedModule | None] = {}
        self._paths: dict[str, tuple[Path | None, bool]] = {}

    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def module_path(self, dotted: str) -> tuple[Path | None, bool]:
        """The file of a module (``a/b.py`` or ``a/b/__init__.py``) and whether it is a package."""
        if dotted not in self._paths:
            self._paths[dotted] = self._find(dotted)
        return self._paths[dotted]

    def _find(self, dotted: str) -> tuple[Path | None, bool]:
        if not dotted or any(not part.isidentifier() for part in dotted.split(".")):
            return None, False
        base = self.root.joinpath(*dotted.split("."))
        if (base / "__init__.py").is_file():
            return base / "__init__.py", True
        if base.with_name(base.name + ".py").is_file():
            return base.with_name(base.name + ".py"), False
        if base.is_dir():
            return base, True  # a namespace package: it exists, with no module body
        return None, False

    def registration_files(self) -> tuple[list[Path], list[UnreadableSource]]:
        """Every hyper_parallel/models/<folder>/adapter/registration.py, sorted, and each directory on
        the way that cannot be read: a glob would pass over it in silence, as if it held no family."""
        found, unreadable = [], []
        models = self.root / "hyper_parallel" / "models"
        try:
            folders = sorted(os.listdir(models))
        except (FileNotFoundError, NotADirectoryError):
            return found, unreadable
        except OSError as error:
            return found, [UnreadableSource(self.rel(models), None, f"cannot be read: {error.strerror}")]
        for folder in folders:
            path = models / folder / "adapter" / "registration.py"
            try:
                status = os.stat(path)
            except (FileNotFoundError, NotADirectoryError):
                continue
            except OSError as error:
                unreadable.append(UnreadableSource(self.rel(path.parent), None, f"cannot be read: {error.strerror}"))
                continue
            if not stat.S_ISREG(status.st_mode):
                unreadable.append(UnreadableSource(self.rel(path), None, f"is {_file_kind(status.st_mode)}, not a "
                                                   "Python file: the runtime cannot import it"))
                continue
            found.append(path)
        return found, unreadable

    def module_files(self, package: str) -> list[str]:
        """Every module under a package's folder (each ``*.py`` at any depth), in path order, as dotted
        names. A file the runtime could not import under its name (a folder or file name that is not an
        identifier, not a regular file, a link that leads nowhere) raises UnreadableSource: passed over,
        it would hide what it declares."""
        path, is_package = self.module_path(package)
        if path is None or not is_package:
            return []
        folder = path.parent if path.name == "__init__.py" else path
        out = []
        for file in sorted(folder.rglob("*.py")):
            rel = self.rel(file)
            parts = file.relative_to(self.root).with_suffix("").parts
            if not all(part.isidentifier() for part in parts):
                raise UnreadableSource(rel, None, "is not an importable Python module: "
                                       f"'{next(p for p in parts if not p.isidentifier())}' is not an identifier")
            try:
                mode = os.stat(file).st_mode
            except OSError as error:
                raise UnreadableSource(rel, None, f"cannot be read: {error.strerror}") from None
            if not stat.S_ISREG(mode):
                raise UnreadableSource(rel, None, f"is {_file_kind(mode)}, not a Python file")
            out.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
        return out

    def exists(self, dotted: str) -> bool:
        return self.module_path(dotted)[0] is not None

    def display(self, dotted: str) -> str:
        """Where a module is (or would be) under the root, for messages."""
        path, _ = self.module_path(dotted)
        if path is not None:
            return self.rel(path)
        return "/".join(dotted.split(".")) + ".py"

    def module(self, dotted: str) -> ParsedModule | None:
        """The parsed module, None when it does not exist; raises UnreadableSource when it cannot be parsed."""
        if dotted in self._cache:
            return self._cache[dotted]
        path, is_package = self.module_path(dotted)
        parsed = None
        if path is not None:
            parsed = self._parse(dotted, path, is_package)
        self._cache[dotted] = parsed
        return parsed

    def _parse(self, dotted: str, path: Path, is_package: bool) -> ParsedModule:
        rel = self.rel(path)
        if path.is_dir():
            tree = ast.Module(body=[], type_ignores=[])
        else:
            try:
                if path.stat().st_size > MAX_SOURCE_BYTES:
                    raise UnreadableSource(rel, None, f"is larger than {MAX_SOURCE_BYTES >> 20} MiB, the limit for "
                                           "one source file")
                tree = ast.parse(path.read_bytes(), filename=rel)
            except SyntaxError as error:
                raise UnreadableSource(rel, error.lineno, f"does not parse: {error.msg}") from None
            except (RecursionError, MemoryError):
                raise UnreadableSource(rel, None, "is nested too deeply to parse") from None
            except (OSError, ValueError) as error:
                raise UnreadableSource(rel, None, f"cannot be read: {error}") from None
        deep = _too_deep(tree)
        if deep is not None:
            raise UnreadableSource(rel, getattr(deep, "lineno", None), f"nests more than {MAX_NESTING} levels deep "
                                   f"(an expression of more than {MAX_NESTING} terms, say), beyond what famspec reads")
        module = ParsedModule(dotted, path, rel, is_package, tree)
        statements = list(top_level_statements(tree.body))
        module.star_imports = imports_of(statements, module, module.imports)
        for node in statements:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                module.definitions[node.name] = node
                module.imports.pop(node.name, None)
                if node.name == "__getattr__":
                    module.lazy_getattr = node
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name):
                            module.definitions[name.id] = node
                            module.imports.pop(name.id, None)
        return module

    def resolve(self, dotted: str, name: str, depth: int = 0) -> Binding:
        """What ``name`` is in module ``dotted``, following re-exports inside the root."""
        module = self.module(dotted)
        if module is None:
            return Binding("missing", reason=f"module {dotted} does not exist")
        if name in module.definitions:
            return Binding("definition", module, module.definitions[name])
        if name in module.imports:
            source, original, node = module.imports[name]
            if original is None:
                return Binding("computed", module, node, reason=f"'{name}' is bound to the module {source}")
            if depth >= _MAX_REEXPORTS:
                return Binding("computed", module, node, reason="re-exported through too many modules")
            if self.exists(source) and self.module(source) is not None:
                if self.exists(f"{source}.{original}") and original not in self.module(source).definitions:
                    return Binding("external", module, node, external=f"{source}.{original}")
                found = self.resolve(source, original, depth + 1)
                if found.kind != "missing":
                    return found
                return Binding("missing", module, node, reason=f"{source} does not define '{original}'")
            return Binding("external", module, node, external=f"{source}.{original}")
        if module.star_imports:
            star = module.star_imports[0]
            return Binding("computed", module, star, reason=f"'{name}' may come from a star import")
        if module.lazy_getattr is not None:
            return Binding("computed", module, module.lazy_getattr, reason=f"'{name}' may be computed by __getattr__")
        return Binding("missing", module, reason=f"{module.rel} does not define '{name}'")

    def split_dotted(self, dotted: str) -> tuple[str | None, list[str]]:
        """The longest module prefix of a dotted path that exists under the root, and the rest."""
        parts = dotted.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            if self.exists(".".join(parts[:cut])):
                return ".".join(parts[:cut]), parts[cut:]
        return None, parts
