// Which text encoding a plan is in. The training runtime opens its config as UTF-8 text before its
// YAML loader reads it, so famspec reads UTF-8 too; a plan in UTF-16 or UTF-32 would be a file the
// runtime cannot read, and is refused with a message that names its encoding.
#pragma once

#include <string>
#include <string_view>

namespace famspec::detail {

// Why `text` is UTF-16 or UTF-32 rather than UTF-8 (from its byte-order mark, or without one from
// the NUL bytes around its first character, as YAML's own detection goes); empty for anything else.
std::string wide_encoding(std::string_view text);

// `text` without a leading UTF-8 byte-order mark, which the runtime's loader skips as well.
std::string_view without_utf8_bom(std::string_view text);

}  // namespace famspec::detail
