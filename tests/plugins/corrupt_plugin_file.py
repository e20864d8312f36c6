"""Writes a copy of a good plugin file broken in one way, for the loader's refusals that live in the
ELF file rather than in the tables: corrupt_plugin_file.py GOOD.so HOW OUT.so

HOW is one of:
  segment_past_eof        a loadable segment's bytes run past the end of the file
  section_past_eof        the .famspec_tables section lies past the end of the file
  table_section_writable  the .famspec_tables section is writable data
  truncated               the file cut in half
  wrong_machine           the ELF header names AArch64
  bad_magic               the table block does not begin with famspec's magic
Only the standard library: the file is little-endian ELF64, as this machine builds it.
"""

from __future__ import annotations

import struct
import sys

SHF_WRITE = 0x1
PT_LOAD = 1
EM_AARCH64 = 183


def sections(data: bytes) -> dict[str, tuple[int, int]]:
    """Section name -> (offset of its header, its sh_offset)."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    names_header = shoff + shstrndx * shentsize
    names_offset, = struct.unpack_from("<Q", data, names_header + 0x18)
    found = {}
    for i in range(shnum):
        header = shoff + i * shentsize
        name, = struct.unpack_from("<I", data, header)
        end = data.index(b"\0", names_offset + name)
        offset, = struct.unpack_from("<Q", data, header + 0x18)
        found[data[names_offset + name:end].decode()] = (header, offset)
    return found


def corrupt(data: bytearray, how: str) -> bytearray:
    tables_header, tables_offset = sections(bytes(data))[".famspec_tables"]
    if how == "segment_past_eof":
        phoff, = struct.unpack_from("<Q", data, 0x20)
        phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
        for i in range(phnum):
            at = phoff + i * phentsize
            if struct.unpack_from("<I", data, at)[0] == PT_LOAD:
                struct.pack_into("<Q", data, at + 0x20, len(data) * 4)  # p_filesz
                return data
        raise SystemExit("no loadable segment")
    if how == "section_past_eof":
        struct.pack_into("<Q", data, tables_header + 0x18, len(data) + 4096)
        return data
    if how == "table_section_writable":
        flags, = struct.unpack_from("<Q", data, tables_header + 0x08)
        struct.pack_into("<Q", data, tables_header + 0x08, flags | SHF_WRITE)
        return data
    if how == "truncated":
        return data[: len(data) // 2]
    if how == "wrong_machine":
        struct.pack_into("<H", data, 0x12, EM_AARCH64)
        return data
    if how == "bad_magic":
        data[tables_offset:tables_offset + 8] = b"NOTFAMSP"
        return data
    raise SystemExit(f"unknown corruption {how!r}")


def main() -> int:
    good, how, out = sys.argv[1:]
    with open(good, "rb") as f:
        data = bytearray(f.read())
    with open(out, "wb") as f:
        f.write(corrupt(data, how))
    return 0


if __name__ == "__main__":
    sys.exit(main())
