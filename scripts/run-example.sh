#!/usr/bin/env bash
# The main job on the shipped example: build famspec, list the plugins, check the Qwen3-MoE plan,
# print its declaration-summary digest and one resolved spec; then check a whole training config.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
bash scripts/install-deps.sh
echo "== configure build/ (Release, without the test suite)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFAMSPEC_BUILD_TESTS=OFF -DFAMSPEC_SANITIZE=OFF >/dev/null
echo "== build (one line per finished target)"
build build
famspec=build/bin/famspec
plan=examples/plans/qwen3_moe.yaml

echo; echo "== famspec list"
"$famspec" list
echo; echo "== famspec check $plan"
"$famspec" check "$plan"
echo; echo "== famspec summary --digest $plan"
"$famspec" summary --digest "$plan"
echo "The digest is the SHA-256 of the plan's canonical declaration summary: a runtime compares it with"
echo "the one recorded next to its generated model file, and regenerates that file when they differ."

echo; echo "== famspec resolve: the first replacement of the plan, as the code generator receives it"
"$famspec" resolve \
    --target hyper_parallel.models.qwen3_moe.adapter.replacements.replace_qwen3_moe_rms_norm \
    --module-type transformers.models.qwen3_moe.modeling_qwen3_moe.Qwen3MoeRMSNorm \
    --model-type qwen3_moe

config=examples/plans/qwen3_moe_training.yaml
echo; echo "== famspec check $config (a whole training config; the family comes from model._target_)"
"$famspec" check "$config"
