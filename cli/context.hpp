// What every command shares: where plugins are searched, how the answer and errors are written.
#pragma once

#include <boost/json/value.hpp>
#include <iosfwd>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "error_report.hpp"
#include "famspec/plugin_loader.hpp"
#include "famspec/read_selection.hpp"
#include "famspec/registry.hpp"
#include "famspec/search_path.hpp"

namespace famspec::cli {

// A usage error found while a command runs (an unusable --require-digests, say): the command
// stops, and famspec exits 2 with the message (see run_parsed in main.cpp).
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Exit codes shared by every command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;  // a plugin failed, a family is unknown, a target is not covered
inline constexpr int kExitUsage = 2;   // bad flags or bad input

struct Context {
    std::vector<std::string> plugin_paths;  // --plugin-path, in order
    bool json = false;
    bool quiet = false;                           // no notes or warnings on stderr; errors are still printed
    bool allow_partial = false;                   // --allow-partial: answer from the plugins that did load
    bool allow_insecure = false;                  // --allow-insecure-plugins (or FAMSPEC_ALLOW_INSECURE=1)
    std::optional<std::string> required_digests;  // --require-digests FILE (or FAMSPEC_REQUIRE_DIGESTS)

    SearchPath search_path() const;
    // The search path and the trust settings of the flags and the environment; warnings go to err.
    // A digest list that is given (flag or variable) but empty, a directory, unreadable or malformed
    // throws UsageError: a pin list that is given never means "no pins".
    LoadOptions load_options(std::ostream& err) const;
    // Reads every plugin, as an embedding runtime would, or with `selection` the rows of the plugins it
    // touches only (famspec/read_selection.hpp), and reports failures on stderr.
    std::shared_ptr<const Registry> load(std::ostream& err, const std::optional<ReadSelection>& selection = {}) const;
    // Whether `registry` may answer: every plugin loaded, or --allow-partial. Otherwise reports why.
    bool complete(const Registry& registry, std::ostream& out, std::ostream& err) const;
    // load(), or nullptr when a plugin or directory failed and --allow-partial was not given: an
    // answer from a broken set-up must never look valid (the caller exits 1; with --json the error
    // is the JSON on stdout).
    std::shared_ptr<const Registry> load_complete(std::ostream& out, std::ostream& err) const;

    // Reports the error (see CliError) and returns code.
    int fail(int code, const CliError& error, std::ostream& out, std::ostream& err) const;
    // A note or warning for people: stderr, unless --quiet.
    void note(std::ostream& err, const std::string& text) const;
    // Each plugin's notes (built differently without changing the ABI), as notes.
    void note_plugins(std::ostream& err, std::span<const PluginRecord> records) const;
};

std::string executable_path();

// Sorted, compact JSON followed by a newline.
void print_json(std::ostream& out, const boost::json::value& value);

// Left-aligned columns separated by two spaces, control characters escaped; the widest columns
// are shortened (ending in "...") until a row fits max_width characters (0: no limit).
void print_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows, std::size_t max_width = 0);

std::string join(const std::vector<std::string>& items, std::string_view separator);

}  // namespace famspec::cli
