"""C++ spellings of Python values for the SDK's declarations (famspec/sdk/table_declarations.hpp)."""

from __future__ import annotations

import math

from ..source.signatures import python_expression
from .model import Param, Value


# C++20's keywords and alternative tokens: an asset named like one could not be `py::<name>`.
KEYWORDS = frozenset("""alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t
char32_t class compl concept const consteval constexpr constinit const_cast continue co_await co_return co_yield
decltype default delete do double dynamic_cast else enum explicit export extern false float for friend goto if
inline int long mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public
register reinterpret_cast requires return short signed sizeof static static_assert static_cast struct switch
template this thread_local throw true try typedef typeid typename union unsigned using virtual void volatile
wchar_t while xor xor_eq""".split())


def string(text: str) -> str:
    out = []
    for ch in text:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\{ord(ch):03o}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def literal(value: object) -> str | None:
    """A PyLiteral, or None when the value has no C++ literal (inf, nan, an int beyond 64 bits)."""
    if value is None:
        return "famspec::none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if -(2**63) < value < 2**63 else None
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else None
    if isinstance(value, str):
        # The SDK reads a literal up to its NUL, and a lone surrogate has no UTF-8 spelling.
        return None if "\0" in value or any(0xD800 <= ord(c) < 0xE000 for c in value) else string(value)
    return None


def default(value: Value) -> str | None:
    """The second argument of param(name, ...): a literal, or expression("...") for other Python."""
    if value.kind == "literal":
        return literal(value.value)
    if value.kind == "expression":
        return f"expression({string(value.value)})"
    return None


def param(p: Param) -> str:
    spelled = default(p.value)
    if p.value.kind == "required":
        return f"param({string(p.name)})"
    if spelled is None:
        return f"param({string(p.name)}, expression({string(python_expression(p.value.value))}))"
    allowed = choices(p)
    if allowed is not None and p.value.kind == "literal":
        return f"param({string(p.name)}, {spelled}, one_of{allowed})"
    return f"param({string(p.name)}, {spelled})"


def choices(p: Param) -> str | None:
    """one_of's braces for the values of a Literal[...] annotation, when each has a C++ literal."""
    if not p.choices:
        return None
    spelled = [literal(c) for c in p.choices]
    return None if None in spelled else "{" + ", ".join(spelled) + "}"


def signature_items(params: list[Param]) -> list[str]:
    """param(...), kw_only, param(...): the bare * where keyword-only parameters begin."""
    parts, starred = [], False
    for p in params:
        if p.keyword_only and not starred:
            parts.append("kw_only")
            starred = True
        parts.append(param(p))
    return parts


def signature(params: list[Param]) -> str:
    return "{" + ", ".join(signature_items(params)) + "}"


def choices_comment(params: list[Param]) -> list[str]:
    """The allowed values of Literal[...] options that one_of cannot declare (no literal default, or a
    value without a C++ literal): written as comments for the author to review."""
    return [
        f"// option {p.name}: Literal[{', '.join(repr(c) for c in p.choices)}]"
        for p in params
        if p.choices and (p.value.kind != "literal" or choices(p) is None)
    ]


def strings(items) -> str:
    return "{" + ", ".join(string(i) for i in items) + "}"


def comment(text: object) -> str:
    """Text read from the source, made inert inside a `//` comment: no line break (\\n, \\r, U+2028, a
    form feed...) ends the comment, and no trailing backslash continues it onto the next line."""
    out = []
    for ch in str(text):
        if ch == "\\" or not ch.isprintable():
            out.append(ascii(ch)[1:-1] if ch != "\\" else "\\\\")
        else:
            out.append(ch)
    return "".join(out)
