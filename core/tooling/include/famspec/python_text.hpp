// The Python source text the core writes into specs: literals, and the expert-parallel forward body.
#pragma once

#include <string>

#include "famspec/moe_vocabulary.hpp"
#include "famspec/py_literal.hpp"

namespace famspec {

// A Python literal as Python's repr() writes it: None, True, 1e-05, 'text'.
std::string to_python(const PyLiteral& literal);

// The inline expert-parallel forward body for an archetype's router_kind and shared mode.
std::string moe_ep_forward_body(MoeRouter router_kind, SharedExperts shared);

}  // namespace famspec
