#!/usr/bin/env bash
# The whole test suite: formatting, then build and test twice, with ASan+UBSan and in Release, and
# the concurrency suite once more under ThreadSanitizer (only what it needs is built there).
# Each build directory is configured with what the suite needs, whatever an earlier run (such as
# scripts/run-example.sh) cached there, and ctest fails when it finds no test to run.
# The Release run includes the wheel's suite (tests/wheel): the wheel built offline from the sdist by
# scikit-build-core (its build directory is kept in build/tests/wheel), installed with pip into a fresh
# venv of another interpreter.
# The last lines are ctest's summary of the Release run.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
bash scripts/install-deps.sh
jobs=$(nproc)

mapfile -t sources < <(git ls-files '*.cpp' '*.hpp' 2>/dev/null || find . -name '*.[ch]pp' -not -path './build*')
clang-format --dry-run -Werror "${sources[@]}"

# build_and_test DIR BUILD_TYPE [CMAKE ARGS...]
build_and_test() {
    local dir=$1 type=$2
    shift 2
    echo "== $dir: configure ($type)"
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE="$type" -DFAMSPEC_BUILD_TESTS=ON "$@" >/dev/null
    echo "== $dir: build"
    build "$dir"
    echo "== $dir: test"
    ctest --test-dir "$dir" -j"$jobs" --output-on-failure --no-tests=error
}

build_and_test build-asan Debug -DFAMSPEC_SANITIZE=ON

echo "== build-tsan: configure (Debug, ThreadSanitizer)"
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DFAMSPEC_BUILD_TESTS=ON -DFAMSPEC_SANITIZE=thread \
    -DFAMSPEC_PYTHON=OFF >/dev/null
echo "== build-tsan: build (the concurrency suite and the plugins it loads)"
build build-tsan --target concurrency_tests
echo "== build-tsan: test (ctest -L concurrency)"
ctest --test-dir build-tsan -L concurrency -j"$jobs" --output-on-failure --no-tests=error

build_and_test build Release -DFAMSPEC_SANITIZE=OFF
