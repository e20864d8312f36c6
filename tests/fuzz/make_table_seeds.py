#!/usr/bin/env python3
"""Writes the table-form seeds: blocks of tables (corpus/tables/) and a table-form plugin file with
truncations of it (corpus/elf/), taken from the fixture plugins of a build tree.

    tests/fuzz/make_table_seeds.py BUILD_DIR

The files are committed; rerun this script only to change them (the expected outcome of every file
is listed in harness_replay_test.cpp and corpus_replay_test.cpp). A block is read out of its plugin
as the loader finds it: the plugin is opened and its descriptor's `tables` pointer followed.
"""
import ctypes
import os
import pathlib
import struct
import sys

HERE = pathlib.Path(__file__).resolve().parent
TABLES = HERE / "corpus" / "tables"
ELF = HERE / "corpus" / "elf"
DESCRIPTOR_TABLES = 48  # offset of `tables` in the 56-byte descriptor (LP64)


def block_of(plugin):
    library = ctypes.CDLL(str(plugin), mode=os.RTLD_LOCAL | os.RTLD_NOW)
    descriptor = ctypes.c_char.in_dll(library, "famspec_plugin_descriptor")
    address = ctypes.addressof(descriptor)
    tables = struct.unpack("<Q", ctypes.string_at(address + DESCRIPTOR_TABLES, 8))[0]
    byte_size = struct.unpack("<I", ctypes.string_at(tables + 4, 4))[0]
    return ctypes.string_at(tables, byte_size)


def main():
    fixtures = pathlib.Path(sys.argv[1]) / "tests" / "fixtures"
    plugin = lambda name: fixtures / name / f"famspec_{name}.so"
    TABLES.mkdir(parents=True, exist_ok=True)
    blocks = {
        "zoo_good": block_of(plugin("zoo_good")),  # one of everything a registry indexes
        "hand_written": block_of(plugin("hand_written")),
        "registers_nothing": block_of(plugin("registers_nothing")),
        "misdeclared_keys": block_of(plugin("misdeclared_keys")),  # read, then rejected by the staging
        "bad_allowed_default": block_of(plugin("bad_allowed_default")),
        "text_outside_block": block_of(plugin("text_outside_block")),  # refused by the check
    }
    for name, block in blocks.items():
        (TABLES / f"{name}.bin").write_bytes(block)
    good = blocks["zoo_good"]
    variants = {
        "truncated_header.bin": good[:20],
        "truncated_half.bin": good[: len(good) // 2],
        "truncated_last_byte.bin": good[:-1],
        "format_2.bin": struct.pack("<I", 2) + good[4:],
        "byte_size_below_header.bin": good[:4] + struct.pack("<I", 8) + good[8:],
        # The first section (chars) said to start past the end of the block.
        "section_past_end.bin": good[:8] + struct.pack("<I", len(good)) + good[12:],
        # Another byte after the block: the block is what byte_size says, the rest is not read.
        "trailing_byte.bin": good + b"\0",
    }
    for name, data in variants.items():
        (TABLES / name).write_bytes(data)

    so = plugin("zoo_good").read_bytes()
    ELF.mkdir(parents=True, exist_ok=True)
    (ELF / "table_plugin.so").write_bytes(so)
    # Cut inside the section header table, which ends the file, and inside the manifest section.
    (ELF / "table_plugin_truncated_sections.so").write_bytes(so[:-100])
    (ELF / "table_plugin_truncated_half.so").write_bytes(so[: len(so) // 2])


if __name__ == "__main__":
    main()
