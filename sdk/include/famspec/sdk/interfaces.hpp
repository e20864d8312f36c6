// The five interfaces the core asks, each in its own header: what a registry entry is.
//
// The contract every one of them keeps, said here once:
//   - Registration (the core copying a plugin's tables, on the thread that called load_plugins, under
//     the process-wide loader lock): the core reads every member once, to check the declaration and
//     to compare it with the plugin's manifest.
//   - After the registry is frozen: any thread, concurrently and without a lock, may call any member.
//   - An implementation answers the same way every time (the core caches what it derives), does not
//     throw, block, print or call back into famspec, and keeps every view and pointer it returns valid
//     for as long as the object lives.
// Each header says what the core checks at registration and when it asks afterwards.
#pragma once

#include "famspec/sdk/component.hpp"
#include "famspec/sdk/cp_wrapper.hpp"
#include "famspec/sdk/family_adapter.hpp"
#include "famspec/sdk/moe_archetype.hpp"
#include "famspec/sdk/replacement_factory.hpp"
