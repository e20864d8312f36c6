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
          # The wheel: the PEP 517 front end (`python3 -m build`) and the type checker of its stubs.
          python3-build python3-mypy)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed' || missing+=("$package")
done
if ((${#missing[@]})); then
    echo "installing: ${missing[*]}"
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
