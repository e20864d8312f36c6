#!/usr/bin/env bash
# scripts/fuzz.sh HARNESS SECONDS
#
# Runs one libFuzzer harness of tests/fuzz for SECONDS: elf, plan (the parsers), resolution (a plan
# through resolution, summary and digest), option (--option), loader (load_plugins on a plugin file)
# or tables (a plugin's block of tables, checked, claimed and staged under its copy budget). It reads
# the committed corpus
# tests/fuzz/corpus/HARNESS/ and writes what it finds to a scratch corpus, with the harness's
# dictionary when it has one, and inputs up to the real limit of what the harness reads. The first
# run configures build-fuzz (clang-14, ASan+UBSan, -DFAMSPEC_FUZZ=ON); each run builds the harness.
# A crash or timeout stops the run and leaves its input in the artifact directory, printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: scripts/fuzz.sh HARNESS SECONDS (HARNESS: elf plan resolution option loader tables)"
harness=${1:?$usage}
seconds=${2:?$usage}
case $harness in
    elf | loader) max_len=$((2 << 20)) ;;               # a plugin file, far larger than a family's
    plan | resolution) max_len=$(((4 << 20) + 1)) ;;    # the 4 MiB plan limit, and one byte past it
    option) max_len=131072 ;;                           # MAX_ARG_STRLEN: the longest argument Linux passes
    tables) max_len=$((1 << 20)) ;;                     # a block of tables, far larger than a family's
    *) echo "fuzz.sh: unknown harness '$harness'; $usage" >&2; exit 2 ;;
esac
[[ $seconds =~ ^[0-9]+$ ]] || { echo "fuzz.sh: SECONDS must be a whole number; $usage" >&2; exit 2; }

build=${FAMSPEC_FUZZ_BUILD:-build-fuzz}
if [[ ! -f $build/CMakeCache.txt ]]; then
    CXX=clang++-14 cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFAMSPEC_FUZZ=ON \
        -DFAMSPEC_SANITIZE=ON -DFAMSPEC_PYTHON=OFF >/dev/null
fi
cmake --build "$build" -j"$(nproc)" --target "fuzz_$harness" | { grep -v -E '^\[ *[0-9]+%\] Building ' || true; }

work=${FAMSPEC_FUZZ_WORK:-/tmp/famspec-fuzz}/$harness
mkdir -p "$work/corpus" "$work/artifacts"
flags=(-max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
    -artifact_prefix="$work/artifacts/")
# A plan through resolution speaks the plan's words.
dict=tests/fuzz/$harness.dict
[[ $harness == resolution ]] && dict=tests/fuzz/plan.dict
[[ -f $dict ]] && flags+=(-dict="$dict")
status=0
# verify_asan_link_order: with the shared runtime (clang -shared-libsan), libstdc++ is loaded first.
ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0 "$build/bin/fuzz_$harness" "${flags[@]}" "$work/corpus" "tests/fuzz/corpus/$harness" ||
    status=$?
echo "fuzz.sh: $harness: new inputs in $work/corpus; crashes and timeouts in $work/artifacts:"
ls "$work/artifacts"
exit $status
