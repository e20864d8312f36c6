"""Plugins are data: one built with another C++ ABI switch, debug containers or a sanitizer loads into
the Python host like any other, with nothing to note, and one whose code would leave a mark never runs."""

import os

from conftest import BUILD_DIR, PLUGIN_DIR


def fixtures(name: str) -> str:
    return os.path.join(BUILD_DIR, "tests", "fixtures", name)


def test_plugins_built_otherwise_load_and_answer(tmp_path, monkeypatch):
    import famspec
    mark = tmp_path / "mark"
    monkeypatch.setenv("ZOO_MARK_FILE", str(mark))
    for name in ("old_cxx11_abi", "debug_containers", "sanitized", "code_never_runs"):
        registry = famspec.load_plugins([fixtures(name), PLUGIN_DIR])
        assert registry.all_ok, name
        record = registry.plugins[0]
        assert (record.name, record.status, record.stage, record.notes) == (name, "ok", None, ())
        assert famspec.Resolver(registry).replacement(
            f"hyper_parallel.models.{name}.adapter.replacements.replace_norm", name,
            module_type=f"{name}.modeling.RMSNorm").resolved
    assert not mark.exists()


def test_the_shipped_plugins_have_nothing_to_note(registry):
    assert registry.plugins and all(record.notes == () for record in registry.plugins)
