#!/usr/bin/python3
"""The size rule of core/, cli/ and sdk/: no file over 400 lines, no function over 60.

A function's length runs from the first line of its declaration to its closing brace. Lambdas and
local classes count towards the function that holds them. A table of data may be longer: it is
named, with its reason, in scripts/length-allowlist.txt, and an entry that no longer matches a long
file or function is an error too, so the list never outlives what it excuses.

The C++ is read with a brace scanner rather than a compiler: the sources are clang-formatted, and
comments, string and character literals and preprocessor lines are blanked before braces are
counted. Usage: check_lengths.py [SOURCE_ROOT]; exits 1 and names every violation.
"""

import os
import re
import sys

MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 60
CHECKED_DIRECTORIES = ("core", "cli", "sdk")
SUFFIXES = (".cpp", ".hpp", ".h", ".cc")
ALLOWLIST = os.path.join("scripts", "length-allowlist.txt")

_LITERAL = re.compile(
    r'//[^\n]*'                                     # line comment
    r'|/\*.*?\*/'                                   # block comment
    r'|(?:u8|[uUL])?R"(?P<delim>[^()\\\s]{0,16})\(.*?\)(?P=delim)"'  # raw string
    r'|(?:u8|[uUL])?"(?:\\.|[^"\\\n])*"'            # string
    r"|'(?:\\.|[^'\\\n])*'",                        # character
    re.DOTALL)
_DIRECTIVE = re.compile(r'^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', re.MULTILINE)
_TEMPLATE_HEAD = re.compile(r'^template\s*<')
_TYPE_HEAD = re.compile(r'^(?:typedef\s+)?(?:class|struct|union|enum)\b')
_NAMESPACE_HEAD = re.compile(r'^(?:inline\s+)?namespace\b|^extern\s+"')
_ACCESS = re.compile(r'^(?:(?:public|protected|private)\s*:\s*)+')
_NAME = re.compile(r'(operator\s*\S+?|(?:[A-Za-z_]\w*(?:<[^()]*?>)?::)*~?[A-Za-z_]\w*)\s*$')


def _blank(match):
    """The match with everything but its newlines turned into spaces, so line numbers hold."""
    return re.sub(r'[^\n]', ' ', match.group(0))


def code_only(text):
    """The text with comments, literals and preprocessor lines blanked out."""
    return _DIRECTIVE.sub(_blank, _LITERAL.sub(_blank, text))


def _strip_template_head(header):
    """The header without its leading template <...> parameter list."""
    if not _TEMPLATE_HEAD.match(header):
        return header
    depth = 0
    for i, c in enumerate(header):
        if c == '<':
            depth += 1
        elif c == '>':
            depth -= 1
            if depth == 0:
                return header[i + 1:].strip()
    return header


def _has_initializer(header):
    """True when the header assigns (`x = {...}`): a brace that opens data, not a body."""
    depth = 0
    for i, c in enumerate(header):
        if c in '([':
            depth += 1
        elif c in ')]':
            depth -= 1
        elif c == '=' and depth == 0:
            before, after = header[i - 1:i], header[i + 1:i + 2]
            if before not in '=!<>' and after != '=' and not header[:i].rstrip().endswith('operator'):
                return True
    return False


def _kind(header):
    """What a brace opened at namespace or class scope holds: namespace, type, function or data."""
    header = _ACCESS.sub('', _strip_template_head(header))
    if _NAMESPACE_HEAD.match(header):
        return 'namespace'
    if _has_initializer(header):
        return 'data'
    if _TYPE_HEAD.match(header):
        return 'type'
    return 'function' if '(' in header else 'data'


def _function_name(header):
    head = header[:header.find('(')] if '(' in header else header
    match = _NAME.search(head.strip())
    return match.group(1) if match else head.strip()


def functions(text):
    """Each function definition as (name, first line, last line), 1-based."""
    code = code_only(text)
    found = []
    stack = []  # (kind, header start line)
    header_start = 0
    line_of = lambda offset: code.count('\n', 0, offset) + 1
    for i, c in enumerate(code):
        if c not in '{};':
            continue
        enclosing = stack[-1][0] if stack else 'namespace'
        if c == '{':
            if enclosing in ('function', 'block', 'data'):
                kind = 'block'
            else:
                kind = _kind(' '.join(code[header_start:i].split()))
            first = code[header_start:i]
            start = header_start + (len(first) - len(first.lstrip()))
            stack.append((kind, start, ' '.join(first.split())))
        elif c == '}':
            if stack:
                kind, start, header = stack.pop()
                if kind == 'function':
                    found.append((_function_name(header), line_of(start), line_of(i)))
        if not stack or stack[-1][0] in ('namespace', 'type'):
            header_start = i + 1
    return found


def read_allowlist(root):
    """{(path, function or None): reason}; a line is `path[:function]  reason`."""
    entries = {}
    path = os.path.join(root, ALLOWLIST)
    if not os.path.exists(path):
        return entries
    with open(path, encoding='utf-8') as lines:
        for number, line in enumerate(lines, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            where, _, reason = line.partition(' ')
            if not reason.strip():
                raise SystemExit(f'{ALLOWLIST}:{number}: an entry needs a reason after the path')
            file, _, function = where.partition(':')
            entries[(file, function or None)] = reason.strip()
    return entries


def sources(root):
    for directory in CHECKED_DIRECTORIES:
        for parent, _, names in os.walk(os.path.join(root, directory)):
            for name in sorted(names):
                if name.endswith(SUFFIXES):
                    yield os.path.relpath(os.path.join(parent, name), root)


def violations(root):
    """Every line over the limits, then every allow-list entry that excuses nothing."""
    allowed = read_allowlist(root)
    used = set()
    problems = []
    for path in sorted(sources(root)):
        with open(os.path.join(root, path), encoding='utf-8') as source:
            text = source.read()
        lines = text.count('\n') + (0 if text.endswith('\n') or not text else 1)
        if lines > MAX_FILE_LINES:
            if (path, None) in allowed:
                used.add((path, None))
            else:
                problems.append(f'{path}: {lines} lines (at most {MAX_FILE_LINES}): split it, one concept a file')
        for name, first, last in functions(text):
            length = last - first + 1
            if length <= MAX_FUNCTION_LINES:
                continue
            if (path, name) in allowed:
                used.add((path, name))
            else:
                problems.append(f'{path}:{first}: function {name} has {length} lines (at most {MAX_FUNCTION_LINES})')
    for (path, function), reason in sorted(allowed.items(), key=lambda item: (item[0][0], item[0][1] or '')):
        if (path, function) not in used:
            what = f'{path}:{function}' if function else path
            problems.append(f'{ALLOWLIST}: {what} is no longer over the limit: remove the entry')
    return problems


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    problems = violations(root)
    for problem in problems:
        print(problem)
    if problems:
        print(f'check_lengths: {len(problems)} violation(s)', file=sys.stderr)
        return 1
    print(f'check_lengths: every file in {", ".join(CHECKED_DIRECTORIES)} within {MAX_FILE_LINES} lines, '
          f'every function within {MAX_FUNCTION_LINES}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
