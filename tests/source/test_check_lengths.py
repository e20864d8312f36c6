"""scripts/check_lengths.py on small sources whose lengths are known."""

import os
import sys

import pytest

SOURCE_DIR = os.environ.get("FAMSPEC_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(SOURCE_DIR, "scripts"))

import check_lengths  # noqa: E402


def function_of(lines):
    """A function whose declaration and braces take `lines` lines in all."""
    body = "".join(f"    total += {i};\n" for i in range(lines - 3))
    return "int sum() {\n    int total = 0;\n" + body + "}\n"


def test_a_function_is_measured_from_its_declaration_to_its_closing_brace():
    text = "namespace a {\n\n" + function_of(7) + "\n}  // namespace a\n"
    assert check_lengths.functions(text) == [("sum", 3, 9)]


def test_braces_in_comments_literals_and_directives_are_not_code():
    text = (
        "#define OPEN {\n"
        "// }\n"
        "/* { */\n"
        'const char* kText = R"x(})x";\n'
        "std::string f() {\n"
        "    const char c = '}';\n"
        '    return "{";\n'
        "}\n"
    )
    assert check_lengths.functions(text) == [("f", 5, 8)]


def test_lambdas_and_local_blocks_count_towards_their_function():
    text = "void run() {\n    auto f = [] {\n        if (x) {\n        }\n    };\n}\n"
    assert check_lengths.functions(text) == [("run", 1, 6)]


def test_members_tables_and_types_are_told_apart():
    text = (
        "template <class T>\n"
        "struct Box {\n"
        "public:\n"
        "    const T& get() const { return value; }\n"
        "    struct Inner {\n"
        "        bool operator==(const Inner&) const { return true; }\n"
        "    };\n"
        "    T value{};\n"
        "};\n"
        "constexpr std::array<int, 2> kTable = {{1, 2}};\n"
        "enum class Kind { a, b };\n"
        "int Box<int>::size() const {\n"
        "    return 1;\n"
        "}\n"
    )
    names = [name for name, _, _ in check_lengths.functions(text)]
    assert names == ["get", "operator==", "Box<int>::size"]


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as out:
        out.write(text)


def test_the_limits_are_inclusive_and_every_excess_is_named(tmp_path):
    root = str(tmp_path)
    write(root, "core/src/fits.cpp", function_of(60) + "\n" * (400 - 60))
    assert check_lengths.violations(root) == []
    write(root, "core/src/long.cpp", function_of(61))
    write(root, "cli/big.hpp", "\n" * 401)
    assert check_lengths.violations(root) == [
        "cli/big.hpp: 401 lines (at most 400): split it, one concept a file",
        "core/src/long.cpp:1: function sum has 61 lines (at most 60)",
    ]
    assert check_lengths.main(["check_lengths.py", root]) == 1


def test_the_allowlist_excuses_named_tables_and_must_not_go_stale(tmp_path):
    root = str(tmp_path)
    write(root, "sdk/table.cpp", function_of(80))
    write(root, check_lengths.ALLOWLIST, "# tables\nsdk/table.cpp:sum  a table of data\n")
    assert check_lengths.violations(root) == []
    write(root, "sdk/table.cpp", function_of(20))
    assert check_lengths.violations(root) == [
        "scripts/length-allowlist.txt: sdk/table.cpp:sum is no longer over the limit: remove the entry"
    ]
    write(root, check_lengths.ALLOWLIST, "sdk/table.cpp:sum\n")
    with pytest.raises(SystemExit, match="needs a reason"):
        check_lengths.violations(root)

