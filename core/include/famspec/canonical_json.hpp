// Canonical JSON: keys sorted byte-wise at every level, no whitespace, standard escapes, UTF-8.
// Equal values give equal bytes, which is what the summary digest relies on.
#pragma once

#include <boost/json/value.hpp>
#include <string>
#include <string_view>

#include "famspec/sdk/export.hpp"

namespace famspec {

FAMSPEC_API std::string canonical_json(const boost::json::value& value);

// "sha256:<64 lower-case hex>" over the bytes.
FAMSPEC_API std::string sha256_digest(std::string_view bytes);

}  // namespace famspec
