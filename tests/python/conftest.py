"""Shared fixtures: where the build tree, the CLI and the example plans are (set by ctest)."""

import os
import subprocess
import sys

import pytest

BUILD_DIR = os.environ.get("FAMSPEC_BUILD_DIR", "")
SOURCE_DIR = os.environ.get("FAMSPEC_SOURCE_DIR", "")
CLI = os.environ.get("FAMSPEC_CLI", os.path.join(BUILD_DIR, "bin", "famspec"))
PLUGIN_DIR = os.path.join(BUILD_DIR, "lib", "famspec", "plugins")
PLANS = os.path.join(SOURCE_DIR, "examples", "plans")

# The tests choose their plugin search themselves.
os.environ.pop("FAMSPEC_PLUGIN_PATH", None)

QWEN = "hyper_parallel.models.qwen3_moe.adapter."
RMS_NORM = QWEN + "replacements.replace_qwen3_moe_rms_norm"
ATTENTION = QWEN + "replacements.replace_qwen3_moe_flash_attention"
EXPERTS = QWEN + "replacements.replace_qwen3_moe_grouped_experts"
QWEN_EP = QWEN + "distributed.expert_parallel.qwen3moe_ep_compute_fn"
QWEN_CP = QWEN + "distributed.context_parallel.qwen3_moe_flash_attention_cp_wrapper"
DEEPSEEK_EP = "hyper_parallel.distributed.expert_parallel.recipes.deepseekv3_ep_compute_fn"
QWEN_MODELING = "transformers.models.qwen3_moe.modeling_qwen3_moe."


def run_python(code, env=None, cwd=None, timeout=120):
    """Runs code in a fresh Debian python3 (so import-time effects are observable)."""
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)


def run_cli(*args, timeout=60):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="session")
def registry():
    import famspec
    loaded = famspec.load_plugins([PLUGIN_DIR])
    assert loaded.all_ok, [p for p in loaded.plugins if p.status != "ok"]
    return loaded


@pytest.fixture(scope="session")
def resolver(registry):
    import famspec
    return famspec.Resolver(registry)


@pytest.fixture()
def framework_spec(registry):
    from famspec import framework_spec as module
    module.use_registry(registry)
    return module
