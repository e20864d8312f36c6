// Canonical JSON: keys sorted byte-wise at every level, no whitespace, standard escapes, UTF-8.
// Equal values give equal bytes, which is what the summary digest relies on.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <string>
#include <string_view>

#include "famspec/digest.hpp"

namespace famspec {

// A JSON array of strings from any range of string-like values.
template <class Range>
boost::json::array string_array(const Range& items) {
    boost::json::array out;
    for (const auto& item : items) out.emplace_back(std::string_view(item));
    return out;
}

std::string canonical_json(const boost::json::value& value);

struct Diagnostic;
// A diagnostic as every JSON output writes it (summary, check, resolve --batch): kind, message and
// suggestion, null when there is none.
boost::json::object diagnostic_json(const Diagnostic& diagnostic);

}  // namespace famspec
