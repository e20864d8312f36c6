"""Hostile source trees: what sync reads from the source is data, never code or a path; bad input is
exit 2 with the file and what is wrong, and nothing is written."""

from __future__ import annotations

import ast
import contextlib
import hashlib
import io
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from conftest import RUNTIME, make_tree, snapshot
from famspec.sync import cpp, main, render
from famspec.sync.model import Block, Site

NEXT = "hyper_parallel/models/qwen3_next/adapter/registration.py"
ATTENTION = "hyper_parallel/models/acme_moe/adapter/attention.py"
SPEC = 'ModelAdapterSpec(architecture="Qwen3NextForCausalLM", model_type="qwen3_next")'


def _refused(sync, root, out, family="qwen3_moe") -> str:
    code, stdout, stderr = sync(root, family, out)
    assert (code, stdout) == (2, ""), stderr
    assert "Traceback" not in stderr and stderr.count("\n") == 1
    assert not out.exists()
    return stderr


@pytest.mark.parametrize("model_type", [
    'x_family)\nexecute_process(COMMAND touch pwned)\n#',
    "${CMAKE_COMMAND}", "_DEFAULT", "_32BIT_X", "a\0b", 'q")famspec"', "two__under", "family", "9lives", "",
])
def test_a_model_type_that_is_no_family_key_is_refused_at_its_line(tree, tmp_path, sync, model_type):
    tree.replace(NEXT, SPEC, f'ModelAdapterSpec(architecture="Qwen3NextForCausalLM", model_type={model_type!r})')
    stderr = _refused(sync, tree.root, tmp_path / "out", "Qwen3NextForCausalLM")
    assert stderr.startswith(f"famspec sync: {NEXT}:4: model_type ")
    assert "is not a family key sync can name a plugin after" in stderr


def test_an_architecture_that_is_no_class_name_is_refused(tree, tmp_path, sync):
    tree.replace(NEXT, SPEC, 'ModelAdapterSpec(architecture="X\\"); std::system(\\"id", model_type="qwen3_next")')
    assert _refused(sync, tree.root, tmp_path / "out", "qwen3_next") == (
        f"famspec sync: {NEXT}:4: architecture 'X\"); std::system(\"id' is not a Python class name; nothing was "
        "written\n")


def test_comment_text_cannot_end_the_comment_or_continue_it():
    assert cpp.comment("a\nb\rc\u2028d\x0ce\\") == "a\\nb\\rc\\u2028d\\x0ce\\\\"
    assert cpp.comment("hyper_parallel/x.py:3") == "hyper_parallel/x.py:3"


def test_a_string_with_a_nul_has_no_literal_and_is_written_as_an_expression():
    assert cpp.literal("a\0b") is None
    assert cpp.literal("a\nb") == '"a\\nb"'


@pytest.mark.parametrize("name, asset", [("_default", "block_default.py"), ("_32bit", "block_32bit.py"),
                                         ("a__b", "block_a_b.py"), ("run_attention", "run_attention.py")])
def test_an_asset_is_named_so_that_py_name_is_a_cpp_name(name, asset):
    block = Block(Site("m.py", 1), [name], [], [], "x = 1\n")
    render.asset_names([block])
    assert block.asset == asset


@pytest.mark.parametrize("separator", ["\x0c", "\u2028", "\x1c", "\x85"])
def test_a_line_separator_above_a_handed_over_function_shifts_nothing(tree, tmp_path, sync, separator):
    tree.replace(ATTENTION, "import math\n", f"import math\n# a{separator}b\n")
    out = tmp_path / "acme"
    code, _, stderr = sync(tree.root, "acme_moe", out)
    assert code == 0, stderr
    text = (out / "python" / "acme_attention.py").read_text(encoding="utf-8")
    assert text.startswith("def acme_attention(module, query, key, value, attention_mask=None, scaling=None, "
                           "**kwargs):\n")
    assert text.endswith("    return torch.matmul(weights, value).transpose(1, 2).contiguous(), weights\n")
    assert (out / "python" / "softmax_dtype.py").read_text(encoding="utf-8") == "_SOFTMAX_DTYPE = torch.float32\n"
    source = ast.parse(tree.path(ATTENTION).read_text(encoding="utf-8"))
    function = next(s for s in source.body if getattr(s, "name", "") == "acme_attention")
    assert ast.dump(ast.parse(text).body[0]) == ast.dump(function)


def test_the_raw_string_delimiter_in_handed_over_code_is_refused(tree, tmp_path, sync):
    tree.replace(ATTENTION, '"""Plain attention', '""")famspec" Plain attention')
    assert _refused(sync, tree.root, tmp_path / "acme", "acme_moe") == (
        f"famspec sync: {ATTENTION}:13: the handed-over code holds the raw-string delimiter )famspec\", which the "
        "plugin cannot embed; nothing was written\n")


@pytest.mark.parametrize("out", ["", " "])
def test_an_empty_out_is_refused(tmp_path, sync, out, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, stdout, stderr = sync(RUNTIME, "qwen3_next", out)
    assert (code, stdout) == (2, "")
    assert stderr == ("famspec sync: --out is empty: name the plugin project's directory (sync never writes into "
                      "the working directory by default); nothing was written\n")
    assert list(tmp_path.iterdir()) == []


def test_no_plugin_loaded_is_refused_even_with_allow_incomplete(tmp_path, capsys):
    empty = tmp_path / "no-plugins"
    empty.mkdir()
    code = main(["--source-root", str(RUNTIME), "--family", "qwen3_moe", "--out", str(tmp_path / "out"),
                 "--plugin-path", str(empty), "--allow-incomplete"])
    assert code == 2
    assert capsys.readouterr().err == (
        f"famspec sync: --plugin-path {empty}: no plugin loads from there, so the project would declare every "
        "shipped component again; pass --plugin-path with the shipped plugins' directory (or a saved description "
        "with --declarations); nothing was written\n")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("entry", ["../victim.py", "{victim}", "python/../../victim.py", "CMakeLists.txt"])
def test_a_state_file_naming_a_file_outside_the_assets_is_refused_and_nothing_is_deleted(tmp_path, sync, entry):
    out = tmp_path / "out"
    assert sync(RUNTIME, "qwen3_moe", out)[0] == 0
    victim = tmp_path / "victim.py"
    victim.write_text("x = 1\n", encoding="utf-8")
    digest = hashlib.sha256(b"x = 1\n").hexdigest()
    entry = entry.format(victim=victim)
    (out / ".famspec-sync.json").write_text(json.dumps({"files": {entry: digest}}), encoding="utf-8")
    before = snapshot(out)
    code, _, stderr = sync(RUNTIME, "qwen3_moe", out)
    assert code == 2
    assert stderr == (f"famspec sync: {out}/.famspec-sync.json: names {entry!r}, which is no asset sync writes "
                      "(python/<name>.py): restore it or remove it; nothing was written\n")
    assert victim.read_text(encoding="utf-8") == "x = 1\n"
    assert snapshot(out) == before


def test_a_symbolic_link_under_out_is_never_followed(tmp_path, sync):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "python").symlink_to(elsewhere)
    code, _, stderr = sync(RUNTIME, "qwen3_moe", out)
    assert code == 2
    assert stderr == (f"famspec sync: {out}/python is a symbolic link: sync writes only regular files under --out "
                      f"{out}, never through a link; remove it; nothing was written\n")
    assert list(elsewhere.iterdir()) == [] and sorted(p.name for p in out.iterdir()) == ["python"]
    (out / "python").unlink()
    (out / "plugin.cpp").symlink_to(elsewhere / "plugin.cpp")
    code, _, stderr = sync(RUNTIME, "qwen3_moe", out)
    assert code == 2 and "plugin.cpp is a symbolic link" in stderr
    assert list(elsewhere.iterdir()) == []


def test_a_registration_in_a_hyphenated_folder_or_a_directory_is_named(tree, tmp_path):
    models = tree.root / "hyper_parallel" / "models"
    (models / "bad-name" / "adapter").mkdir(parents=True)
    (models / "bad-name" / "adapter" / "registration.py").write_text("x = 1\n", encoding="utf-8")
    (models / "dir_model" / "adapter" / "registration.py").mkdir(parents=True)
    from famspec.sync import family
    from famspec.source.source_tree import SourceTree
    broken = [str(b) for b in family.registrations(SourceTree(tree.root))[1]]
    assert any("hyper_parallel/models/bad-name/adapter/registration.py" in b and "not an importable Python module"
               in b for b in broken), broken
    assert any("hyper_parallel/models/dir_model/adapter/registration.py" in b for b in broken), broken


def test_a_latin1_module_with_a_coding_line_is_copied_as_python_reads_it(tree, tmp_path, sync):
    path = tree.path(ATTENTION)
    text = path.read_text(encoding="utf-8").replace("Plain attention", "Plain attention, caf\u00e9")
    path.write_bytes(("# -*- coding: latin-1 -*-\n" + text).encode("latin-1"))
    out = tmp_path / "acme"
    code, _, stderr = sync(tree.root, "acme_moe", out)
    assert code == 0, stderr
    assert "caf\u00e9" in (out / "python" / "acme_attention.py").read_text(encoding="utf-8")


def test_a_latin1_module_without_a_coding_line_is_bad_input(tree, tmp_path, sync):
    path = tree.path(ATTENTION)
    path.write_bytes(path.read_bytes().replace(b"Plain attention", b"caf\xe9"))
    assert f"{ATTENTION}:" in _refused(sync, tree.root, tmp_path / "acme", "acme_moe")


def test_a_deeply_nested_or_too_large_module_is_bad_input(tree, tmp_path, sync):
    path = tree.path(ATTENTION)
    original = path.read_text(encoding="utf-8")
    path.write_text(original + "DEEP = " + "(" * 100000 + "1" + ")" * 100000 + "\n", encoding="utf-8")
    stderr = _refused(sync, tree.root, tmp_path / "acme", "acme_moe")
    assert ATTENTION in stderr
    path.write_text(original + "# " + "x" * (4 << 20) + "\n", encoding="utf-8")
    stderr = _refused(sync, tree.root, tmp_path / "acme", "acme_moe")
    assert f"{ATTENTION}:1: is larger than 4 MiB, the limit for one source file" in stderr


def test_a_lone_surrogate_in_a_default_is_written_as_an_expression():
    assert cpp.literal("\ud800") is None


def _unprivileged(run) -> tuple[int, str, str]:
    """run() -> (exit code, stdout, stderr), in a child process that is no longer root when the tests
    run as root (as in CI): root reads a directory of mode 0 all the same."""
    if os.geteuid() != 0:
        return run()
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(reader)
        try:
            os.setgroups([])
            os.setgid(65534)  # nogroup
            os.setuid(65534)  # nobody: no capability is left
            result = run()
        except BaseException as error:
            result = (99, "", f"{type(error).__name__}: {error}")
        with os.fdopen(writer, "w", encoding="utf-8") as pipe:
            json.dump(result, pipe)
        os._exit(0)
    os.close(writer)
    with os.fdopen(reader, encoding="utf-8") as pipe:
        result = json.load(pipe)
    assert os.waitpid(pid, 0)[1] == 0
    return tuple(result)


def test_an_unreadable_directory_is_bad_input(declarations_file):
    # A tree every user can read but the adapter's directory: under tmp_path (or a TMPDIR) that only
    # root reads, an unprivileged run would fail on the whole tree instead.
    root = Path(tempfile.mkdtemp(prefix="famspec-unreadable-", dir="/tmp" if os.geteuid() == 0 else None))
    try:
        root.chmod(0o755)
        tree = make_tree(root / "runtime")
        shutil.copy(declarations_file, root / "describe.json")
        adapter = tree.path("hyper_parallel/models/acme_moe/adapter")
        adapter.chmod(0)

        def run():
            err = io.StringIO()
            with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(err):
                code = main(["--source-root", str(tree.root), "--family", "acme_moe", "--out", str(root / "acme"),
                             "--declarations", str(root / "describe.json")])
            return code, out.getvalue(), err.getvalue()

        code, stdout, stderr = _unprivileged(run)
        assert (code, stdout) == (2, ""), stderr
        assert stderr.startswith("famspec sync: --family acme_moe: no registration in ")
        assert stderr.endswith("; unreadable: hyper_parallel/models/acme_moe/adapter:1: cannot be read: Permission "
                               "denied\n"), stderr
        assert stderr.count("\n") == 1
        assert not (root / "acme").exists()
    finally:
        for directory, _, _ in os.walk(root):
            os.chmod(directory, 0o755)
        shutil.rmtree(root)


def test_the_audit_names_a_too_large_or_too_deep_module_as_unreadable(tree, declarations_file, capsys):
    from famspec.audit import main as audit

    rel = "hyper_parallel/models/qwen3_moe/adapter/replacements.py"
    path = tree.path(rel)
    original = path.read_text(encoding="utf-8")
    for tail, reason in (("#" + "x" * (4 << 20) + "\n", "is larger than 4 MiB, the limit for one source file"),
                         ("DEEP = " + "(" * 100000 + "1" + ")" * 100000 + "\n", "does not parse")):
        path.write_text(original + tail, encoding="utf-8")
        code = audit(["--source-root", str(tree.root), "--declarations", str(declarations_file)])
        out, err = capsys.readouterr()
        assert code in (0, 1) and "Traceback" not in out + err
        assert f"source:   {reason}" in out


# ---- files under the adapter the runtime could not import, and the source's bounds -------------------

ACME_ADAPTER = "hyper_parallel/models/acme_moe/adapter"
PROVIDER = f"{ACME_ADAPTER}/conversion/module_replacement.py"


def _odd_module(tree, kind: str) -> tuple[str, str]:
    """Places an odd file under acme_moe's adapter; returns its path and why sync refuses it."""
    if kind == "name":
        rel = f"{ACME_ADAPTER}/distributed/foo-bar_context_parallel.py"
        tree.path(rel).write_text("def foo_wrapper(attention_fn, *, context=None):\n    return attention_fn\n",
                                  encoding="utf-8")
        return rel, "is not an importable Python module: 'foo-bar_context_parallel' is not an identifier"
    rel = f"{ACME_ADAPTER}/distributed/odd_context_parallel.py"
    if kind == "fifo":
        os.mkfifo(tree.path(rel))
        return rel, "is a FIFO, not a Python file"
    if kind == "device":
        os.symlink("/dev/zero", tree.path(rel))
        return rel, "is a character device, not a Python file"
    os.symlink(tree.path(rel).name, tree.path(rel))
    return rel, "cannot be read: Too many levels of symbolic links"


@pytest.mark.parametrize("kind", ["name", "fifo", "device", "loop"])
@pytest.mark.parametrize("mode", [[], ["--check"], ["--json"], ["--check", "--json"]])
def test_a_module_under_the_adapter_the_runtime_cannot_import_is_bad_input(tree, tmp_path, sync, kind, mode):
    rel, why = _odd_module(tree, kind)
    out = tmp_path / "acme"
    code, stdout, stderr = sync(tree.root, "acme_moe", out, *mode)
    message = (f"{rel}:1: {why} (a module of the family's adapter); fix it, or move it out of the adapter, and run "
               "sync again; nothing was written")
    assert (code, stderr) == (2, f"famspec sync: {message}\n")
    expected = {"error": {"kind": "bad_input", "message": message, "file": None, "line": None, "column": None}}
    assert (json.loads(stdout) if "--json" in mode else stdout) == (expected if "--json" in mode else "")
    assert not out.exists()


def test_an_expression_nested_beyond_the_bound_is_refused_at_its_line(tree, tmp_path, sync):
    # Within the bound (200 levels, docs/security.md), a module is read as any other: here a factory
    # option's default, which sync reports as no literal.
    original = tree.path(PROVIDER).read_text(encoding="utf-8")

    def with_terms(terms: int) -> int:
        tree.path(PROVIDER).write_text(original.replace(
            "use_grouped_gemm=True", "use_grouped_gemm=True, scale=" + "+".join(["1"] * terms)), encoding="utf-8")
        return tree.line_of(PROVIDER, "scale=")

    with_terms(150)
    code, _, stderr = sync(tree.root, "acme_moe", tmp_path / "near", "--allow-incomplete")
    assert code == 0, stderr
    assert "option scale has no literal default" in stderr
    for terms in (900, 2000):
        line = with_terms(terms)
        assert _refused(sync, tree.root, tmp_path / "deep", "acme_moe") == (
            f"famspec sync: {PROVIDER}:{line}: nests more than 200 levels deep (an expression of more than 200 "
            "terms, say), beyond what famspec reads (a provider module); fix the file and run sync again\n")


def test_concurrent_syncs_into_one_out_are_serialised(tree, tmp_path, declarations_file):
    """Three syncs of two sources into one OUT at once, many times: each succeeds, and OUT is always what
    one of them writes, never a mix or a failure on another's staging directory."""
    other = make_tree(tmp_path / "other")
    other.replace(PROVIDER, "eps=1e-05", "eps=1e-06")
    out = tmp_path / "acme"
    expected = {}
    for name, root in (("one", tree.root), ("two", other.root)):
        assert main(["--source-root", str(root), "--family", "acme_moe", "--out", str(tmp_path / name),
                     "--declarations", str(declarations_file), "--quiet"]) == 0
        expected[name] = snapshot(tmp_path / name)
    assert expected["one"] != expected["two"]
    for _ in range(12):
        children = []
        for root in (tree.root, other.root, tree.root):
            pid = os.fork()
            if pid == 0:
                code = 3
                try:
                    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
                        code = main(["--source-root", str(root), "--family", "acme_moe", "--out", str(out),
                                     "--declarations", str(declarations_file)])
                    if code != 0:
                        os.write(2, err.getvalue().encode())
                finally:
                    os._exit(code)
            children.append(pid)
        statuses = [os.waitpid(pid, 0)[1] for pid in children]
        assert statuses == [0, 0, 0]
        assert snapshot(out) in (expected["one"], expected["two"])


def test_a_default_of_1e400_is_written_as_python_that_evaluates_to_it(tree, tmp_path, sync):
    tree.replace(PROVIDER, "use_grouped_gemm=True", "use_grouped_gemm=True, capacity=1e400, floor=-1e400")
    out = tmp_path / "acme"
    code, _, stderr = sync(tree.root, "acme_moe", out)
    assert code == 0, stderr
    plugin = (out / "plugin.cpp").read_text(encoding="utf-8")
    assert 'param("capacity", expression("float(\'inf\')"))' in plugin
    assert 'param("floor", expression("float(\'-inf\')"))' in plugin
    assert 'expression("inf")' not in plugin and 'expression("-inf")' not in plugin
    # What a generated model file would hold evaluates, in a module of its own, to the source's values.
    assert [eval(text, {}) for text in ("float('inf')", "float('-inf')")] == [1e400, -1e400]
    # And the audit reads the declaration back as the source's value: no drift.
    from famspec.source import signatures

    for source, declared in (("1e400", "float('inf')"), ("-1e400", "float('-inf')")):
        assert signatures.default_from_declaration({"default_expression": declared}) == \
            signatures.default_from_node(ast.parse(source, mode="eval").body)


def test_a_handed_over_function_missing_from_its_module_is_refused_with_its_name(tree, tmp_path, sync):
    tree.replace(ATTENTION, "def acme_attention(", "def acme_attention_v2(")
    line = tree.line_of(PROVIDER, "attention_interface=acme_attention")
    assert _refused(sync, tree.root, tmp_path / "acme", "acme_moe") == (
        f"famspec sync: {PROVIDER}:{line}: replace_acme_moe_attention hands over acme_attention as "
        f"attention_interface=, but {ATTENTION} does not define 'acme_attention': the runtime cannot import the "
        "provider module; nothing was written\n")
