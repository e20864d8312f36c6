// How list and verify report plugin records: one JSON object per record, or a table that fits
// 100 columns followed by each failure's reason.
#pragma once

#include <boost/json.hpp>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "context.hpp"

namespace famspec::cli {

std::vector<std::string> family_names(const PluginRecord& record);
std::string abi_of(const PluginRecord& record);

boost::json::object search_json(const SearchPath& search);
// Extra fields (crash signal) are merged in by verify.
boost::json::object record_json(const PluginRecord& record, std::string_view status);

// The search path, as a note on stderr.
void print_search(const Context& context, std::ostream& err, const SearchPath& search);

// relative_to: show each path relative to the search directory that holds it and fit the table to
// 100 columns; nullptr (--long): full paths, nothing shortened.
void print_records(std::ostream& out, std::span<const PluginRecord> records, const std::vector<std::string>& statuses,
                   const SearchPath* relative_to);

}  // namespace famspec::cli
