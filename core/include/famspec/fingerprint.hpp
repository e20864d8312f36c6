// What a plugin's tables depend on, as one line of `key=value` fields: the ABI, the table format, the
// word size and the byte order, which must equal the core's, and the compiler, which is only
// recorded. A plugin is plain integers, so neither the compiler nor its standard library, C++ ABI
// switches or sanitizers change what the core reads.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "famspec/sdk/export.hpp"

namespace famspec {

// "abi=5.0;format=2;word-bits=64;byte-order=little;compiler=gcc-12.2.0" for this core.
FAMSPEC_API std::string_view core_fingerprint();
FAMSPEC_API std::string_view core_version();

// The fingerprint of tables built for these, in the same form as the core's.
FAMSPEC_API std::string build_fingerprint(unsigned abi_major, unsigned abi_minor, std::uint32_t format,
                                          unsigned word_bits, bool big_endian, std::string_view compiler);

// One field's value ("compiler" gives "gcc-12.2.0"), or "" when the fingerprint has none.
FAMSPEC_API std::string fingerprint_field(std::string_view fingerprint, std::string_view key);

}  // namespace famspec
