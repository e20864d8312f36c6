// The five interfaces the core asks, each documented in its own header: what a registry entry is.
#pragma once

#include "famspec/sdk/component.hpp"
#include "famspec/sdk/cp_wrapper.hpp"
#include "famspec/sdk/family_adapter.hpp"
#include "famspec/sdk/moe_archetype.hpp"
#include "famspec/sdk/replacement_factory.hpp"
