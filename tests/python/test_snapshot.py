"""Plugin-set snapshots, their comparison, summary --with-snapshot, famspec diff and provenance."""

import hashlib
import json
import os
import shutil

import pytest

import famspec
from conftest import PLANS, PLUGIN_DIR, run_cli

PLAN = os.path.join(PLANS, "qwen3_moe.yaml")


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def redigest(document):
    """The digest a snapshot carries: over everything but the digest and the plugins' paths."""
    bare = json.loads(json.dumps(document))
    bare.pop("digest")
    for plugin in bare["plugins"]:
        plugin.pop("path")
    document["digest"] = "sha256:" + hashlib.sha256(canonical(bare).encode()).hexdigest()
    return document


@pytest.fixture()
def copy_of_plugins(tmp_path):
    directory = tmp_path / "plugins"
    shutil.copytree(PLUGIN_DIR, directory)
    return directory


def test_snapshot_records_each_plugin_file_and_what_it_registered(registry):
    snapshot = json.loads(registry.snapshot())
    assert snapshot["famspec"] == {"version": famspec.__version__, "abi": famspec.ABI}
    names = [p["name"] for p in snapshot["plugins"]]
    assert names == sorted(names) and len(names) == len(registry.plugins)
    by_path = {p.path: p for p in registry.plugins}
    for plugin in snapshot["plugins"]:
        record = by_path[plugin["path"]]
        with open(plugin["path"], "rb") as handle:
            assert plugin["sha256"] == "sha256:" + hashlib.sha256(handle.read()).hexdigest()
        assert plugin["build_id"] == record.build_id and len(plugin["build_id"]) == 40
        assert plugin["families"] == sorted(record.families)
        assert plugin["status"] == "ok" and plugin["stage"] is None and plugin["abi"] == record.abi
        assert record.abi in (famspec.ABI, "3.0")  # the tables' (this core's), or a register function's
        assert sorted(plugin["keys"]) == ["archetypes", "components", "cp_wrappers", "factories"]
    qwen = next(p for p in snapshot["plugins"] if p["name"] == "qwen3_moe")
    assert any(f.endswith("replace_qwen3_moe_rms_norm") for f in qwen["keys"]["factories"])
    assert redigest(json.loads(registry.snapshot()))["digest"] == snapshot["digest"]
    assert registry.snapshot() == canonical(snapshot)


def test_the_same_files_elsewhere_have_the_same_digest(registry, copy_of_plugins):
    elsewhere = famspec.load_plugins([str(copy_of_plugins)])
    assert json.loads(elsewhere.snapshot())["digest"] == json.loads(registry.snapshot())["digest"]
    assert elsewhere.snapshot() != registry.snapshot()  # the paths are kept for reading


def test_cli_snapshot_json_equals_the_python_snapshot(registry):
    result = run_cli("--plugin-path", PLUGIN_DIR, "snapshot", "--json")
    assert result.returncode == 0 and result.stdout == registry.snapshot() + "\n"
    table = run_cli("--plugin-path", PLUGIN_DIR, "snapshot")
    assert json.loads(registry.snapshot())["digest"] in table.stdout and "qwen3_moe" in table.stdout


def test_compare_lists_each_difference_with_exit_codes(registry, copy_of_plugins, tmp_path):
    stored = tmp_path / "snapshot.json"
    stored.write_text(registry.snapshot())
    same = run_cli("--plugin-path", PLUGIN_DIR, "snapshot", "--compare", str(stored))
    assert same.returncode == 0 and "same plugin set" in same.stdout

    (copy_of_plugins / "famspec_deepseek_v41.so").unlink()
    with open(copy_of_plugins / "famspec_qwen3_moe.so", "ab") as handle:
        handle.write(b"\0")  # another file, same version: the dangerous case
    changed = run_cli("--plugin-path", str(copy_of_plugins), "snapshot", "--compare", str(stored))
    assert changed.returncode == 1, changed.stderr
    assert "plugin removed: deepseek_v41 1.0.0" in changed.stdout
    assert "file changed with the same version: qwen3_moe 1.0.0" in changed.stdout


def test_compare_names_versions_and_moved_families(registry, tmp_path):
    document = json.loads(registry.snapshot())
    qwen = next(p for p in document["plugins"] if p["name"] == "qwen3_moe")
    other = next(p for p in document["plugins"] if p["name"] == "deepseek_v3")
    qwen["version"] = "0.9.0"
    qwen["families"].remove("qwen3_moe")
    other["families"] = sorted(other["families"] + ["qwen3_moe"])
    stored = tmp_path / "old.json"
    stored.write_text(canonical(redigest(document)))
    result = run_cli("--plugin-path", PLUGIN_DIR, "snapshot", "--compare", str(stored))
    assert result.returncode == 1
    assert "version changed: qwen3_moe 0.9.0 -> 1.0.0" in result.stdout
    assert "family moved: qwen3_moe from deepseek_v3 to qwen3_moe" in result.stdout


@pytest.mark.parametrize("content", ["not json", "[]", '{"plugins": []}', "EDITED"])
def test_compare_refuses_a_bad_file_with_exit_2(registry, tmp_path, content):
    if content == "EDITED":
        content = registry.snapshot().replace('"1.0.0"', '"1.0.1"', 1)
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    result = run_cli("--plugin-path", PLUGIN_DIR, "snapshot", "--compare", str(bad))
    assert result.returncode == 2 and str(bad) in result.stderr
    assert run_cli("--plugin-path", PLUGIN_DIR, "snapshot", "--compare", str(tmp_path / "none")).returncode == 2


def test_summary_with_snapshot_records_the_plugin_set(registry):
    plain = run_cli("--plugin-path", PLUGIN_DIR, "summary", PLAN)
    marked = run_cli("--plugin-path", PLUGIN_DIR, "summary", "--with-snapshot", PLAN)
    digest = run_cli("--plugin-path", PLUGIN_DIR, "summary", "--with-snapshot", "--digest", PLAN)
    document = json.loads(marked.stdout)
    assert document.pop("snapshot_digest") == json.loads(registry.snapshot())["digest"]
    assert canonical(document) + "\n" == plain.stdout
    assert digest.stdout.strip() == "sha256:" + hashlib.sha256(marked.stdout.strip().encode()).hexdigest()


def test_diff_names_each_changed_target_and_field(tmp_path):
    text = open(PLAN, encoding="utf-8").read()
    changed_plan = tmp_path / "plan.yaml"
    changed_plan.write_text(text.replace("modeling_qwen3_moe.Qwen3MoeRMSNorm", "modeling_qwen3_moe.OtherNorm"))
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(run_cli("--plugin-path", PLUGIN_DIR, "summary", PLAN).stdout)
    new.write_text(run_cli("--plugin-path", PLUGIN_DIR, "summary", str(changed_plan)).stdout)
    result = run_cli("diff", str(old), str(new))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    target = "hyper_parallel.models.qwen3_moe.adapter.replacements.replace_qwen3_moe_rms_norm"
    assert lines[0] == f'target {target}: old_ctor: "Qwen3MoeRMSNorm" -> "OtherNorm"'
    assert lines[1].startswith(f"target {target}: replacement_note: ") and len(lines) == 2
    assert run_cli("diff", str(old), str(old)).returncode == 0
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    refused = run_cli("diff", str(old), str(bad))
    assert refused.returncode == 2 and str(bad) in refused.stderr


def test_provenance_round_trip_and_mismatch(registry, resolver, copy_of_plugins):
    summary = resolver.summary(PLAN)
    stored = json.loads(json.dumps(famspec.provenance(registry, summary)))  # as a checkpoint keeps it
    assert stored["summary_digest"] == summary.digest()
    assert stored["snapshot"]["digest"] == json.loads(registry.snapshot())["digest"]
    famspec.check_provenance(stored, registry, summary)

    (copy_of_plugins / "famspec_qwen3_moe.so").unlink()
    other = famspec.load_plugins([str(copy_of_plugins)])
    other_summary = famspec.Resolver(other).summary(PLAN)
    with pytest.raises(famspec.ProvenanceMismatch) as caught:
        famspec.check_provenance(stored, other, other_summary)
    differences = caught.value.differences
    assert "plugin removed: qwen3_moe 1.0.0" in differences
    assert differences[-1].startswith("summary digest changed: " + summary.digest())
    with pytest.raises(TypeError):
        famspec.check_provenance("not a dict", registry)


def test_a_received_summary_has_the_same_bytes_and_digest(resolver):
    summary = resolver.summary(PLAN)
    received = famspec.Summary.from_canonical_json(summary.canonical_json())
    assert received.digest() == summary.digest() and received.canonical_json() == summary.canonical_json()
    with pytest.raises(ValueError):
        received.entries
