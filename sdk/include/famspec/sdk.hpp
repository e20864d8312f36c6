// Everything a family author includes.
#pragma once

#include "famspec/sdk/abi.hpp"
#include "famspec/sdk/component.hpp"
#include "famspec/sdk/construction.hpp"
#include "famspec/sdk/construction_mode.hpp"
#include "famspec/sdk/cp_wrapper.hpp"
#include "famspec/sdk/default_value.hpp"
#include "famspec/sdk/family_adapter.hpp"
#include "famspec/sdk/interfaces.hpp"
#include "famspec/sdk/moe_archetype.hpp"
#include "famspec/sdk/moe_vocabulary.hpp"
#include "famspec/sdk/parameter.hpp"
#include "famspec/sdk/py_literal.hpp"
#include "famspec/sdk/replacement_factory.hpp"
#include "famspec/sdk/source_block.hpp"
#include "famspec/sdk/tables.hpp"
