// How a replacement takes the place of the source module's constructor call.
#pragma once

namespace famspec {
enum class ConstructionMode {
    name,         // New(original args): the source class is swapped by name and removed
    wrap_source,  // New(module=Old(original args), ...): the source instance is the wrapper input
};
}  // namespace famspec
