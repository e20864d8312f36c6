// The JSON form of the specs, with exactly the reference's field names.
#pragma once

#include <boost/json/value.hpp>

#include "famspec/specs.hpp"

namespace famspec::detail {

boost::json::value to_json(const ReplacementSpec& spec);
boost::json::value to_json(const StrategySpec& spec);

}  // namespace famspec::detail
