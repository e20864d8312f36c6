"""A sync killed (SIGKILL) at any step of its write: OUT holds the old project or a committed write,
the next sync succeeds and leaves no temporary file, and nothing outside OUT is touched."""

from __future__ import annotations

import json
import os
import shutil
import signal
import traceback

import pytest

from conftest import make_tree, snapshot
from famspec.sync import journal

ATTENTION = "hyper_parallel/models/acme_moe/adapter/attention.py"
# Every call by which sync changes the filesystem: a kill lands just before one of them.
_STEPS = ("mkdir", "chmod", "rename", "replace", "unlink", "rmdir")


def _killed_at(step: int, run, steps=_STEPS) -> bool:
    """Runs `run` in a child process that SIGKILLs itself just before its step-th call of `steps`;
    whether it was killed (False: it finished before reaching that step)."""
    pid = os.fork()
    if pid == 0:
        code = 3
        try:
            count = [0]

            def counted(real):
                def call(*args, **kwargs):
                    if count[0] == step:
                        os.kill(os.getpid(), signal.SIGKILL)
                    count[0] += 1
                    return real(*args, **kwargs)
                return call

            for name in steps:
                setattr(os, name, counted(getattr(os, name)))
            code = run()
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(0 if code == 0 else 3)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        assert os.WTERMSIG(status) == signal.SIGKILL
        return True
    assert os.WEXITSTATUS(status) == 0, "the sync that was not killed failed"
    return False


def _visible(directory) -> dict[str, bytes]:
    """OUT as a build sees it: without the pending write and the staging directories."""
    return {rel: data for rel, data in snapshot(directory).items()
            if not rel.startswith((journal.PENDING + "/", ".famspec-sync-tmp."))}


def _outside(root, out) -> dict[str, bytes]:
    return {rel: data for rel, data in snapshot(root).items() if not rel.startswith(out.name + "/")}


def test_a_sync_killed_at_any_step_leaves_a_project_the_next_sync_takes(tmp_path, sync):
    """The old project comes from source 1, the killed sync writes source 2's, and the next sync
    writes source 3's, which changes the same assets again."""
    trees = [make_tree(tmp_path / f"runtime{n}") for n in (1, 2, 3)]
    for tree in trees[1:]:
        tree.replace(ATTENTION, "_SOFTMAX_DTYPE = torch.float32", "_SOFTMAX_DTYPE = torch.float64")
        tree.replace(ATTENTION, "Plain attention with", "Attention with")
    trees[2].replace(ATTENTION, "_SOFTMAX_DTYPE = torch.float64", "_SOFTMAX_DTYPE = torch.float16")
    trees[2].replace(ATTENTION, "Attention with", "Attention, with")
    old, fresh = tmp_path / "old", [tmp_path / "fresh2", tmp_path / "fresh3"]
    assert sync(trees[0].root, "acme_moe", old)[0] == 0
    for tree, into in zip(trees[1:], fresh):
        assert sync(tree.root, "acme_moe", into)[0] == 0
    (old / "plugin.cpp").write_text((old / "plugin.cpp").read_text(encoding="utf-8") + "// the author's\n",
                                    encoding="utf-8")
    out = tmp_path / "acme"
    step, committed = 0, 0
    while True:
        shutil.copytree(old, out)
        before = _outside(tmp_path, out)
        if not _killed_at(step, lambda: sync(trees[1].root, "acme_moe", out)[0]):
            break
        assert _outside(tmp_path, out) == before, step
        if (out / journal.PENDING).exists():
            committed += 1
        else:
            assert _visible(out) == snapshot(old), step  # killed before the commit: the old project
        code, _, stderr = sync(trees[2].root, "acme_moe", out)
        assert code == 0, (step, stderr)
        expected = snapshot(fresh[1])
        expected["plugin.cpp"] += b"// the author's\n"
        assert snapshot(out) == expected, step  # and no temporary file or pending write is left
        assert _outside(tmp_path, out) == before, step
        shutil.rmtree(out)
        step += 1
    # Killed before the commit (OUT's directory, the staging directory, three files, the rename), and
    # after it: before each of the three moves (and its directory), the journal's removal and the directory's.
    assert (step - committed, committed) == (6, 8)
    expected = snapshot(fresh[0])
    expected["plugin.cpp"] += b"// the author's\n"
    assert snapshot(out) == expected


def test_a_pending_write_is_completed_by_the_next_sync_and_named_by_check(tmp_path, sync):
    tree = make_tree(tmp_path / "runtime")
    out, fresh = tmp_path / "acme", tmp_path / "fresh"
    assert sync(tree.root, "acme_moe", out)[0] == 0
    tree.replace(ATTENTION, "_SOFTMAX_DTYPE = torch.float32", "_SOFTMAX_DTYPE = torch.float64")
    assert sync(tree.root, "acme_moe", fresh)[0] == 0
    # Killed just after the commit: the write is pending, nothing moved yet.
    assert _killed_at(0, lambda: sync(tree.root, "acme_moe", out)[0], steps=("replace",))
    assert (out / journal.PENDING).is_dir() and _visible(out) != snapshot(fresh)
    code, stdout, stderr = sync(tree.root, "acme_moe", out, "--check", "--quiet")
    assert (code, stdout) == (1, "--- a/python/softmax_dtype.py\n+++ b/python/softmax_dtype.py\n@@ -1 +1 @@\n"
                              "-_SOFTMAX_DTYPE = torch.float32\n+_SOFTMAX_DTYPE = torch.float64\n")
    assert stderr == (f"famspec sync --check: {out}/{journal.PENDING}: an earlier sync was killed before it finished "
                      "writing; run famspec sync to complete it\n")
    code, stdout, stderr = sync(tree.root, "acme_moe", out)
    assert code == 0, stderr
    assert stderr == (f"famspec sync: {out}: completed the write an earlier sync left unfinished "
                      "(.famspec-sync.json, python/softmax_dtype.py)\n")
    assert stdout.endswith("-> " + str(out) + ": up to date\n")
    assert snapshot(out) == snapshot(fresh)


def _pending(out, entries) -> None:
    pending = out / journal.PENDING
    pending.mkdir()
    (pending / "0").write_text("planted\n", encoding="utf-8")
    (pending / "journal.json").write_text(json.dumps({"entries": entries}), encoding="utf-8")


@pytest.mark.parametrize("entry, why", [
    ({"file": "../victim.py", "staged": "0", "before": None}, "names '../victim.py', which is no file sync writes"),
    ({"file": "python/../../victim.py", "staged": "0", "before": None},
     "names 'python/../../victim.py', which is no file sync writes"),
    ({"file": "plugin.cpp", "staged": None, "before": None}, "deletes 'plugin.cpp', which is no asset sync writes"),
    ({"file": "plugin.cpp", "staged": "../../victim.py", "before": None},
     "stages 'plugin.cpp' as '../../victim.py', which is no name sync stages under"),
    ({"file": "plugin.cpp", "staged": "0", "before": "x"}, "gives 'x' as what 'plugin.cpp' held, which is no SHA-256"),
])
def test_a_planted_pending_write_naming_anything_else_is_refused(tmp_path, sync, entry, why):
    tree = make_tree(tmp_path / "runtime")
    out = tmp_path / "acme"
    assert sync(tree.root, "acme_moe", out)[0] == 0
    victim = tmp_path / "victim.py"
    victim.write_text("x = 1\n", encoding="utf-8")
    _pending(out, [entry])
    before = snapshot(tmp_path)
    code, stdout, stderr = sync(tree.root, "acme_moe", out)
    assert (code, stdout) == (2, "")
    assert stderr == (f"famspec sync: {out}/{journal.PENDING}/journal.json: {why}: remove {out}/{journal.PENDING} to "
                      "drop the unfinished write; nothing was written\n")
    assert snapshot(tmp_path) == before


def test_a_pending_write_through_a_link_or_over_an_edit_is_refused(tmp_path, sync):
    tree = make_tree(tmp_path / "runtime")
    out = tmp_path / "acme"
    assert sync(tree.root, "acme_moe", out)[0] == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (out / journal.PENDING).symlink_to(elsewhere)
    code, _, stderr = sync(tree.root, "acme_moe", out)
    assert code == 2
    assert stderr == (f"famspec sync: {out}/{journal.PENDING} is not a write sync left (not a directory): remove it; "
                      "nothing was written\n")
    (out / journal.PENDING).unlink()
    # A file edited after the write was staged is not overwritten by its completion.
    _pending(out, [{"file": "plugin.cpp", "staged": "0", "before": "0" * 64}])
    before = snapshot(tmp_path)
    code, _, stderr = sync(tree.root, "acme_moe", out)
    assert code == 2
    assert stderr == (f"famspec sync: {out}/plugin.cpp changed since sync staged the write in "
                      f"{out}/{journal.PENDING}: move it away to let sync complete that write, or remove "
                      f"{out}/{journal.PENDING} to drop it; nothing was written\n")
    assert snapshot(tmp_path) == before and list(elsewhere.iterdir()) == []
