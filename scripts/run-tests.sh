#!/usr/bin/env bash
# The whole test suite: formatting, then build and test twice, with ASan+UBSan and in Release.
# The last lines are ctest's summary of the Release run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=$(nproc)

mapfile -t sources < <(git ls-files '*.cpp' '*.hpp' 2>/dev/null || find . -name '*.[ch]pp' -not -path './build*')
clang-format --dry-run -Werror "${sources[@]}"

cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DFAMSPEC_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$jobs" >/dev/null
ctest --test-dir build-asan -j"$jobs" --output-on-failure

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs" >/dev/null
ctest --test-dir build -j"$jobs" --output-on-failure
