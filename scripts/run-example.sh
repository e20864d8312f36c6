#!/usr/bin/env bash
# The main job on the shipped example: build famspec, list the plugins, check the Qwen3-MoE plan
# and print its declaration-summary digest; then check a whole training config the same way.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFAMSPEC_BUILD_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
build/bin/famspec list
plan=examples/plans/qwen3_moe.yaml
if [[ -f "$plan" ]]; then
    build/bin/famspec check "$plan"
    build/bin/famspec summary --digest "$plan"
fi
config=examples/plans/qwen3_moe_training.yaml
if [[ -f "$config" ]]; then
    build/bin/famspec check "$config"
fi
