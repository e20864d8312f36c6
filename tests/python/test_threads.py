"""Many Python threads: loading, resolving and summarising at once give the single-thread answers."""

import os
import threading
from concurrent.futures import ThreadPoolExecutor

import famspec
from conftest import ATTENTION, PLANS, PLUGIN_DIR, QWEN_EP, QWEN_MODELING, RMS_NORM

PLAN = os.path.join(PLANS, "qwen3_moe.yaml")


def test_concurrent_framework_spec_calls_share_one_object_per_identity(registry):
    from famspec import framework_spec
    framework_spec.use_registry(registry)
    spellings = [None, "qwen3_moe", "Qwen3MoeForCausalLM", "qwen3moe"]
    barrier = threading.Barrier(8)

    def work(i):
        barrier.wait()
        seen = set()
        for n in range(200):
            model_type = spellings[(i + n) % len(spellings)]
            spec = framework_spec.replacement_spec_for(ATTENTION, model_type,
                                                       module_type=QWEN_MODELING + "Qwen3MoeAttention")
            seen.add(id(spec))
            assert framework_spec.strategy_spec_for(QWEN_EP, model_type).target_class == "Qwen3MoeSparseMoeBlock"
        return seen

    with ThreadPoolExecutor(8) as pool:
        ids = set().union(*pool.map(work, range(8)))
    assert len(ids) == 1


def test_concurrent_loads_resolvers_and_summaries_agree():
    expected = famspec.Resolver(famspec.load_plugins([PLUGIN_DIR])).summary(PLAN).digest()
    barrier = threading.Barrier(6)

    def work(_):
        barrier.wait()
        resolver = famspec.Resolver(famspec.load_plugins([PLUGIN_DIR]))
        digests = {resolver.summary(PLAN).digest() for _ in range(20)}
        norm = resolver.replacement(RMS_NORM, module_type=QWEN_MODELING + "Qwen3MoeRMSNorm").value
        return digests, norm

    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(work, range(6)))
    assert {d for digests, _ in results for d in digests} == {expected}
    assert len({norm for _, norm in results}) == 1


def test_one_resolver_shared_by_threads(resolver):
    with ThreadPoolExecutor(4) as pool:
        digests = list(pool.map(lambda _: resolver.summary(PLAN).digest(), range(40)))
    assert len(digests) == 40 and len(set(digests)) == 1


def test_objects_keep_their_plugins_alive_after_the_registry_is_dropped():
    import gc
    resolver = famspec.Resolver(famspec.load_plugins([PLUGIN_DIR]))
    summary = resolver.summary(PLAN)
    del resolver
    gc.collect()
    assert summary.digest().startswith("sha256:")
    assert summary.entries[0].value is not None
