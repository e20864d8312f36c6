"""One family project: `famspec new-family` and `famspec sync` write their projects from the same
template files (the package's copy of sdk/templates/family/), by the same expander.
tests/sync/test_build.py builds one project of each against an installed famspec."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from conftest import SHIPPED, SOURCE, TEMPLATES, from_template
from famspec import __version__
from famspec.sync import template
from famspec.sync.errors import SyncError
from runtime_tree import required as _required

FILES = ["CMakeLists.txt.in", "README.md.in", "example_declarations.cpp.in", "plugin.cpp.in"]


def new_family(directory: Path, name: str = "zeta_moe", cli: str | None = None) -> Path:
    result = subprocess.run([cli or _required("FAMSPEC_CLI"), "new-family", name, "--architecture",
                             "ZetaMoeForCausalLM", "--dir", directory], capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stderr) == (0, ""), result.stderr
    return directory


def sync_by_cli(out: Path, family: str = "qwen3_moe", cli: str | None = None, plugins: str | None = None,
                root: Path | None = None) -> Path:
    result = subprocess.run([cli or _required("FAMSPEC_CLI"), "--plugin-path", plugins or _required("FAMSPEC_PLUGIN_DIR"),
                             "sync", "--source-root", root or SOURCE / "tests" / "audit" / "fixtures" / "runtime",
                             "--family", family, "--out", out], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return out


def values_of(project: Path) -> dict[str, dict[str, str | None]]:
    """Each generated file's placeholder values in the template it is read against; asserts it is one."""
    found = {}
    for name in ("CMakeLists.txt", "plugin.cpp"):
        values = from_template((TEMPLATES / f"{name}.in").read_text(encoding="utf-8"),
                               (project / name).read_text(encoding="utf-8"))
        assert values is not None, f"{project / name} is not written from sdk/templates/family/{name}.in"
        found[name] = values
    return found


def test_the_package_carries_the_sdk_templates():
    assert template.directory() != TEMPLATES  # the package's own copy, not the source tree's
    assert sorted(p.name for p in template.directory().iterdir()) == sorted(p.name for p in TEMPLATES.iterdir()) \
        == FILES
    for name in FILES:
        assert (template.directory() / name).read_bytes() == (TEMPLATES / name).read_bytes(), name


def test_new_family_writes_the_templates_expanded_as_sync_expands_them(tmp_path):
    """Byte for byte: what the famspec command writes is the package's expansion of the same files."""
    project = new_family(tmp_path / "zeta")
    target = "hyper_parallel.models.zeta_moe.adapter.replacements.replace_zeta_moe_rms_norm"
    module_type = "transformers.models.zeta_moe.modeling_zeta_moe.ZetaMoeRMSNorm"
    values = {
        "FAMILY": "zeta_moe", "ARCHITECTURE": "ZetaMoeForCausalLM", "CLASS": "ZetaMoe", "VERSION": "0.1.0",
        "FAMSPEC_VERSION": ".".join(__version__.split(".")[:2]), "WRITTEN_BY": "written by `famspec new-family`",
        "ABOUT": "written by `famspec new-family`.\n// Each declaration below maps to one resolution channel; see "
                 "docs/plugin-authors.md in the famspec sources.",
        "BEGIN_REGION": "", "END_REGION": "", "AMENDMENTS": "", "CLANG_FORMAT_ON": "", "ASSETS": "",
        "ASSETS_INCLUDE": "",
        "PLUGIN_NAME": '"zeta_moe"', "PLUGIN_VERSION": '"0.1.0"', "PLUGIN_DESCRIPTION": '"ZetaMoe family"',
        "RESOLVE_TARGET": target, "MODULE_TYPE": module_type,
        "TEST_PURPOSE": "the README's resolve command, which fails unless the example factory resolves",
        "TEST_NAME": "resolve_zeta_moe_rms_norm",
        "TEST_COMMAND": f"resolve --target {target}\n            --module-type {module_type} "
                        "--plugin-path ${CMAKE_BINARY_DIR}/plugins",
    }
    values["DECLARATIONS"] = template.expand("example_declarations.cpp.in", values).removesuffix("\n")
    assert sorted(p.name for p in project.iterdir()) == ["CMakeLists.txt", "README.md", "plugin.cpp"]
    for name in ("CMakeLists.txt", "plugin.cpp", "README.md"):
        assert (project / name).read_text(encoding="utf-8") == template.expand(f"{name}.in", values), name


def test_new_family_and_sync_write_their_projects_from_the_same_templates(tmp_path):
    ours = values_of(new_family(tmp_path / "zeta"))["CMakeLists.txt"]
    synced = values_of(sync_by_cli(tmp_path / "qwen3_moe"))["CMakeLists.txt"]
    assert (ours["FAMILY"], synced["FAMILY"]) == ("zeta_moe", "qwen3_moe")
    assert ours["FAMSPEC_VERSION"] == synced["FAMSPEC_VERSION"] == ".".join(__version__.split(".")[:2])
    # Sync's region is marked in its project; new-family's project is its author's throughout.
    assert (ours["BEGIN_REGION"], ours["END_REGION"]) == (None, None)
    assert synced["BEGIN_REGION"].startswith("# famspec sync: begin generated region")
    assert synced["END_REGION"] == "# famspec sync: end generated region"
    # Each project has its test: the README's resolve command, and verify for a synced project.
    assert (ours["TEST_NAME"], synced["TEST_NAME"]) == ("resolve_zeta_moe_rms_norm", "verify_qwen3_moe")
    assert synced["TEST_COMMAND"] == "verify --plugin-path ${CMAKE_BINARY_DIR}/plugins"
    assert ours["ASSETS"] == "" and synced["ASSETS"].startswith("\n    ASSETS\n        python/")
    plugin = (tmp_path / "qwen3_moe" / "plugin.cpp").read_text(encoding="utf-8")
    assert plugin.startswith("// The qwen3_moe family (Qwen3MoeForCausalLM), declared from the runtime's Python "
                             "source by\n")
    assert '\n// clang-format off\n#include "famspec/sdk/tables.hpp"\n#include "qwen3_moe_assets.hpp"\n\n' \
        'FAMSPEC_PLUGIN(\n    "qwen3_moe", "0.1.0", "Qwen3MoeForCausalLM family, generated by famspec sync",\n' \
        "    Plugin{\n        .families = {\n" in plugin
    # The region ends before the plugin's last field, its author's: the declarations added by hand.
    assert plugin.endswith("        // famspec sync: end generated region\n        .amendments = {},\n    });\n"
                           "// clang-format on\n")
    # new-family's project has no region to amend: its author writes .families.
    ours = (tmp_path / "zeta" / "plugin.cpp").read_text(encoding="utf-8")
    assert ".amendments" not in ours and "clang-format" not in ours and ours.endswith("}}}},\n    });\n")


def test_new_familys_plugin_is_in_the_projects_clang_format_style(tmp_path):
    plugin = new_family(tmp_path / "zeta") / "plugin.cpp"
    result = subprocess.run(["clang-format", f"--style=file:{SOURCE / '.clang-format'}", "--dry-run", "-Werror",
                             plugin], capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stderr) == (0, "")


@pytest.mark.parametrize("family", SHIPPED)
def test_every_shipped_plugin_project_is_written_from_the_templates(family):
    values = values_of(SOURCE / "plugins" / family)
    assert values["CMakeLists.txt"]["FAMILY"] == values["plugin.cpp"]["FAMILY"] == family
    assert values["CMakeLists.txt"]["VERSION"] == "1.0.0"
    assert values["plugin.cpp"]["PLUGIN_VERSION"] == '"1.0.0"'


def test_a_placeholder_alone_on_its_line_with_no_text_leaves_the_line_out():
    text = "a\n@GONE@\n  @KEPT@ @X@\n@EMPTY_INLINE@b\n"
    assert template.substitute(text, {"GONE": "", "KEPT": "", "X": "@GONE@", "EMPTY_INLINE": ""}, "t") == \
        "a\n   @GONE@\nb\n"  # one pass: a value is never expanded


def test_a_placeholder_without_a_value_is_refused():
    with pytest.raises(SyncError, match=r"template t: @MISSING@ has no value"):
        template.substitute("x @MISSING@\n", {}, "t")
    assert template.substitute("mail@example.com @ 3\n", {}, "t") == "mail@example.com @ 3\n"


def test_missing_templates_are_named_before_anything_is_written(tmp_path, monkeypatch):
    monkeypatch.setattr(template, "_DIRECTORIES", (tmp_path / "none",))
    with pytest.raises(SyncError, match=r"the family project templates are missing \(looked in .*none\): "
                                        r"reinstall famspec; nothing was written"):
        template.expand("plugin.cpp.in", {})
