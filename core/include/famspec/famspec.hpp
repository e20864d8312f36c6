// What a runtime that embeds famspec includes: loading, the registry, the resolver, plans, specs, errors
// and the log. What only some hosts read has a header of its own (docs/architecture.md lists them).
#pragma once

#include "famspec/log.hpp"
#include "famspec/plan.hpp"
#include "famspec/plugin_loader.hpp"
#include "famspec/plugin_record.hpp"
#include "famspec/registry.hpp"
#include "famspec/resolution.hpp"
#include "famspec/resolver.hpp"
#include "famspec/specs.hpp"
