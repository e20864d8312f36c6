// Key functions of the SDK interfaces: their vtables and typeinfo live in the core library, so a
// dynamic_cast or an exception type never depends on which plugin was loaded first.
#include "famspec/sdk/component.hpp"
#include "famspec/sdk/cp_wrapper.hpp"
#include "famspec/sdk/family_adapter.hpp"
#include "famspec/sdk/moe_archetype.hpp"
#include "famspec/sdk/registrar.hpp"
#include "famspec/sdk/replacement_factory.hpp"

namespace famspec {

FamilyAdapter::~FamilyAdapter() = default;
ReplacementFactory::~ReplacementFactory() = default;
MoeArchetype::~MoeArchetype() = default;
CpWrapper::~CpWrapper() = default;
Component::~Component() = default;
Registrar::~Registrar() = default;

}  // namespace famspec
