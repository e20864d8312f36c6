// Symbols of the core library that plugins and embedders use. Everything else is hidden.
#pragma once
#define FAMSPEC_API __attribute__((visibility("default")))
