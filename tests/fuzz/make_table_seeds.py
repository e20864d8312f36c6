#!/usr/bin/env python3
"""Writes the seeds taken from real plugin files: blocks of tables (corpus/tables/), plugin files for
the ELF reader (corpus/elf/real_*.so) and for the loader (corpus/loader/), each as the SDK built it
and truncated or corrupted.

    tests/fuzz/make_table_seeds.py PLUGIN_DIR      # e.g. build/lib/famspec/plugins

The files are committed; rerun this script only to change them (the expected outcome of every file
is listed in harness_replay_test.cpp and corpus_replay_test.cpp). A block is the contents of the
plugin file's `.famspec_tables` section, found through its section headers as the core finds it;
nothing is loaded. The layout written here is famspec/sdk/table_layout.hpp's (ABI 5.1, format 2); one
seed, abi_5_0.bin, is a real block with the shorter header of ABI 5.0, which a 5.1 core still reads.
"""
import pathlib
import struct
import sys

HERE = pathlib.Path(__file__).resolve().parent
TABLES, ELF, LOADER = (HERE / "corpus" / name for name in ("tables", "elf", "loader"))
FINDINGS = HERE / "findings"  # inputs that break a contract today: kept out of the corpora

MAGIC = 0x35434550534D4146  # "FAMSPEC5"
HEADER = 176  # sizeof(TableHeader)
HEADER_ABI_5_0 = 152  # ABI 5.0's header: every field before the borrowed wrappers' Section
# The arrays in the header's order (BlockRows), with each row's size.
ROWS = {"literal": 32, "parameter": 64, "text": 8, "argument": 20, "factory": 64, "cp_wrapper": 24,
        "archetype": 64, "source_block": 32, "family": 88, "component": 48, "char": 1, "borrowed_cp_wrapper": 16}
# After the arrays' Sections: the framework's archetypes and CP wrappers, as Ranges (first, count).
FRAMEWORK_ARCHETYPES, FRAMEWORK_CP_WRAPPERS = 64 + 8 * len(ROWS), 64 + 8 * len(ROWS) + 8
ARRAY = {name: index for index, name in enumerate(ROWS)}
SECTION = ".famspec_tables"


def sections(so):
    """Name -> (header offset, type, flags, offset, size) of a little-endian ELF64 file."""
    shoff, = struct.unpack_from("<Q", so, 40)
    shnum, shstrndx = struct.unpack_from("<HH", so, 60)
    entry = lambda i: struct.unpack_from("<IIQQQQ", so, shoff + 64 * i)
    names_at = entry(shstrndx)[4]
    out = {}
    for i in range(shnum):
        name, kind, flags, _, offset, size = entry(i)
        label = so[names_at + name:so.index(b"\0", names_at + name)].decode()
        out[label] = (shoff + 64 * i, kind, flags, offset, size)
    return out


def block_of(so):
    _, _, _, offset, size = sections(so)[SECTION]
    return so[offset:offset + size]


def array(block, name):
    return struct.unpack_from("<II", block, 64 + 8 * ARRAY[name])  # offset, count


def patched(data, offset, fmt, *values):
    out = bytearray(data)
    struct.pack_into(fmt, out, offset, *values)
    return bytes(out)


def build(families, texts=(), factories=(), chars=b""):
    """A block of Text, FactoryRow and FamilyRow arrays and characters, each row a tuple of integers
    (Text: offset, size; FamilyRow: model_type, architecture, where as Texts, then 8 Ranges)."""
    parts = [("text", b"".join(struct.pack("<II", *t) for t in texts), len(texts)),
             ("factory", b"".join(struct.pack("<16I", *f) for f in factories), len(factories)),
             ("family", b"".join(struct.pack("<22I", *f) for f in families), len(families)),
             ("char", chars, len(chars))]
    body, arrays, at = b"", [(0, 0)] * len(ROWS), HEADER
    for name, data, count in parts:
        if count:
            arrays[ARRAY[name]] = (at, count)
        body += data
        at += len(data)
    header = struct.pack("<QHHIIHHII", MAGIC, 5, 1, HEADER, 0x01020304, 64, 0, 2, HEADER + len(body))
    header += struct.pack("<8I", 0, 4, 0, 0, 0, 0, 0, 0)  # name: the first 4 characters
    header += b"".join(struct.pack("<II", *a) for a in arrays)
    header += struct.pack("<4I", 0, 0, 0, 0)  # no framework archetypes or CP wrappers
    assert len(header) == HEADER
    return header + body


def family(model_type, architecture, where=(0, 0), aliases=(0, 0), factories=(0, 0)):
    return (*model_type, *architecture, *where, *aliases, 0, 0, 0, 0, 0, 0, 0, 0, *factories, 0, 0, 0, 0)


def built_blocks():
    one = b"fuzzFuzzForCausalLM"
    L, N = 2048, 64  # a long family name, named again by each of N factories without a `where`
    long_name = b"f" * L + b"pkg.mod.fn"
    bomb = b"x" * 3000
    return {
        "header_only.bin": build([], chars=b"seed"),
        "one_family.bin": build([family((0, 4), (4, 15))], chars=one),
        "duplicate_family.bin": build([family((0, 4), (4, 15)), family((0, 4), (4, 15))], chars=one),
        # 300 aliases that all name the same 3000 characters: 900 KB to copy from a 5 KB block.
        "copy_bomb.bin": build([family((0, 4), (0, 3000), aliases=(0, 300))], texts=[(0, 3000)] * 300,
                               chars=bomb),
        # Each factory's copy of the family name, its site and its error are not charged to the budget.
        "family_name_per_factory.bin": build(
            [family((0, L), (0, 4), factories=(0, N))],
            factories=[(L, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)] * N, chars=long_name),
    }


def block_variants(good):
    chars_at, chars = array(good, "char")
    params_at, _ = array(good, "parameter")
    families_at, _ = array(good, "family")
    size = len(good)
    return {
        "truncated_header.bin": good[:100],
        "truncated_half.bin": good[:size // 2],
        "truncated_last_byte.bin": good[:-1],
        "trailing_byte.bin": good + b"\0",  # the block is what byte_size says; the rest is not read
        "format_1.bin": patched(good, 24, "<I", 1),
        "header_size_small.bin": patched(good, 12, "<I", 100),
        "byte_size_below_header.bin": patched(good, 28, "<I", 100),
        "byte_size_past_section.bin": patched(good, 28, "<I", size + 8),
        "chars_past_end.bin": patched(good, 64 + 8 * ARRAY["char"], "<I", size),
        "parameters_unaligned.bin": patched(good, 64 + 8 * ARRAY["parameter"], "<I", params_at + 4),
        "count_wraps.bin": patched(good, 64 + 8 * ARRAY["parameter"] + 4, "<I", 0xFFFFFFFF),
        "not_utf8.bin": patched(good, chars_at, "<B", 0xFF),
        "overlong_utf8.bin": patched(good, chars_at, "<BB", 0xC0, 0xAF),
        "nul_in_strings.bin": patched(good, chars_at, "<B", 0),
        "name_outside_chars.bin": patched(good, 32, "<II", chars - 2, 8),
        "aliases_outside.bin": patched(good, families_at + 24, "<II", 0, 0x7FFFFFFF),
        "kind_unknown.bin": patched(good, params_at + 8, "<I", 0xFFFFFFFF),
        # As a 5.0 plugin writes it: the header ends at 152 bytes, and what a 5.1 header would read as
        # the borrowed wrappers' Section and the framework's ranges is not read.
        "abi_5_0.bin": patched(good, 10, "<HI", 0, HEADER_ABI_5_0)[:HEADER_ABI_5_0] + b"\xff" * (HEADER - HEADER_ABI_5_0)
                       + good[HEADER:],
    }


def framework_variants(good):
    """The framework's plugin (components): its ranges of archetypes and CP wrappers, broken."""
    return {"framework_range_outside.bin": patched(good, FRAMEWORK_CP_WRAPPERS + 4, "<I", 0x10000)}


def in_section(so, block):
    """The plugin file with its table section's contents replaced (the block padded to its size)."""
    _, _, _, offset, size = sections(so)[SECTION]
    assert len(block) <= size
    return so[:offset] + block + b"\0" * (size - len(block)) + so[offset + size:]


def file_variants(so):
    header_at = sections(so)[SECTION][0]
    good = block_of(so)
    phoff, = struct.unpack_from("<Q", so, 32)
    loads = [i for i in range(struct.unpack_from("<H", so, 56)[0])
             if struct.unpack_from("<I", so, phoff + 56 * i)[0] == 1]
    return {
        "truncated_section_table.so": so[:-100],
        "truncated_half.so": so[:len(so) // 2],
        "truncated_in_tables.so": so[:sections(so)[SECTION][3] + 64],
        "tables_writable.so": patched(so, header_at + 8, "<Q", 0x3),  # SHF_WRITE | SHF_ALLOC
        "tables_size_past_end.so": patched(so, header_at + 32, "<Q", len(so)),
        "segment_past_end.so": patched(so, phoff + 56 * loads[-1] + 32, "<Q", len(so)),  # p_filesz
        "machine_aarch64.so": patched(so, 18, "<H", 183),
        "magic_other.so": in_section(so, patched(good, 0, "<B", 0x47)),
        "abi_4.so": in_section(so, patched(good, 8, "<H", 4)),
        "abi_minor_newer.so": in_section(so, patched(good, 10, "<H", 2)),
        "format_1.so": in_section(so, patched(good, 24, "<I", 1)),
        "byte_order_swapped.so": in_section(so, patched(good, 16, ">I", 0x01020304)),
        "not_utf8.so": in_section(so, block_variants(good)["not_utf8.bin"]),
        "kind_unknown.so": in_section(so, block_variants(good)["kind_unknown.bin"]),
        "copy_bomb.so": in_section(so, built_blocks()["copy_bomb.bin"]),
        "duplicate_family.so": in_section(so, built_blocks()["duplicate_family.bin"]),
    }


def write(directory, name, data):
    directory.mkdir(parents=True, exist_ok=True)
    (directory / name).write_bytes(data)


def main():
    plugins = pathlib.Path(sys.argv[1])
    real = {name: (plugins / f"famspec_{name}.so").read_bytes()
            for name in ("qwen3_moe", "deepseek_v3", "components", "kimi_linear")}
    for name, so in real.items():
        write(TABLES, f"{name}.bin", block_of(so))
        write(LOADER, f"{name}.so", so)
    variants = {**block_variants(block_of(real["qwen3_moe"])), **framework_variants(block_of(real["components"])),
                **built_blocks()}
    for name, data in variants.items():
        write(FINDINGS if name == "family_name_per_factory.bin" else TABLES, name, data)
    qwen = real["qwen3_moe"]
    write(ELF, "real_qwen3_moe.so", qwen)
    for name, data in file_variants(qwen).items():
        write(LOADER, name, data)
        if name.startswith(("truncated_", "tables_", "segment_", "machine_")):
            write(ELF, "real_" + name, data)
    write(LOADER, "empty.so", b"")
    write(LOADER, "not_elf.so", b"#!/bin/sh\necho this is not a plugin\n")


if __name__ == "__main__":
    main()
