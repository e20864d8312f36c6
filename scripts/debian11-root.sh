#!/usr/bin/env bash
# A Debian 11 (bullseye, glibc 2.31, Python 3.9) root for the wheel's proof on an older system
# (tests/wheel/debian11): debootstrap's minimal variant from Debian's archive, with python3-venv.
#
#     bash scripts/debian11-root.sh [DIR]    # DIR: $FAMSPEC_DEBIAN11_ROOT, else /var/cache/famspec/debian11-root
#
# As root (debootstrap and chroot need it). Made once per machine (about 4 minutes and 45 MB of
# packages) and kept: a root whose stamp names the same suite and packages is left as it is. The
# proof works in a directory of its own under the root's /tmp and removes it, so the root stays as made.
set -euo pipefail
root=${1:-${FAMSPEC_DEBIAN11_ROOT:-/var/cache/famspec/debian11-root}}
include=python3-venv
stamp="$root/.famspec-root"
if [[ -f "$stamp" && "$(cat "$stamp")" == "bullseye minbase $include" ]]; then
    exit 0
fi
if ! command -v debootstrap >/dev/null; then
    apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
fi
echo "debian11 root: debootstrap bullseye into $root (once per machine)"
rm -rf "$root" "$root.partial"
mkdir -p "$(dirname "$root")"
debootstrap --variant=minbase --include="$include" bullseye "$root.partial" http://deb.debian.org/debian \
    >"$root.log" 2>&1 || { tail -n 20 "$root.log" >&2; exit 1; }
rm -rf "$root.partial"/var/cache/apt/archives/*.deb
echo "bullseye minbase $include" >"$root.partial/.famspec-root"
mv "$root.partial" "$root"
echo "debian11 root: $(du -sh "$root" | cut -f1) in $root"
