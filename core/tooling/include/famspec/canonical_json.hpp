// Canonical JSON: keys sorted byte-wise at every level, no whitespace, standard escapes, UTF-8.
// Equal values give equal bytes, which is what the summary digest relies on.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <string>
#include <string_view>

#include "famspec/sdk/export.hpp"

namespace famspec {

// A JSON array of strings from any range of string-like values.
template <class Range>
boost::json::array string_array(const Range& items) {
    boost::json::array out;
    for (const auto& item : items) out.emplace_back(std::string_view(item));
    return out;
}

FAMSPEC_API std::string canonical_json(const boost::json::value& value);

struct Diagnostic;
// A diagnostic as every JSON output writes it (summary, check, resolve --batch): kind, message and
// suggestion, null when there is none.
FAMSPEC_API boost::json::object diagnostic_json(const Diagnostic& diagnostic);

// "sha256:<64 lower-case hex>" over the bytes.
FAMSPEC_API std::string sha256_digest(std::string_view bytes);

}  // namespace famspec
