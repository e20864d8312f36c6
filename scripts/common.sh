# Shared by the scripts in this directory (sourced, not run).

# build DIR [ARGS...]: builds DIR (or only `--target T...`) with every core, showing one line per
# finished target (and every compiler message), so a long build is never silent. Fails when the build fails.
build() {
    cmake --build "$1" -j"$(nproc)" "${@:2}" | { grep -v -E '^\[ *[0-9]+%\] Building ' || true; }
}
