#!/usr/bin/env bash
# The glibc the famspec wheel is built against: Debian 11's (bullseye, glibc 2.31) libc6, libc6-dev,
# linux-libc-dev, libgcc-s1 and libcrypt, unpacked into a sysroot (cmake/FamspecWheelToolchain.cmake
# compiles and links the wheel with it, GCC 12 and its static libstdc++). A file linked there needs
# no GLIBC_ symbol version newer than 2.31; python/packaging/manylinux_tag.py then holds it to 2.28.
#
#     bash scripts/wheel-sysroot.sh [DIR]     # DIR: $FAMSPEC_SYSROOT, else /var/cache/famspec/sysroot-bullseye
#
# The packages come from Debian's archive through apt, with an apt configuration of their own (the
# system's sources and state are not touched), and are checked by apt against Debian's keyring.
# Idempotent: a complete sysroot (its stamp names the packages) is left as it is. Needs network the
# first time, not root (but the default DIR is writable by root only).
set -euo pipefail
sysroot=${1:-${FAMSPEC_SYSROOT:-/var/cache/famspec/sysroot-bullseye}}
packages=(libc6 libc6-dev linux-libc-dev libgcc-s1 libcrypt1 libcrypt-dev)
stamp="$sysroot/.famspec-sysroot"
if [[ -f "$stamp" && "$(cat "$stamp")" == "bullseye ${packages[*]}" ]]; then
    exit 0
fi
echo "wheel sysroot: fetching Debian 11's ${packages[*]} into $sysroot"
apt_dir="$sysroot.apt"
rm -rf "$sysroot" "$apt_dir"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/debs"
touch "$apt_dir/status"  # nothing installed: the packages are chosen from bullseye alone
cat >"$apt_dir/sources.list" <<'SOURCES'
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bullseye main
SOURCES
apt_options=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
             -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
             -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null
             -o "Dir::State::status=$apt_dir/status" -o APT::Sandbox::User=root -qq)
apt-get "${apt_options[@]}" update
(cd "$apt_dir/debs" && apt-get "${apt_options[@]}" download "${packages[@]}")
mkdir -p "$sysroot.partial"
for deb in "$apt_dir"/debs/*.deb; do
    dpkg-deb -x "$deb" "$sysroot.partial"
done
# Absolute symbolic links (libm.so -> /lib/x86_64-linux-gnu/libm.so.6) would reach this machine's
# glibc: each is made relative, inside the sysroot.
while IFS= read -r link; do
    target=$(readlink "$link")
    ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$sysroot.partial$target")" "$link"
done < <(find "$sysroot.partial" -type l -lname '/*')
echo "bullseye ${packages[*]}" >"$sysroot.partial/.famspec-sysroot"
mv "$sysroot.partial" "$sysroot"
rm -rf "$apt_dir"
echo "wheel sysroot: $(du -sh "$sysroot" | cut -f1) in $sysroot"
