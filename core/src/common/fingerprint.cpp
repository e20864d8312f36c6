#include "famspec/fingerprint.hpp"

#include <bit>

#include "famspec/sdk/table_layout.hpp"
#include "famspec/sdk/version.hpp"

namespace famspec {

std::string build_fingerprint(unsigned abi_major, unsigned abi_minor, std::uint32_t format, unsigned word_bits,
                              bool big_endian, std::string_view compiler) {
    return "abi=" + std::to_string(abi_major) + "." + std::to_string(abi_minor) + ";format=" + std::to_string(format) +
           ";word-bits=" + std::to_string(word_bits) + ";byte-order=" + (big_endian ? "big" : "little") +
           ";compiler=" + std::string(compiler);
}

// Compiled into the core: the other side of every plugin comparison.
std::string_view core_fingerprint() {
    static const std::string fingerprint =
        build_fingerprint(kAbiMajor, kAbiMinor, tables::kTableFormat, tables::kWordBits,
                          std::endian::native == std::endian::big, FAMSPEC_COMPILER);
    return fingerprint;
}

std::string_view core_version() { return FAMSPEC_VERSION_STRING; }

std::string fingerprint_field(std::string_view fingerprint, std::string_view key) {
    while (!fingerprint.empty()) {
        const std::size_t end = fingerprint.find(';');
        const std::string_view field = fingerprint.substr(0, end);
        const std::size_t equals = field.find('=');
        if (equals != std::string_view::npos && field.substr(0, equals) == key) {
            return std::string(field.substr(equals + 1));
        }
        if (end == std::string_view::npos) break;
        fingerprint.remove_prefix(end + 1);
    }
    return {};
}

}  // namespace famspec
