#!/usr/bin/env python3
"""Writes the hand-made part of the ELF seed corpus (corpus/elf/): tiny shared objects, valid and
malformed (make_table_seeds.py adds a real plugin file, truncated and corrupted).

The files are committed; rerun this script only to change them. Each file carries a small section
table (.note.gnu.build-id, .famspec_tables, .shstrtab), some a program header table, and no code,
which is all read_elf_info looks at. The expected outcome of every file is listed in
corpus_replay_test.cpp.
"""
import pathlib
import struct

OUT = pathlib.Path(__file__).resolve().parent / "corpus" / "elf"
# The contents of the table section: a table header with no arrays, which is all the reader copies.
TABLES = struct.pack("<QHHIIHHII", 0x35434550534D4146, 5, 0, 152, 0x01020304, 64, 0, 2, 152) + b"\0" * 120
BUILD_ID = bytes(range(0x10, 0x24))  # 20 bytes: 101112...23

SHT_PROGBITS, SHT_STRTAB, SHT_NOTE, SHT_NOBITS = 1, 3, 7, 8
SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR = 1, 2, 4
ET_REL, ET_EXEC, ET_DYN = 1, 2, 3
PT_LOAD, PT_NOTE = 1, 4


def note(owner, kind, desc, endian):
    name = owner + b"\0"
    pad = lambda b: b + b"\0" * (-len(b) % 4)
    return struct.pack(endian + "III", len(name), len(desc), kind) + pad(name) + pad(desc)


class Elf:
    """An ELF image plus the offsets of its headers, so variants can overwrite single fields."""

    def __init__(self, bits=64, endian="<", etype=ET_DYN, sections=None, segments=()):
        """sections: (name, type, contents or a size, flags); segments: (type, offset, file size)."""
        self.bits, self.endian = bits, endian
        if sections is None:
            sections = [
                (".note.gnu.build-id", SHT_NOTE, note(b"GNU", 3, BUILD_ID, endian), SHF_ALLOC),
                (".famspec_tables", SHT_PROGBITS, TABLES, SHF_ALLOC),
            ]
        self.ehsize, self.shentsize = (64, 64) if bits == 64 else (52, 40)
        phentsize = 56 if bits == 64 else 32
        names = b"\0"
        entries = []
        for name, kind, data, flags in sections + [(".shstrtab", SHT_STRTAB, None, 0)]:
            entries.append([len(names), kind, data, flags])
            names += name.encode() + b"\0"
        entries[-1][2] = names
        body = bytearray(b"\0" * self.ehsize)
        self.phoff = len(body) if segments else 0
        for kind, offset, size in segments:
            if bits == 64:
                body += struct.pack(endian + "IIQQQQQQ", kind, 4, offset, offset, offset, size, size, 8)
            else:
                body += struct.pack(endian + "IIIIIIII", kind, offset, offset, offset, size, size, 4, 4)
        headers = [(0, 0, 0, 0, 0, 0)]  # name, type, flags, offset, size, align
        for name_offset, kind, data, flags in entries:
            while len(body) % 8:
                body.append(0)
            size = len(data) if not isinstance(data, int) else data
            offset = len(body)
            if not isinstance(data, int):
                body += data
            headers.append((name_offset, kind, flags, offset, size, 4 if kind == SHT_NOTE else 1))
        while len(body) % 8:
            body.append(0)
        self.shoff = len(body)
        self.section_offset = {}
        for index, (name_offset, kind, flags, offset, size, align) in enumerate(headers):
            self.section_offset[index] = len(body)
            if bits == 64:
                body += struct.pack(endian + "IIQQQQIIQQ", name_offset, kind, flags, 0, offset, size, 0, 0, align, 0)
            else:
                body += struct.pack(endian + "IIIIIIIIII", name_offset, kind, flags, 0, offset, size, 0, 0, align, 0)
        self.shnum = len(headers)
        ident = b"\x7fELF" + bytes([2 if bits == 64 else 1, 1 if endian == "<" else 2, 1, 0]) + b"\0" * 8
        if bits == 64:
            header = struct.pack(endian + "HHIQQQIHHHHHH", etype, 62, 1, 0, self.phoff, self.shoff, 0, 64,
                                 phentsize, len(segments), 64, self.shnum, self.shnum - 1)
        else:
            header = struct.pack(endian + "HHIIIIIHHHHHH", etype, 3, 1, 0, self.phoff, self.shoff, 0, 52,
                                 phentsize, len(segments), 40, self.shnum, self.shnum - 1)
        body[0:self.ehsize] = ident + header
        self.data = body

    # Offsets of ELF header fields (64-bit layout only; the variants below use 64-bit images).
    FIELDS = {"e_type": (16, "H"), "e_phoff": (32, "Q"), "e_phnum": (56, "H"), "e_shoff": (40, "Q"), "e_shentsize": (58, "H"), "e_shnum": (60, "H"),
              "e_shstrndx": (62, "H")}
    SECTION_FIELDS = {"sh_name": (0, "I"), "sh_type": (4, "I"), "sh_flags": (8, "Q"), "sh_offset": (24, "Q"), "sh_size": (32, "Q"),
                      "sh_link": (40, "I")}

    def set(self, field, value):
        offset, kind = self.FIELDS[field]
        struct.pack_into(self.endian + kind, self.data, offset, value)
        return self

    def set_section(self, index, field, value):
        offset, kind = self.SECTION_FIELDS[field]
        struct.pack_into(self.endian + kind, self.data, self.section_offset[index] + offset, value)
        return self


def write(name, data):
    (OUT / name).write_bytes(bytes(data))


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    build_id = lambda endian="<": (".note.gnu.build-id", SHT_NOTE, note(b"GNU", 3, BUILD_ID, endian), SHF_ALLOC)
    tables = lambda data=TABLES, kind=SHT_PROGBITS, flags=SHF_ALLOC: (".famspec_tables", kind, data, flags)
    write("valid.so", Elf().data)
    write("valid_elf32.so", Elf(bits=32).data)
    write("valid_big_endian.so", Elf(endian=">").data)
    write("no_tables.so", Elf(sections=[build_id()]).data)
    write("no_build_id.so", Elf(sections=[tables()]).data)
    write("no_sections.so", Elf(sections=[]).data)
    write("empty_tables.so", Elf(sections=[tables(b"")]).data)
    # An ABI 4 plugin: its JSON manifest section, noted so that the loader can say what it is.
    write("legacy_manifest.so", Elf(sections=[build_id(), (".famspec_manifest", SHT_PROGBITS, b"{}", 0)]).data)
    write("tables_nobits.so", Elf(sections=[tables(64, SHT_NOBITS)]).data)
    write("tables_writable.so", Elf(sections=[tables(flags=SHF_ALLOC | SHF_WRITE)]).data)
    write("tables_executable.so", Elf(sections=[tables(flags=SHF_ALLOC | SHF_EXECINSTR)]).data)
    write("tables_not_loaded.so", Elf(sections=[tables(flags=0)]).data)
    write("two_tables.so", Elf(sections=[tables(b"first"), tables(b"second")]).data)
    write("build_id_wrong_owner.so", Elf(sections=[(".note.gnu.build-id", SHT_NOTE, note(b"XYZ", 3, BUILD_ID, "<"), 0)]).data)
    write("build_id_wrong_type.so", Elf(sections=[(".note.gnu.build-id", SHT_NOTE, note(b"GNU", 1, BUILD_ID, "<"), 0)]).data)
    bad_note = bytearray(note(b"GNU", 3, BUILD_ID, "<"))
    struct.pack_into("<I", bad_note, 4, 0xFFFFFFF0)  # n_descsz far past the section end
    write("build_id_desc_overflow.so", Elf(sections=[(".note.gnu.build-id", SHT_NOTE, bytes(bad_note), 0)]).data)
    write("build_id_truncated_note.so", Elf(sections=[(".note.gnu.build-id", SHT_NOTE, note(b"GNU", 3, BUILD_ID, "<")[:10], 0)]).data)
    write("type_exec.so", Elf(etype=ET_EXEC).data)
    write("type_rel.so", Elf(etype=ET_REL).data)
    write("empty.so", b"")
    write("not_elf.so", b"#!/bin/sh\necho this is not a plugin\n")
    write("magic_only.so", b"\x7fELF")
    write("header_truncated.so", Elf().data[:40])
    write("section_table_truncated.so", Elf().data[:-20])
    bad_class = Elf().data
    bad_class[4] = 9
    write("bad_class.so", bad_class)
    bad_data = Elf().data
    bad_data[5] = 9
    write("bad_byte_order.so", bad_data)
    elf = Elf()
    write("shoff_past_end.so", elf.set("e_shoff", len(elf.data) + 4096).data)
    write("shoff_huge.so", Elf().set("e_shoff", 0xFFFFFFFFFFFFFF00).data)
    write("shoff_unaligned.so", Elf().set("e_shoff", Elf().shoff + 3).data)
    write("shnum_too_big.so", Elf().set("e_shnum", 0xFFFE).data)
    write("shentsize_wrong.so", Elf().set("e_shentsize", 32).data)
    write("shstrndx_out_of_range.so", Elf().set("e_shstrndx", 200).data)
    write("shstrndx_not_strtab.so", Elf().set("e_shstrndx", 1).data)
    # Extended numbering: e_shnum 0 and e_shstrndx SHN_XINDEX, the real values in section 0.
    elf = Elf()
    elf.set("e_shnum", 0).set("e_shstrndx", 0xFFFF).set_section(0, "sh_size", elf.shnum)
    write("extended_numbering.so", elf.set_section(0, "sh_link", elf.shnum - 1).data)
    write("extended_shstrndx_bad.so", Elf().set("e_shstrndx", 0xFFFF).set_section(0, "sh_link", 999).data)
    elf = Elf()
    write("tables_offset_past_end.so", elf.set_section(2, "sh_offset", len(elf.data) + 100).data)
    write("tables_size_past_end.so", Elf().set_section(2, "sh_size", 4096).data)
    write("tables_size_over_limit.so", Elf().set_section(2, "sh_size", (64 << 20) + 1).data)
    write("tables_size_huge.so", Elf().set_section(2, "sh_size", 0xFFFFFFFFFFFFFFF0).data)
    write("tables_offset_wraps.so", Elf().set_section(2, "sh_offset", 0xFFFFFFFFFFFFFFF0).set_section(2, "sh_size", 32).data)
    write("section_name_out_of_range.so", Elf().set_section(2, "sh_name", 0x7FFFFFFF).data)
    write("shstrtab_size_huge.so", Elf().set_section(3, "sh_size", 0xFFFFFFFFFFFF).data)
    write("build_id_size_huge.so", Elf().set_section(1, "sh_size", 0xFFFFFFFFFFFF).data)
    # Program headers: a loaded segment must lie inside the file; others are not checked.
    write("segments_inside.so", Elf(segments=[(PT_LOAD, 0, 64), (PT_NOTE, 64, 8)]).data)
    write("segment_past_end.so", Elf(segments=[(PT_LOAD, 0, 1 << 20)]).data)
    write("segment_offset_wraps.so", Elf(segments=[(PT_LOAD, 0xFFFFFFFFFFFFFFF0, 32)]).data)
    write("note_segment_past_end.so", Elf(segments=[(PT_NOTE, 0, 1 << 20)]).data)
    write("segment_past_end_elf32.so", Elf(bits=32, segments=[(PT_LOAD, 0, 1 << 20)]).data)
    write("phnum_too_big.so", Elf(segments=[(PT_LOAD, 0, 64)]).set("e_phnum", 0xFFFF).data)
    write("phoff_past_end.so", Elf(segments=[(PT_LOAD, 0, 64)]).set("e_phoff", 1 << 40).data)


if __name__ == "__main__":
    main()
