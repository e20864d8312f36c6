// Included first in every file of the wheel's build (cmake/FamspecWheel.cmake): the declarations the
// sources use from glibc newer than the 2.31 they are compiled against; famspec_wheel_glibc.cpp defines them.
#pragma once

#include <features.h>

#if __GLIBC__ == 2 && __GLIBC_MINOR__ < 32
#ifdef __cplusplus
extern "C" {
#endif
// glibc 2.32: "TERM" for SIGTERM, or null.
const char* sigabbrev_np(int signal);
#ifdef __cplusplus
}
#endif
#endif
