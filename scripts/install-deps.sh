#!/usr/bin/env bash
# Installs, as root, the Debian 12 packages famspec needs to build and test. Idempotent: it only
# calls apt when a package is missing.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
# Versioned Boost 1.81 names: the plain libboost-*-dev packages are 1.74 and conflict with them.
# python3-yaml (PyYAML, the runtime's YAML loader) is for the test that compares famspec's reading
# of merge keys with it.
packages=(g++ clang cmake make pkg-config binutils python3 clang-format
          libboost1.81-dev libboost-json1.81-dev libyaml-cpp-dev doctest-dev libcli11-dev nettle-dev
          python3-dev pybind11-dev python3-pytest python3-torch python3-yaml
          # The wheel: the PEP 517 front end (`python3 -m build`), the type checker of its stubs,
          # patchelf (scikit-build-core's wheel repair step looks for it), exceptiongroup (which
          # scikit-build-core imports under CPython 3.9 and 3.10), ccache (scripts/build-wheels.sh
          # compiles the C++ shared by the five wheels once) and debootstrap (the Debian 11 root of
          # tests/wheel/debian11).
          python3-build python3-mypy patchelf python3-exceptiongroup ccache debootstrap)
# The wheel's build backend, scikit-build-core, is in bookworm-backports (0.11), not in bookworm.
backports=(python3-scikit-build-core)
backports_sources=/etc/apt/sources.list.d/bookworm-backports.sources
missing() {
    local package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed' || echo "$package"
    done
}
mapfile -t missing_packages < <(missing "${packages[@]}")
mapfile -t missing_backports < <(missing "${backports[@]}")
if ((${#missing_backports[@]})) && ! grep -qsr 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d; then
    # As https://backports.debian.org/Instructions/ says: the suite, on the same mirror. Packages
    # come from it only when asked for with -t bookworm-backports.
    echo "enabling bookworm-backports ($backports_sources)"
    cat >"$backports_sources" <<'SOURCES'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
fi
if ((${#missing_packages[@]} + ${#missing_backports[@]})); then
    apt-get update -qq
fi
if ((${#missing_packages[@]})); then
    echo "installing: ${missing_packages[*]}"
    apt-get install -y -qq --no-install-recommends "${missing_packages[@]}" >/dev/null
fi
if ((${#missing_backports[@]})); then
    echo "installing from bookworm-backports: ${missing_backports[*]}"
    apt-get install -y -qq --no-install-recommends -t bookworm-backports "${missing_backports[@]}" >/dev/null
fi
# The glibc 2.31 sysroot the wheel is built against (cmake/FamspecWheelToolchain.cmake): once.
bash "$(dirname "$0")/wheel-sysroot.sh"
