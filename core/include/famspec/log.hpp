// The core never prints: it reports through an optional callback the host installs.
#pragma once

#include <functional>
#include <string_view>

namespace famspec {

enum class LogLevel { debug, info, warning, error };

using LogCallback = std::function<void(LogLevel, std::string_view)>;

}  // namespace famspec
