// Everything a runtime that embeds famspec includes. A host that renders components its own way adds
// famspec/component_renderer.hpp; famspec/names.hpp gives every enum value its printed name.
#pragma once

#include "famspec/log.hpp"
#include "famspec/plan.hpp"
#include "famspec/plugin_error.hpp"
#include "famspec/plugin_loader.hpp"
#include "famspec/registry.hpp"
#include "famspec/resolution.hpp"
#include "famspec/resolver.hpp"
#include "famspec/specs.hpp"
