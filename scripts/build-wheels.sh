#!/usr/bin/env bash
# The famspec wheels for CPython 3.9 to 3.13, tagged manylinux_2_28_x86_64, into dist/:
#
#     bash scripts/build-wheels.sh            # all five
#     bash scripts/build-wheels.sh 3.9 3.12   # some
#
# Each wheel is built offline by its own interpreter (python3.X from the image's pyenv builds, else
# from PATH) running Debian's build backend: scikit-build-core and what it imports (packaging,
# pathspec, tomli, exceptiongroup) are put on its path from /usr/lib/python3/dist-packages, nothing
# else of Debian's. The C++ that does not depend on the interpreter (the core, the command, the
# plugins) is compiled once: every build goes through ccache, with a cache of its own
# (build-wheel/ccache), so the second to fifth wheels compile only the extension. Each wheel is then
# checked and tagged by python/packaging/manylinux_tag.py. Needs scripts/install-deps.sh (as root) first.
# FAMSPEC_WHEEL_DIST (default dist) and FAMSPEC_WHEEL_BUILD_DIR (default build-wheel) place the wheels
# and the builds elsewhere (tests/wheel/debian11 does).
set -euo pipefail
cd "$(dirname "$0")/.."
versions=("$@")
((${#versions[@]})) || versions=(3.9 3.10 3.11 3.12 3.13)
bash scripts/wheel-sysroot.sh

# python3.X: the newest pyenv build of it, else the one on PATH.
interpreter() {
    local found
    found=$(ls -d /root/.pyenv/versions/"$1".*/bin/python"$1" 2>/dev/null | sort -V | tail -n 1 || true)
    [[ -n "$found" ]] || found=$(command -v "python$1" || true)
    [[ -n "$found" ]] || { echo "build-wheels: no python$1 (neither in /root/.pyenv/versions nor on PATH)" >&2; exit 1; }
    echo "$found"
}

# Debian's build backend, and only it, for interpreters that see none of Debian's packages.
dist=${FAMSPEC_WHEEL_DIST:-dist}
build_root=$(realpath -m "${FAMSPEC_WHEEL_BUILD_DIR:-build-wheel}")
tools=$build_root/build-backend
mkdir -p "$tools"
for package in scikit_build_core packaging pathspec tomli exceptiongroup; do
    for path in /usr/lib/python3/dist-packages/"$package" /usr/lib/python3/dist-packages/"$package"-*.dist-info; do
        [[ -e "$path" ]] || { echo "build-wheels: $path missing: run scripts/install-deps.sh as root" >&2; exit 1; }
        ln -sfn "$path" "$tools/"
    done
done

export CCACHE_DIR=${CCACHE_DIR:-$build_root/ccache} CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true
export CMAKE_ARGS="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache ${CMAKE_ARGS:-}"
mkdir -p "$dist"
for version in "${versions[@]}"; do
    python=$(interpreter "$version")
    tag="cp${version/./}"
    started=$SECONDS
    echo "== $tag: $python"
    rm -f "$dist"/famspec-*-"$tag"-"$tag"-*.whl
    PYTHONPATH="$tools" nice "$python" -m pip wheel -q --no-build-isolation --no-deps --no-index -w "$dist" \
        --config-settings=build-dir="$build_root/{wheel_tag}" .
    tagged=$(python3 python/packaging/manylinux_tag.py "$dist"/famspec-*-"$tag"-"$tag"-linux_x86_64.whl)
    echo "== $tag: $tagged ($(du -k "$tagged" | cut -f1) KiB, $((SECONDS - started)) s)"
done
ccache --show-stats | grep -E 'Hits|Misses' || true
