#!/usr/bin/env bash
# The cp39 wheel on an older system: a Debian 11 root (glibc 2.31, its own Python 3.9; made once per
# machine by scripts/debian11-root.sh), where, inside a chroot, the wheel is pip installed offline
# into a venv and proof.py runs the famspec command, the drop-in and load_plugins.
#
#     bash tests/wheel/debian11/run.sh SOURCE_DIR WORK_DIR FAMSPEC
#
# FAMSPEC is the Debian build's famspec command: its `summary --digest` of the example plan, the digest
# scripts/run-example.sh prints, is the one the wheel must print. The wheel is built into WORK_DIR by
# scripts/build-wheels.sh (its build and compiler cache are kept there). Needs root: exits 77 (ctest's
# skip) without it.
set -euo pipefail
source_dir=$(realpath "$1")
work=$(realpath -m "$2")
famspec=$3
if ((EUID != 0)); then
    echo "debian11: needs root (debootstrap, chroot, mount): skipped"
    exit 77
fi
plan=examples/plans/qwen3_moe.yaml
expected_digest=$(cd "$source_dir" && "$famspec" summary --digest "$plan")

started=$SECONDS
bash "$source_dir/scripts/debian11-root.sh"
root=${FAMSPEC_DEBIAN11_ROOT:-/var/cache/famspec/debian11-root}
echo "debian11: root ready ($((SECONDS - started)) s)"

started=$SECONDS
(cd "$source_dir" && FAMSPEC_WHEEL_DIST="$work/dist" FAMSPEC_WHEEL_BUILD_DIR="$work/build-wheel" \
    bash scripts/build-wheels.sh 3.9)
wheels=("$work"/dist/famspec-*-cp39-cp39-manylinux_2_*_x86_64.whl)
((${#wheels[@]} == 1)) || { echo "debian11: expected one cp39 manylinux wheel in $work/dist, found ${wheels[*]}" >&2; exit 1; }
wheel=${wheels[0]}
echo "debian11: $(basename "$wheel") built ($((SECONDS - started)) s)"
# The shipped plugins, by name (famspec_<name>.so), as famspec list and load_plugins must report them.
mapfile -t plugins < <(python3 -c '
import re, sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
print("\n".join(sorted(m.group(1) for n in names
                       if (m := re.fullmatch(r"famspec/data/lib/famspec/plugins/famspec_(\w+)\.so", n)))))' "$wheel")
((${#plugins[@]} > 0)) || { echo "debian11: $wheel holds no plugin" >&2; exit 1; }

# One proof at a time in the root; its work directory is removed afterwards.
exec 9>"$root.lock"
flock 9
proof=$(mktemp -d "$root/tmp/famspec-proof.XXXXXX")
trap 'rm -rf "$proof"' EXIT
cp "$wheel" "$source_dir/tests/wheel/debian11/proof.py" "$source_dir/$plan" "$proof/"
inside=/tmp/$(basename "$proof")
started=$SECONDS
# A mount namespace of its own: /proc is mounted in the root for the chroot only, and gone with it.
unshare --mount --fork -- /bin/sh -c '
    mount -t proc proc "$1/proc" && shift && exec chroot "$@"' sh "$root" "$root" \
    /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 /bin/sh -euc '
        cd "$1"
        python3 -m venv venv
        venv/bin/pip install -q --no-index --disable-pip-version-check ./famspec-*.whl
        shift
        exec venv/bin/python proof.py "$@"' sh "$inside" "$expected_digest" "$(basename "$plan")" "${plugins[@]}"
echo "debian11: proof passed in the chroot ($((SECONDS - started)) s)"
