#include "escape.hpp"

namespace famspec::cli {
namespace {

std::string escaped(std::string_view text, bool keep_lines, bool foreign = false) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        const bool control = byte < 0x20 || byte == 0x7f || (foreign && byte >= 0x80);
        if (!control || (keep_lines && (c == '\n' || c == '\t'))) {
            out += c;
            continue;
        }
        out += "\\x";
        out += kHex[byte >> 4];
        out += kHex[byte & 0xf];
    }
    return out;
}

}  // namespace

std::string escape_control(std::string_view text) { return escaped(text, false); }
std::string escape_control_keep_lines(std::string_view text) { return escaped(text, true); }
std::string escape_foreign(std::string_view text) { return escaped(text, false, true); }
std::string escape_foreign_keep_lines(std::string_view text) { return escaped(text, true, true); }

}  // namespace famspec::cli
