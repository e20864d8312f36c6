#!/usr/bin/python3
"""`famspec sync` and `famspec audit` on mutated copies of a runtime tree, in-process.

Each seed mutates one to three Python files of the tree (a form feed, U+2028 or an odd line ending
put in, a comment, decorator or blank line added, a name renamed, two top-level statements swapped,
the file truncated, lines deleted, bytes flipped), then runs the audit and sync of one family. The
contract, for every input:

- neither command raises: each returns 0, 1 or 2, and nothing it prints holds a traceback;
- a sync that fails (1: a form it does not read, 2: bad input) writes nothing;
- a sync that succeeds copies handed-over code that parses, each statement to the same AST as a
  statement of the mutated source, and a `--check` right after finds the project up to date.

Usage: source_mutations.py --declarations FILE --runtime DIR [--seeds N | --seconds S] [--first SEED]
The fixed list (seeds 0..N-1) is what CI replays; FAMSPEC_FUZZ_SECONDS=S (or --seconds) runs
seeds from --first on for S seconds instead. A violation prints its seed, the mutations and the
command to replay it, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib.util
import io
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

from famspec.audit import main as audit
from famspec.sync import main as sync

CI_SEEDS = 400
_FAMILY_FOLDER = re.compile(r"hyper_parallel/models/([A-Za-z0-9_]+)/")
_PER_SEED_SECONDS = 20  # a seed that takes longer is a hang
outcomes: dict[int, int] = {}  # sync's exit codes, counted


class Violation(Exception):
    pass


# Each mutation takes the file's bytes and a random source and returns new bytes and what it did.
def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True) or [b""]


def _insert_at_line(data: bytes, rng: random.Random, text: bytes, indent: bool) -> tuple[bytes, int]:
    lines = _lines(data)
    at = rng.randrange(len(lines) + 1)
    if indent and at < len(lines):
        text = lines[at][: len(lines[at]) - len(lines[at].lstrip(b" \t"))] + text
    lines.insert(at, text)
    return b"".join(lines), at + 1


def form_feed(data, rng):
    new, line = _insert_at_line(data, rng, rng.choice([b"\x0c\n", b"\x0c", b"\x0c# page\n"]), indent=False)
    return new, f"form feed at line {line}"


def line_separator(data, rng):
    separator = rng.choice(["\u2028", "\u2029", "\x85", "\x1c"]).encode("utf-8")
    if rng.random() < 0.5:
        new, line = _insert_at_line(data, rng, b"# a" + separator + b"b\n", indent=True)
        return new, f"comment with {separator!r} at line {line}"
    at = rng.randrange(len(data) + 1)
    return data[:at] + separator + data[at:], f"{separator!r} at byte {at}"


def line_endings(data, rng):
    ending = rng.choice([b"\r\n", b"\r"])
    if rng.random() < 0.5:
        return data.replace(b"\n", ending), f"every line ending {ending!r}"
    lines = _lines(data)
    at = rng.randrange(len(lines))
    lines[at] = lines[at].rstrip(b"\n") + ending
    return b"".join(lines), f"line {at + 1} ends {ending!r}"


def comment(data, rng):
    text = rng.choice([b"# a comment\n", b"#\n", b"# type: ignore\n", b"    # indented\n", b"# -*- coding: latin-1 -*-\n"])
    new, line = _insert_at_line(data, rng, text, indent=rng.random() < 0.7)
    return new, f"comment {text!r} at line {line}"


def decorator(data, rng):
    lines = _lines(data)
    heads = [i for i, line in enumerate(lines) if line.lstrip().startswith((b"def ", b"class ", b"async def "))]
    text = rng.choice([b"@decorator\n", b"@functools.lru_cache(maxsize=None)\n", b"@staticmethod\n", b"@x.y(1)\n"])
    if not heads:
        new, line = _insert_at_line(data, rng, text, indent=True)
        return new, f"decorator {text!r} at line {line}"
    at = rng.choice(heads)
    indent = lines[at][: len(lines[at]) - len(lines[at].lstrip(b" \t"))]
    lines.insert(at, indent + text)
    return b"".join(lines), f"decorator {text!r} before line {at + 1}"


def blank_lines(data, rng):
    text = rng.choice([b"\n", b"\n\n\n", b"   \n", b"\t\n"])
    new, line = _insert_at_line(data, rng, text, indent=False)
    return new, f"blank line(s) {text!r} at line {line}"


def rename(data, rng):
    names = sorted(set(re.findall(rb"\b[A-Za-z_][A-Za-z0-9_]{2,}\b", data)))
    if not names:
        return data, "rename: no name"
    old = rng.choice(names)
    new = rng.choice([old + b"_2", old.upper(), b"x" + old, b"qwen3_moe", b"class"])
    if rng.random() < 0.5:
        return re.sub(rb"\b" + re.escape(old) + rb"\b", new, data), f"rename {old!r} to {new!r} everywhere"
    return data.replace(old, new, 1), f"rename the first {old!r} to {new!r}"


def reorder(data, rng):
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return data, "reorder: does not parse"
    if len(tree.body) < 2 or b"\r" in data:
        return data, "reorder: nothing to swap"
    lines = _lines(data)
    first, second = sorted(rng.sample(range(len(tree.body)), 2))
    a, b = tree.body[first], tree.body[second]
    start_a = min([a.lineno] + [d.lineno for d in getattr(a, "decorator_list", [])]) - 1
    start_b = min([b.lineno] + [d.lineno for d in getattr(b, "decorator_list", [])]) - 1
    chunk_a, chunk_b = lines[start_a:a.end_lineno], lines[start_b:b.end_lineno]
    if a.end_lineno > start_b:
        return data, "reorder: statements share a line"
    out = lines[:start_a] + chunk_b + lines[a.end_lineno:start_b] + chunk_a + lines[b.end_lineno:]
    return b"".join(out), f"swap the top-level statements at lines {start_a + 1} and {start_b + 1}"


def truncate(data, rng):
    at = rng.randrange(len(data) + 1)
    return data[:at], f"truncated to {at} bytes"


def delete_lines(data, rng):
    lines = _lines(data)
    at = rng.randrange(len(lines))
    count = rng.randint(1, 3)
    del lines[at:at + count]
    return b"".join(lines), f"lines {at + 1}..{at + count} deleted"


def flip_bytes(data, rng):
    if not data:
        return data, "flip: empty"
    out = bytearray(data)
    places = []
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(out))
        out[at] ^= 1 << rng.randrange(8)
        places.append(at)
    return bytes(out), f"bits flipped at bytes {places}"


MUTATIONS = (form_feed, line_separator, line_endings, comment, decorator, blank_lines, rename, reorder, truncate,
             delete_lines, flip_bytes)


def _run(command, argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = command(argv)
    except BaseException as error:  # noqa: B902 (whatever escapes is the finding)
        if isinstance(error, KeyboardInterrupt):
            raise
        raise Violation(f"{argv[0] if argv else ''} raised {type(error).__name__}: {error}\n"
                        + traceback.format_exc()) from None
    if code not in (0, 1, 2):
        raise Violation(f"exit code {code!r}")
    for text in (out.getvalue(), err.getvalue()):
        if "Traceback" in text:
            raise Violation("printed a traceback:\n" + text)
    return code, out.getvalue(), err.getvalue()


def _statements(root: Path) -> set[str]:
    """Every statement of every module of the tree that parses, as Python reads the file."""
    found = set()
    for path in root.rglob("*.py"):
        try:
            tree = ast.parse(importlib.util.decode_source(path.read_bytes()))
        except (SyntaxError, ValueError, UnicodeDecodeError, LookupError, RecursionError, MemoryError):
            continue
        found.update(ast.dump(node) for node in ast.walk(tree) if isinstance(node, ast.stmt))
    return found


def _check_project(root: Path, out: Path, family: str, declarations: str) -> None:
    assets = sorted((out / "python").glob("*.py")) if (out / "python").is_dir() else []
    statements = _statements(root) if assets else set()
    for asset in assets:
        try:
            copied = ast.parse(asset.read_text(encoding="utf-8"))
        except SyntaxError as error:
            raise Violation(f"{asset.name} does not parse: {error}") from None
        for node in copied.body:
            if ast.dump(node) not in statements:
                raise Violation(f"{asset.name}:{node.lineno}: the copied statement is no statement of the source "
                                f"(as Python parses it):\n{ast.unparse(node)}")
    code, stdout, stderr = _run(sync, ["--source-root", str(root), "--family", family, "--out", str(out),
                                       "--declarations", declarations, "--allow-incomplete", "--check", "--quiet"])
    if code != 0:
        raise Violation(f"sync --check right after sync exits {code}:\n{stdout}{stderr}")


def one_seed(seed: int, pristine: Path, work: Path, declarations: str, families: list[str], done: list[str],
             touched: set[str]) -> None:
    """Mutates the work tree (a copy of pristine) and runs both commands; `done` says what it did,
    `touched` which files it changed."""
    rng = random.Random(seed)
    # Mostly files with something in them: an empty __init__.py gives most mutations nothing to change.
    files = sorted(p.relative_to(pristine).as_posix() for p in pristine.rglob("*.py")
                   if p.stat().st_size or rng.random() < 0.1)
    in_models = [f for f in files if f.startswith("hyper_parallel/models/")]
    for _ in range(rng.choice((1, 1, 2, 3))):
        rel = rng.choice(in_models if rng.random() < 0.85 else files)
        mutation = rng.choice(MUTATIONS)
        path = work / rel
        touched.add(rel)
        data, what = mutation(path.read_bytes(), rng)
        path.write_bytes(data)
        done.append(f"{rel}: {what}")
    owner = _FAMILY_FOLDER.match(done[0].split(":", 1)[0])
    family = owner.group(1) if owner and owner.group(1) in families and rng.random() < 0.8 else rng.choice(families)
    done.append(f"family {family}")
    audit_args = ["--source-root", str(work), "--declarations", declarations]
    _run(audit, audit_args + rng.choice(([], ["--json"], ["--strict"], ["--family", family])))
    out = work.parent / "out"
    code, _, stderr = _run(sync, ["--source-root", str(work), "--family", family, "--out", str(out),
                                  "--declarations", declarations, "--allow-incomplete", "--quiet"])
    outcomes[code] = outcomes.get(code, 0) + 1
    if code != 0:
        if out.exists():
            raise Violation(f"sync failed (exit {code}) but wrote {out}: {stderr}")
        if not stderr.strip():
            raise Violation(f"sync failed (exit {code}) without a word")
    else:
        _check_project(work, out, family, declarations)


def _restore(pristine: Path, work: Path, touched: set[str]) -> None:
    """The work tree as pristine again, and no project written."""
    for rel in touched:
        shutil.copyfile(pristine / rel, work / rel)
    touched.clear()
    shutil.rmtree(work.parent / "out", ignore_errors=True)


def _alarm(signum, frame):
    raise Violation(f"a seed took over {_PER_SEED_SECONDS} s")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--declarations", required=True)
    parser.add_argument("--runtime", required=True)
    parser.add_argument("--seeds", type=int, default=CI_SEEDS)
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("FAMSPEC_FUZZ_SECONDS") or 0))
    parser.add_argument("--first", type=int, default=0)
    args = parser.parse_args(argv)
    families = sorted(p.parent.parent.name for p in Path(args.runtime).glob("hyper_parallel/models/*/adapter/"
                                                                               "registration.py"))
    signal.signal(signal.SIGALRM, _alarm)
    started, seed, failures = time.monotonic(), args.first, 0
    with tempfile.TemporaryDirectory(prefix="famspec-source-fuzz-") as scratch:
        pristine, work = Path(scratch) / "pristine", Path(scratch) / "runtime"
        shutil.copytree(args.runtime, pristine)
        shutil.copytree(pristine, work)
        touched = set()
        while (time.monotonic() - started < args.seconds) if args.seconds else seed < args.first + args.seeds:
            _restore(pristine, work, touched)
            done = []
            signal.alarm(_PER_SEED_SECONDS)
            try:
                one_seed(seed, pristine, work, args.declarations, families, done, touched)
            except Violation as violation:
                failures += 1
                print(f"source_mutations: seed {seed}: {violation}", file=sys.stderr)
                print("  mutations: " + "; ".join(done), file=sys.stderr)
                print(f"  replay: {sys.executable} {__file__} --declarations {args.declarations} --runtime "
                      f"{args.runtime} --first {seed} --seeds 1", file=sys.stderr)
            finally:
                signal.alarm(0)
            seed += 1
    elapsed = time.monotonic() - started
    print(f"source_mutations: seeds {args.first}..{seed - 1}: {seed - args.first} run in {elapsed:.1f} s, "
          f"{failures} violation(s); sync wrote {outcomes.get(0, 0)}, refused {outcomes.get(1, 0)} (exit 1) and "
          f"{outcomes.get(2, 0)} (exit 2)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
