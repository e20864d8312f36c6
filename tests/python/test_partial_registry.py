"""A registry in which a plugin failed gives no answer, unless the caller accepts a partial one:
``famspec.framework_spec``'s default registry, ``Resolver`` and ``use_registry`` refuse it with
``PartialRegistryError``, as ``famspec summary`` exits 1 in the same set-up."""

import os
import pickle
import shutil
import subprocess
import sys

import pytest

from conftest import CLI, PLANS, PLUGIN_DIR, QWEN_EP, QWEN_MODELING, RMS_NORM


@pytest.fixture(scope="module")
def broken_qwen(tmp_path_factory):
    """The shipped plugins, with Qwen3-MoE's file damaged: every other family still loads."""
    directory = tmp_path_factory.mktemp("plugins")
    for name in os.listdir(PLUGIN_DIR):
        if name.endswith(".so"):
            shutil.copy2(os.path.join(PLUGIN_DIR, name), directory / name)
    (directory / "famspec_qwen3_moe.so").write_bytes(b"\x7fELF damaged in transit")
    os.chmod(directory, 0o755)
    return str(directory)


def _run(code, plugin_path):
    env = dict(os.environ, FAMSPEC_PLUGIN_PATH=plugin_path)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)


def test_the_drop_in_refuses_to_answer_from_a_partial_default_registry(broken_qwen):
    result = _run(
        "import famspec\n"
        "from famspec import framework_spec\n"
        "for attempt in range(2):\n"
        "    try:\n"
        f"        print('answer', framework_spec.replacement_spec_for({RMS_NORM!r}, 'qwen3_moe',\n"
        f"              module_type={QWEN_MODELING + 'Qwen3MoeRMSNorm'!r}))\n"
        "    except famspec.PartialRegistryError as error:\n"
        "        print('refused', [(f.path.rsplit('/', 1)[1], f.stage) for f in error.failures])\n"
        "        print(error)\n", broken_qwen)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    # Every call is refused, not the first one only.
    assert lines[0] == lines[2] == "refused [('famspec_qwen3_moe.so', 'manifest')]"
    message = lines[1]
    assert message.startswith("not every plugin loaded, so famspec gives no answer: "
                              f"{broken_qwen}/famspec_qwen3_moe.so: manifest: ")
    assert message.endswith("; fix the plugins, or pass allow_partial=True to answer from the plugins that did load")
    # The CLI refuses the same set-up.
    cli = subprocess.run([CLI, "--plugin-path", broken_qwen, "summary", os.path.join(PLANS, "qwen3_moe.yaml")],
                         capture_output=True, text=True, timeout=60)
    assert cli.returncode == 1 and cli.stdout == ""


def test_the_rich_api_refuses_a_partial_registry_unless_the_caller_opts_in(broken_qwen):
    import famspec
    from famspec import framework_spec

    registry = famspec.load_plugins([broken_qwen])
    assert not registry.all_ok and not registry.allow_partial
    assert [(f.path, f.stage) for f in registry.failures] == [(broken_qwen + "/famspec_qwen3_moe.so", "manifest")]
    with pytest.raises(famspec.PartialRegistryError) as refused:
        famspec.Resolver(registry)
    assert refused.value.failures == registry.failures
    assert isinstance(refused.value, RuntimeError)
    again = pickle.loads(pickle.dumps(refused.value))
    assert str(again) == str(refused.value) and again.failures == refused.value.failures
    with pytest.raises(famspec.PartialRegistryError):
        framework_spec.use_registry(registry)

    plan = os.path.join(PLANS, "qwen3_moe.yaml")
    # Opting in: the answer comes from what loaded, and Qwen3-MoE's targets are not covered.
    partial = famspec.Resolver(registry, allow_partial=True)
    summary = partial.summary(plan)
    norm = [e for e in summary.entries if e.target == RMS_NORM]
    assert norm and {e.status for e in norm} == {"not_covered"}
    complete = famspec.Resolver(famspec.load_plugins([PLUGIN_DIR])).summary(plan)
    assert summary.digest() != complete.digest()
    accepted = famspec.load_plugins([broken_qwen], allow_partial=True)
    assert accepted.allow_partial
    assert famspec.Resolver(accepted).summary(plan).digest() == summary.digest()
    framework_spec.use_registry(registry, allow_partial=True)
    try:
        assert framework_spec.strategy_spec_for(QWEN_EP, "qwen3_moe") is None
    finally:
        framework_spec.use_registry(famspec.load_plugins([PLUGIN_DIR]))
    with pytest.raises(TypeError):
        famspec.load_plugins([PLUGIN_DIR], allow_partial="yes")
    with pytest.raises(TypeError):
        famspec.Resolver(registry, allow_partial=1)


def test_a_missing_plugin_directory_is_a_failure_too(tmp_path):
    import famspec
    registry = famspec.load_plugins([str(tmp_path / "nowhere"), PLUGIN_DIR])
    assert not registry.all_ok
    with pytest.raises(famspec.PartialRegistryError) as refused:
        famspec.Resolver(registry)
    assert str(tmp_path / "nowhere") in str(refused.value)
    assert [f.stage for f in refused.value.failures] == ["find"]


def test_a_complete_registry_is_answered_as_before(registry):
    import famspec
    assert registry.all_ok and registry.failures == ()
    assert famspec.Resolver(registry).replacement(RMS_NORM, "qwen3_moe",
                                                  module_type=QWEN_MODELING + "Qwen3MoeRMSNorm").resolved
