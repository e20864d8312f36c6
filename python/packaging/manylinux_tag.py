"""Checks a famspec wheel against ``manylinux_2_28`` and tags it as PEP 600's ``manylinux_2_X_x86_64``.

The check: no ELF file of the wheel needs, from outside the wheel, a library other than glibc's,
``libstdc++.so.6`` and ``libgcc_s.so.1``, nor a symbol version newer than manylinux_2_28's reference
system (AlmaLinux 8: glibc 2.28, GCC 8's libstdc++ and libgcc_s) provides. Each offending file is named
with the symbol and its version (``lib/libfamspec.so.0: pthread_cond_clockwait@GLIBC_2.30``).

The tag: X is the highest ``GLIBC_2.X`` symbol version any ELF file of the wheel needs (its
``.gnu.version_r``, as ``readelf -V`` lists it): pip installs the wheel where glibc is at least that.
The files are not changed; the wheel is written again under its new name, with the new tag in
``WHEEL`` and ``RECORD``, and the old one removed.

    python3 python/packaging/manylinux_tag.py dist/famspec-0.1.0-cp311-cp311-linux_x86_64.whl

checks and tags, and prints the path of the tagged wheel;

    python3 python/packaging/manylinux_tag.py --check WHEEL_OR_DIRECTORY

checks only, and prints each ELF file with the newest glibc version it needs, then the tag the files
allow (the wheel's build runs it on the installed package, cmake/FamspecWheel.cmake). Exit status 1
when the check fails. Standard library and binutils' ``readelf`` only.
"""

from __future__ import annotations

import base64
import hashlib
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

# What a manylinux policy lets a wheel take from the system: glibc's libraries, libstdc++ and libgcc_s.
ALLOWED = re.compile(r"(libc|libm|libdl|librt|libpthread|libresolv|libutil|ld-linux-x86-64)\.so\.\d+"
                     r"|libstdc\+\+\.so\.6|libgcc_s\.so\.1")


# The newest symbol version of each library manylinux_2_28 lets a file need (auditwheel's policy for
# manylinux_2_28, from AlmaLinux 8).
NEWEST = {"GLIBC": (2, 28), "GLIBCXX": (3, 4, 25), "CXXABI": (1, 3, 11), "GCC": (7, 0, 0)}
POLICY = "manylinux_2_28"


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def elf_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.rglob("*")
                  if p.is_file() and not p.is_symlink() and p.read_bytes()[:4] == b"\x7fELF")


def needed(path: Path) -> list[str]:
    dynamic = subprocess.run(["readelf", "-d", "-W", str(path)], capture_output=True, text=True, check=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[(.+)\]", dynamic)


def glibc_versions(path: Path) -> set[tuple[int, int]]:
    versions = subprocess.run(["readelf", "-V", "-W", str(path)], capture_output=True, text=True, check=True).stdout
    return {(int(major), int(minor)) for major, minor in re.findall(r"Name: GLIBC_(\d+)\.(\d+)", versions)}


def too_new_symbols(path: Path) -> list[str]:
    """The symbols the file takes from outside it, ``name@LIBRARY_VERSION``, newer than NEWEST allows."""
    symbols = subprocess.run(["readelf", "--dyn-syms", "-W", str(path)], capture_output=True, text=True,
                             check=True).stdout
    found = set()
    for name, library, version in re.findall(r" UND (\S+)@(GLIBC|GLIBCXX|CXXABI|GCC)_([0-9.]+)", symbols):
        if _version(version) > NEWEST[library]:
            found.add(f"{name}@{library}_{version}")
    return sorted(found, key=lambda symbol: (symbol.split("@")[1], symbol))


def check(directory: Path) -> list[str]:
    """What keeps the files under DIRECTORY from manylinux_2_28, one line per file; empty when nothing."""
    problems = [f"{path}: needs {', '.join(libraries)} from outside the wheel"
                for path, libraries in outside_libraries(directory).items()]
    for path in elf_files(directory):
        symbols = too_new_symbols(path)
        if symbols:
            problems.append(f"{path.relative_to(directory)}: needs {', '.join(symbols)}, newer than {POLICY} allows")
    return problems


def outside_libraries(directory: Path) -> dict[str, list[str]]:
    """Each ELF file's NEEDED entries that are neither allowed nor a file of the wheel."""
    inside = {p.name for p in directory.rglob("*") if p.is_file()}
    found = {}
    for path in elf_files(directory):
        outside = [n for n in needed(path) if not ALLOWED.fullmatch(n) and n not in inside]
        if outside:
            found[str(path.relative_to(directory))] = outside
    return found


def platform_tag(directory: Path) -> str:
    versions = set().union(*(glibc_versions(p) for p in elf_files(directory)))
    if not versions:
        raise SystemExit(f"manylinux_tag: no ELF file of {directory} needs a GLIBC_ symbol version")
    major, minor = max(versions)
    return f"manylinux_{major}_{minor}_x86_64"


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def retag(wheel: Path) -> Path:
    parts = wheel.name[:-len(".whl")].split("-")
    if len(parts) != 5 or parts[4] != "linux_x86_64":
        raise SystemExit(f"manylinux_tag: {wheel.name} is not a <name>-<version>-<python>-<abi>-linux_x86_64 wheel")
    with tempfile.TemporaryDirectory(prefix="famspec-tag-") as unpacked:
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(unpacked)
        problems = check(Path(unpacked))
        if problems:
            raise SystemExit(f"manylinux_tag: {wheel.name} is not {POLICY}:\n  " + "\n  ".join(problems))
        tag = platform_tag(Path(unpacked))
    parts[4] = tag
    tagged = wheel.with_name("-".join(parts) + ".whl")
    with zipfile.ZipFile(wheel) as source, zipfile.ZipFile(tagged, "w", zipfile.ZIP_DEFLATED) as target:
        infos = source.infolist()
        wheel_name = next(i.filename for i in infos if re.fullmatch(r"[^/]+\.dist-info/WHEEL", i.filename))
        record_name = wheel_name[:-len("WHEEL")] + "RECORD"
        wheel_text = re.sub(r"^Tag: (.+)-linux_x86_64$", rf"Tag: \1-{tag}", source.read(wheel_name).decode(),
                            flags=re.MULTILINE)
        record = [line for line in source.read(record_name).decode().splitlines()
                  if not line.startswith(f"{wheel_name},")]
        record.insert(len(record) - 1, f"{wheel_name},{_digest(wheel_text.encode())},{len(wheel_text.encode())}")
        for info in infos:
            data = source.read(info.filename)
            if info.filename == wheel_name:
                data = wheel_text.encode()
            elif info.filename == record_name:
                data = ("\n".join(record) + "\n").encode()
            target.writestr(info, data)
    wheel.unlink()
    return tagged


def report(target: Path) -> int:
    """--check: each ELF file with the newest glibc it needs, the tag, and what fails the check."""
    with tempfile.TemporaryDirectory(prefix="famspec-check-") as unpacked:
        directory = target
        if target.is_file():
            with zipfile.ZipFile(target) as archive:
                archive.extractall(unpacked)
            directory = Path(unpacked)
        for path in elf_files(directory):
            newest = max(glibc_versions(path), default=None)
            glibc = f"GLIBC_{newest[0]}.{newest[1]}" if newest else "no GLIBC_ version"
            print(f"{glibc:>12}  {path.relative_to(directory)}")
        problems = check(directory)
        for problem in problems:
            print(f"manylinux_tag: {problem}", file=sys.stderr)
        if problems:
            return 1
        tag = platform_tag(directory)
        print(f"{tag}: installs where glibc is {'.'.join(tag.split('_')[1:3])} or newer")
        return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        sys.exit(report(Path(sys.argv[2])))
    if len(sys.argv) != 2:
        raise SystemExit("usage: manylinux_tag.py WHEEL | manylinux_tag.py --check WHEEL_OR_DIRECTORY")
    print(retag(Path(sys.argv[1])))
