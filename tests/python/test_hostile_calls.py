"""The drop-in on hostile calls: the memo's fast path checks a call as the slow path does, a call's
size is bounded, and a string without a UTF-8 form is a ValueError naming the argument."""

import time

import pytest

import famspec
from famspec import _native
from conftest import PLUGIN_DIR, QWEN_CP, QWEN_MODELING, RMS_NORM, run_python

NORM_TYPE = QWEN_MODELING + "Qwen3MoeRMSNorm"
BOUND = _native.MAX_OPTIONS_PER_CALL


def test_a_cached_answer_is_given_only_to_a_call_the_slow_path_accepts(framework_spec):
    framework_spec.clear_cache()
    assert framework_spec.strategy_spec_for(QWEN_CP, "qwen3_moe", inner_wrapper=True) is not None
    # 1 == True and hash(1) == hash(True): the memo alone would answer it.
    with pytest.raises(TypeError, match=r"^inner_wrapper must be a bool, got int$"):
        framework_spec.strategy_spec_for(QWEN_CP, "qwen3_moe", inner_wrapper=1)

    class Anything(str):
        """Equal to every string, hashed as the text it is told: only its own text may decide its answer."""

        def __new__(cls, text, hashed_as):
            made = super().__new__(cls, text)
            made.hashed_as = hashed_as
            return made

        def __eq__(self, other):
            return True

        def __hash__(self):
            return hash(self.hashed_as)

    assert framework_spec.replacement_spec_for(RMS_NORM, "qwen3_moe", module_type=NORM_TYPE) is not None
    assert framework_spec.replacement_spec_for(Anything("not.a.target", RMS_NORM), "qwen3_moe",
                                               module_type=NORM_TYPE) is None
    assert framework_spec.replacement_spec_for(RMS_NORM, Anything("no_such_family", "qwen3_moe"),
                                               module_type=NORM_TYPE) is None
    # The answer for a str subclass is its text's: cached under the plain text, found by it.
    named = framework_spec.replacement_spec_for(type("Named", (str,), {})(RMS_NORM), module_type=NORM_TYPE)
    assert named is framework_spec.replacement_spec_for(RMS_NORM, module_type=NORM_TYPE)


def test_the_same_call_on_a_fresh_process_raises_the_same_error():
    result = run_python(
        "import famspec\n"
        "from famspec import framework_spec as fs\n"
        f"fs.use_registry(famspec.load_plugins([{PLUGIN_DIR!r}]))\n"
        "try:\n"
        f"    fs.strategy_spec_for({QWEN_CP!r}, 'qwen3_moe', inner_wrapper=1)\n"
        "except TypeError as error:\n"
        "    print(error)\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "inner_wrapper must be a bool, got int\n"


def test_a_call_with_more_options_than_the_bound_is_refused_before_it_is_read(framework_spec, resolver):
    target = {"_target_": RMS_NORM, **{f"option_{i}": i for i in range(1_000_000)}}
    started = time.monotonic()
    with pytest.raises(ValueError, match=rf"^target '{RMS_NORM}': 1000000 options, more than the {BOUND} one call "
                                         r"may give$"):
        framework_spec.replacement_spec_for(target, module_type=NORM_TYPE)
    assert time.monotonic() - started < 1.0
    over = {f"option_{i}": i for i in range(BOUND + 1)}
    with pytest.raises(ValueError, match=rf"^options: {BOUND + 1} of them, more than the {BOUND} one call may give$"):
        resolver.replacement(RMS_NORM, module_type=NORM_TYPE, options=over)
    # At the bound, a call is answered (each option undeclared: a diagnostic, the spec stands).
    at = {f"option_{i}": i for i in range(BOUND)}
    assert framework_spec.replacement_spec_for({"_target_": RMS_NORM, **at}, module_type=NORM_TYPE) is not None
    assert resolver.replacement(RMS_NORM, module_type=NORM_TYPE, options=at).resolved


@pytest.mark.parametrize("call, message", [
    (lambda fs: fs.replacement_spec_for("hyper\ud800.x"),
     r"target holds a lone surrogate \(U\+D800 at index 5\), which has no UTF-8 form"),
    (lambda fs: fs.replacement_spec_for({"_target_": "a.\udcff"}),
     r"target holds a lone surrogate \(U\+DCFF at index 2\), which has no UTF-8 form"),
    (lambda fs: fs.replacement_spec_for(RMS_NORM, "qwen\udc80"),
     r"model_type holds a lone surrogate \(U\+DC80 at index 4\), which has no UTF-8 form"),
    (lambda fs: fs.replacement_spec_for(RMS_NORM, module_type="\ud800"),
     r"module_type holds a lone surrogate \(U\+D800 at index 0\), which has no UTF-8 form"),
    (lambda fs: fs.replacement_spec_for({"_target_": RMS_NORM, "eps": "1e-6\udc80"}, module_type=NORM_TYPE),
     r"option 'eps' holds a lone surrogate \(U\+DC80 at index 4\), which has no UTF-8 form"),
    (lambda fs: fs.replacement_spec_for({"_target_": RMS_NORM, "e\ud800": 1}, module_type=NORM_TYPE),
     r"option name 'e\\ud800' holds a lone surrogate \(U\+D800 at index 1\), which has no UTF-8 form"),
    (lambda fs: fs.strategy_spec_for("x\udc80", inner_wrapper=True),
     r"target holds a lone surrogate \(U\+DC80 at index 1\), which has no UTF-8 form"),
    (lambda fs: fs.interface_component_class("qwen3\ud800"),
     r"model_type holds a lone surrogate \(U\+D800 at index 5\), which has no UTF-8 form"),
    (lambda fs: fs.external_state_classes_for("qwen3_moe", [{"local_compute_fn": "x.\ud800"}]),
     r"target holds a lone surrogate \(U\+D800 at index 2\), which has no UTF-8 form"),
])
def test_a_lone_surrogate_is_a_value_error_naming_the_argument(framework_spec, call, message):
    with pytest.raises(ValueError, match=f"^{message}$"):
        call(framework_spec)


def test_the_resolver_names_a_lone_surrogate_too(resolver):
    with pytest.raises(ValueError, match=r"^target holds a lone surrogate \(U\+D800 at index 0\), which has no "
                                         r"UTF-8 form$"):
        resolver.replacement("\ud800")
    with pytest.raises(ValueError, match=r"^target holds a lone surrogate"):
        resolver.strategy("\ud800", slot="inner_wrapper")
