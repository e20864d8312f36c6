#!/bin/sh
# The size of a plugin's sections as data (FAMSPEC_PLUGIN): the bench's trivial family and the
# shipped plugins/qwen3, against an empty shared library, and what each costs resident once mapped:
# docs/design/plugin-tables.md (whose "builders" rows were measured with the register functions the
# plugins had before ABI 4.0). Each is compiled
# and linked as famspec_add_plugin does in a Release build.
#
#   bench/section_sizes.sh <build directory>     (after a build of the qwen3 plugin)
set -eu
source_dir=$(cd "$(dirname "$0")/.." && pwd)
build_dir=$(cd "${1:?usage: $0 <build directory>}" && pwd)
cxx=${CXX:-c++}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf '{\n  global: famspec_plugin_descriptor;\n  local: *;\n};\n' > "$work/exports"
sed 's/@BENCH_INDEX@/0/g' "$source_dir/bench/generated_table_family.cpp.in" > "$work/trivial_tables.cpp"
: > "$work/empty.cpp"
assets=$(printf '%s;' "$source_dir"/plugins/qwen3/python/*.py)
cmake "-DOUTPUT=$work/qwen3_assets.hpp" "-DASSETS=${assets%;}" -P "$source_dir/sdk/cmake/FamspecEmbedAssets.cmake"

build() {  # build <name> <source>
    "$cxx" -std=c++20 -O3 -DNDEBUG -fPIC -fvisibility=hidden -fvisibility-inlines-hidden \
        -I"$source_dir/sdk/include" -I"$build_dir/include" -I"$work" -c "$2" -o "$work/$1.o"
    "$cxx" -fPIC -O3 -shared -Wl,--no-undefined "-Wl,--version-script=$work/exports" -o "$work/$1.so" "$work/$1.o"
}
build empty "$work/empty.cpp"
build trivial_tables "$work/trivial_tables.cpp"
build qwen3_tables "$source_dir/plugins/qwen3/plugin.cpp"

section() {  # section <library> <name>: its size in bytes, 0 when absent
    size -A "$work/$1.so" | awk -v name="$2" '$1 == name { print $2; found = 1 } END { if (!found) print 0 }'
}
printf '%-18s %8s %8s %13s %9s %10s %8s\n' library .text .rodata .data.rel.ro .eh_frame .rela.dyn file
for library in empty trivial_tables qwen3_tables; do
    printf '%-18s %8s %8s %13s %9s %10s %8s\n' "$library" "$(section $library .text)" \
        "$(section $library .rodata)" "$(section $library .data.rel.ro)" "$(section $library .eh_frame)" \
        "$(section $library .rela.dyn)" "$(stat -c %s "$work/$library.so")"
done

# Resident memory per library: 100 copies dlopen'ed (RTLD_NOW | RTLD_LOCAL) into one process, VmRSS
# before and after; "read" also reads a table plugin's descriptor and every byte of its block, as the
# core will. Copies, so that the dynamic loader maps each anew.
cat > "$work/resident.cpp" <<'PROBE'
#include <dlfcn.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "famspec/sdk/tables.hpp"

static long resident_kb() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
    return -1;
}

int main(int argc, char** argv) {  // resident <library stem> <copies> [read]
    const int copies = std::atoi(argv[2]);
    unsigned long sum = 0;
    const long before = resident_kb();
    for (int i = 0; i < copies; ++i) {
        const std::string path = std::string(argv[1]) + "." + std::to_string(i) + ".so";
        void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) return std::fprintf(stderr, "%s\n", dlerror()), 1;
        if (argc > 3) {
            const auto* d = static_cast<const famspec::PluginDescriptor*>(dlsym(library, famspec::kEntrySymbol));
            const auto* block = reinterpret_cast<const unsigned char*>(d->tables);
            for (std::uint32_t at = 0; at < d->tables->byte_size; ++at) sum += block[at];
            for (const char* c = d->fingerprint; *c != 0; ++c) sum += static_cast<unsigned char>(*c);
        }
    }
    std::printf("%.1f\n", double(resident_kb() - before) / copies);
    return argc > 3 && sum == 0;  // the bytes were read, and are not all zero
}
PROBE
"$cxx" -std=c++20 -O2 -I"$source_dir/sdk/include" -I"$build_dir/include" "$work/resident.cpp" -o "$work/resident" -ldl
printf '\n%-18s %12s\n' library 'kB resident'
for library in empty trivial_tables; do
    for i in $(seq 0 99); do cp "$work/$library.so" "$work/$library.$i.so"; done
    printf '%-18s %12s\n' "$library" "$("$work/resident" "$work/$library" 100)"
done
printf '%-18s %12s\n' "trivial_tables read" "$("$work/resident" "$work/trivial_tables" 100 read)"
