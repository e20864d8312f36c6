// What every command shares: where plugins are searched, and how output is written.
#pragma once

#include <boost/json/value.hpp>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "famspec/plugin_loader.hpp"
#include "famspec/registry.hpp"

namespace famspec::cli {

// Exit codes shared by every command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;  // a plugin failed, a family is unknown, a target is not covered
inline constexpr int kExitUsage = 2;   // bad flags or bad input

struct Context {
    std::vector<std::string> plugin_paths;  // --plugin-path, in order
    bool json = false;
    bool allow_partial = false;    // --allow-partial: answer from the plugins that did load
    bool allow_insecure = false;   // --allow-insecure-plugins (or FAMSPEC_ALLOW_INSECURE=1)
    std::string required_digests;  // --require-digests FILE (or FAMSPEC_REQUIRE_DIGESTS)

    SearchPath search_path() const;
    // The search path and the trust settings of the flags and the environment; warnings go to err.
    LoadOptions load_options(std::ostream& err) const;
    // Loads every plugin in-process, as an embedding runtime would, and reports failures on stderr.
    std::shared_ptr<const Registry> load(std::ostream& err) const;
    // load(), or nullptr when a plugin or directory failed and --allow-partial was not given: an
    // answer from a broken set-up must never look valid (the caller exits 1).
    std::shared_ptr<const Registry> load_complete(std::ostream& err) const;
};

std::string executable_path();
std::string_view origin_name(SearchPath::Origin origin);

// Sorted, compact JSON followed by a newline.
void print_json(std::ostream& out, const boost::json::value& value);

// Left-aligned columns separated by two spaces.
void print_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows);

std::string join(const std::vector<std::string>& items, std::string_view separator);

}  // namespace famspec::cli
