#include "plan/plan_encoding.hpp"

#include <array>

namespace famspec::detail {
namespace {

struct Wide {
    std::string_view bom;  // empty: recognised by where its NUL bytes are
    std::string_view name;
    std::string_view bytes;  // the byte-order mark as a person reads it
};

// UTF-32 first: its little-endian mark starts with UTF-16's.
constexpr std::array<Wide, 4> kMarks = {{
    {std::string_view("\x00\x00\xFE\xFF", 4), "UTF-32BE", "00 00 FE FF"},
    {std::string_view("\xFF\xFE\x00\x00", 4), "UTF-32LE", "FF FE 00 00"},
    {"\xFE\xFF", "UTF-16BE", "FE FF"},
    {"\xFF\xFE", "UTF-16LE", "FF FE"},
}};

std::string convert(std::string_view name) {
    return "famspec reads plans as UTF-8, as the training runtime reads its config: convert the file, for example "
           "with iconv -f " +
           std::string(name) + " -t UTF-8";
}

// Without a mark: the pattern of NUL bytes in the first four (YAML 1.2, section 5.2).
std::string_view unmarked(std::string_view text) {
    const auto nul = [&text](std::size_t i) { return i < text.size() && text[i] == '\0'; };
    const auto set = [&text](std::size_t i) { return i < text.size() && text[i] != '\0'; };
    if (nul(0) && nul(1) && nul(2) && set(3)) return "UTF-32BE";
    if (set(0) && nul(1) && nul(2) && nul(3)) return "UTF-32LE";
    if (nul(0) && set(1)) return "UTF-16BE";
    if (set(0) && nul(1)) return "UTF-16LE";
    return {};
}

}  // namespace

std::string wide_encoding(std::string_view text) {
    for (const Wide& mark : kMarks) {
        if (text.starts_with(mark.bom)) {
            return "the plan is " + std::string(mark.name) + " text (it starts with the byte-order mark " +
                   std::string(mark.bytes) + "); " + convert(mark.name);
        }
    }
    if (const std::string_view name = unmarked(text); !name.empty()) {
        return "the plan looks like " + std::string(name) +
               " text without a byte-order mark (NUL bytes around its first character); " + convert(name);
    }
    return {};
}

std::string_view without_utf8_bom(std::string_view text) {
    return text.starts_with("\xEF\xBB\xBF") ? text.substr(3) : text;
}

}  // namespace famspec::detail
