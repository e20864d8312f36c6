// A fixture's build fingerprint with some fields claimed: the fields a fixture defines as
// ZOO_CLAIM_<FIELD> replace the build's own; the others are what the SDK computes. Without any claim
// the SDK's fingerprint stands.
#pragma once

#include "famspec/sdk/abi.hpp"

#if defined(ZOO_CLAIM_STDLIB_RELEASE) || defined(ZOO_CLAIM_COMPILER) || defined(ZOO_CLAIM_ASSERTIONS) || \
    defined(ZOO_CLAIM_FAMSPEC)
#ifndef ZOO_CLAIM_STDLIB_RELEASE
#define ZOO_CLAIM_STDLIB_RELEASE FAMSPEC_FP_STDLIB_RELEASE
#endif
#ifndef ZOO_CLAIM_COMPILER
#define ZOO_CLAIM_COMPILER FAMSPEC_FP_COMPILER
#endif
#ifndef ZOO_CLAIM_ASSERTIONS
#define ZOO_CLAIM_ASSERTIONS FAMSPEC_FP_ASSERTIONS
#endif
#ifndef ZOO_CLAIM_FAMSPEC
#define ZOO_CLAIM_FAMSPEC FAMSPEC_STRINGIFY(FAMSPEC_VERSION_MAJOR)
#endif
#define FAMSPEC_PLUGIN_FINGERPRINT                                                                             \
    "stdlib=" FAMSPEC_FP_STDLIB ";stdlib-release=" ZOO_CLAIM_STDLIB_RELEASE ";cxx11-abi=" FAMSPEC_FP_CXX11_ABI \
    ";debug-containers=" FAMSPEC_FP_DEBUG_CONTAINERS ";asan=" FAMSPEC_FP_ASAN ";tsan=" FAMSPEC_FP_TSAN         \
    ";famspec=" ZOO_CLAIM_FAMSPEC ";compiler=" ZOO_CLAIM_COMPILER ";assertions=" ZOO_CLAIM_ASSERTIONS
#endif
