#!/usr/bin/env python3
"""Every symbol a library exports must be declared by the public headers under INCLUDE.

    exported_symbols.py LIBRARY INCLUDE [EXTRA_SYMBOL...]

Reads what LIBRARY exports (`nm -D --defined-only -C`; each EXTRA_SYMBOL, a demangled name, is
added to it, which is how the check is shown to fail) and prints one line per symbol that no header
of INCLUDE/famspec declares, then exits 1; or prints a summary line and exits 0.

A symbol is declared when it is in namespace famspec and
  - a function at namespace scope: a declaration of INCLUDE/famspec (from one `;`, `{` or `}` to the
    next, comments left out) that is marked FAMSPEC_API names it, followed by `(`;
  - a member function: a header that declares its class names it followed by `(` (a constructor or
    a destructor: the class is declared);
  - type information or a virtual table: a header declares the class;
and every famspec name among its template arguments is declared (a class, struct or enum).
Only the standard library.
"""
import os
import re
import subprocess
import sys

COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
TYPE = re.compile(r"\b(?:class|struct|enum\s+class|enum)\s+(?:FAMSPEC_API\s+)?(\w+)\s*(?:final\s*)?[:{]")
CLASS_PREFIXES = ("typeinfo name for ", "typeinfo for ", "vtable for ")


def headers(include):
    """{path: text without comments} of every header under include/famspec."""
    out = {}
    for folder, _, names in os.walk(os.path.join(include, "famspec")):
        for name in sorted(names):
            if name.endswith(".hpp"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    out[os.path.relpath(path, include)] = COMMENT.sub("", f.read())
    return out


def exported(library):
    listing = subprocess.run(["nm", "-D", "--defined-only", "-C", library], check=True, capture_output=True,
                             text=True).stdout
    symbols = []
    for line in listing.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3:
            symbols.append(parts[2])
    return symbols


def top_level(text, opening):
    """Indexes of `opening` ("(" or "<") outside any bracket."""
    depth = 0
    found = []
    for i, c in enumerate(text):
        if c in "(<":
            if depth == 0 and c == opening:
                found.append(i)
            depth += 1
        elif c in ")>":
            depth -= 1
    return found


def split_scope(name):
    """'famspec::A<x>::f' -> ['famspec', 'A', 'f'], template arguments and ABI tags left out."""
    name = re.sub(r"\[abi:\w+\]", "", name)
    parts, depth, current = [], 0, ""
    for c in name:
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif depth == 0:
            current += c
    for part in current.split("::"):
        parts.append(part.strip())
    return parts


def qualified_function(symbol):
    """The qualified name of a function symbol, without its return type, parameters or qualifiers."""
    opening = top_level(symbol, "(")
    head = symbol[: opening[-1]] if opening else symbol
    # A template function's demangled name starts with its return type: the name is the last word.
    depth, cut = 0, 0
    for i, c in enumerate(head):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == " " and depth == 0:
            cut = i + 1
    return head[cut:]


def problem(symbol, texts, types):
    for prefix in CLASS_PREFIXES:
        if symbol.startswith(prefix):
            scope = split_scope(symbol[len(prefix):])
            if scope[0] != "famspec":
                return "not in namespace famspec"
            missing = [name for name in scope[1:] if name not in types]
            return f"no public header declares {'::'.join(missing)}" if missing else None
    name = qualified_function(symbol)
    scope = split_scope(name)
    if scope[0] != "famspec" or len(scope) < 2:
        return "not in namespace famspec"
    for argument in re.findall(r"famspec::(\w+)", name[name.find("<"):] if "<" in name else ""):
        if argument not in types:
            return f"no public header declares famspec::{argument}"
    function, classes = scope[-1], scope[1:-1]
    missing = [name for name in classes if name not in types]
    if missing:
        return f"no public header declares {'::'.join(missing)}"
    called = re.compile(r"(?<![\w~])" + re.escape(function.lstrip("~")) + r"\s*\(")
    if classes:
        if function.lstrip("~") == classes[-1]:
            return None
        if any(called.search(text) for text in types[classes[-1]]):
            return None
        return f"the header of {classes[-1]} declares no {function}"
    for text in texts.values():
        for declaration in re.split(r"[;{}]", text):
            if "FAMSPEC_API" in declaration and called.search(declaration):
                return None
    return f"no public header declares {function} with FAMSPEC_API"


def check(library, include, extra):
    texts = headers(include)
    types = {}  # class, struct or enum name -> the texts of the headers that declare it
    for text in texts.values():
        for name in TYPE.findall(text):
            types.setdefault(name, []).append(text)
    symbols = exported(library) + list(extra)
    problems = [f"{symbol}: {why}" for symbol in symbols if (why := problem(symbol, texts, types))]
    return problems, len(symbols), len(texts)


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    problems, symbols, count = check(sys.argv[1], sys.argv[2], sys.argv[3:])
    for line in problems:
        print(line)
    if problems:
        return 1
    print(f"{symbols} exported symbols, each declared by the {count} public headers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
