"""scripts/check_stages.py on small trees whose breaches are known."""

import os
import sys

SOURCE_DIR = os.environ.get("FAMSPEC_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(SOURCE_DIR, "scripts"))

import check_stages  # noqa: E402


def tree(root, files, public=None):
    """A core/ with `files` ({"stage/name": text}) and the public headers `public` ({name: text});
    every public header check_stages knows exists, empty, unless given."""
    (root / "core" / "src").mkdir(parents=True, exist_ok=True)
    for path, text in files.items():
        full = root / "core" / "src" / path
        full.parent.mkdir(parents=True, exist_ok=True)
        full.write_text(text)
    headers = dict.fromkeys(check_stages.PUBLIC, "")
    headers.update(public or {})
    folder = root / "core" / "include" / "famspec"
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in headers.items():
        (folder / name).write_text(text)
    return str(root)


def test_the_tree_itself_has_no_breach():
    assert check_stages.check(SOURCE_DIR)[0] == []


def test_a_public_header_that_includes_a_later_stage_is_refused(tmp_path):
    root = tree(tmp_path, {"common/names.cpp": '#include "famspec/names.hpp"\n'},
                {"names.hpp": '#include "famspec/resolver.hpp"\n'})
    assert check_stages.check(root)[0] == [
        "core/include/famspec/names.hpp (common): includes famspec/resolver.hpp, of a later stage (resolution)"
    ]


def test_a_private_file_that_includes_a_later_public_header_is_refused(tmp_path):
    root = tree(tmp_path, {"discovery/plugin_search.cpp": '#include "famspec/plugin_loader.hpp"\n'})
    assert check_stages.check(root)[0] == [
        "core/src/discovery/plugin_search.cpp (discovery): includes famspec/plugin_loader.hpp, of a later stage"
        " (loading)"
    ]


def test_a_public_header_without_a_stage_is_refused(tmp_path):
    root = tree(tmp_path, {}, {"new_thing.hpp": ""})
    assert check_stages.check(root)[0] == [
        "core/include/famspec/new_thing.hpp: no stage (add it to PUBLIC in scripts/check_stages.py)"
    ]


def test_earlier_and_same_stage_public_headers_may_be_included(tmp_path):
    root = tree(tmp_path, {"resolution/resolver.cpp": '#include "famspec/resolver.hpp"\n#include "famspec/names.hpp"\n'},
                {"resolver.hpp": '#include "famspec/specs.hpp"\n#include "famspec/resolution.hpp"\n'})
    assert check_stages.check(root)[0] == []


def document_tree(tmp_path, drawn):
    """A tree of one public header per stage and one source in common/, with docs/architecture.md
    drawing `drawn` files in common/."""
    tree(tmp_path, {"common/a.cpp": ""})
    root = tmp_path
    (root / "docs").mkdir()
    lines = [f"   {stage + '/':<13}files of {stage}   {drawn if stage == 'common' else 0} files"
             for stage in check_stages.STAGES]
    text = "\n".join(["```", " core/src/", *lines, "```", "", check_stages.HEADERS_BEGIN,
                      check_stages.HEADERS_END, ""])
    (root / "docs" / "architecture.md").write_text(text)
    return root


def test_the_document_s_counts_and_header_list_are_checked_and_written(tmp_path):
    root = document_tree(tmp_path, 2)
    assert check_stages.check_document(str(root)) == [
        "docs/architecture.md: core/src/common/ is drawn with 2 files, it holds 1"
        " (scripts/check_stages.py --write ROOT rewrites them)",
        "docs/architecture.md: the list of public headers differs from core/include/famspec"
        " (scripts/check_stages.py --write ROOT rewrites it)",
    ]
    assert check_stages.check_document(str(root), write=True) == []
    assert check_stages.check_document(str(root)) == []
    text = (root / "docs" / "architecture.md").read_text()
    assert "   common/      files of common   1 file\n" in text
    assert "   resolution/  component_renderer.hpp, family_dependence.hpp, resolver.hpp, specs.hpp\n" in text


def test_the_document_of_the_tree_is_current():
    assert check_stages.check_document(SOURCE_DIR) == []
