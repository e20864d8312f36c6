"""A plugin built differently without changing the ABI (another compiler) loads, and its record
says how it differs; the shipped plugins, built with famspec, have nothing to note."""

import os

from conftest import BUILD_DIR, PLUGIN_DIR


def test_a_plugin_from_another_compiler_loads_and_its_record_notes_it():
    import famspec
    registry = famspec.load_plugins([os.path.join(BUILD_DIR, "tests", "fixtures", "built_elsewhere"), PLUGIN_DIR])
    assert registry.all_ok
    record = registry.plugins[0]
    assert record.name == "built_elsewhere"
    assert record.status == "ok" and record.stage is None
    assert record.notes[0].startswith(
        "plugin 'built_elsewhere' was built differently from this famspec, which does not change the ABI "
        "(compiler [CMAKE_CXX_COMPILER]: plugin clang-99.0.0, core gcc-")
    assert famspec.Resolver(registry).replacement(
        "hyper_parallel.models.built_elsewhere.adapter.replacements.replace_norm", "built_elsewhere",
        module_type="built_elsewhere.modeling.BuiltElsewhereRMSNorm").resolved


def test_the_shipped_plugins_have_nothing_to_note(registry):
    assert registry.plugins and all(record.notes == () for record in registry.plugins)
