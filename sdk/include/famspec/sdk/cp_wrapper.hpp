// A context-parallel attention wrapper a family ships for the inner_wrapper slot.
#pragma once

#include <span>
#include <string_view>

#include "famspec/sdk/export.hpp"
#include "famspec/sdk/parameter.hpp"

namespace famspec {

class FAMSPEC_API CpWrapper {
public:
    virtual ~CpWrapper();

    virtual std::string_view family() const = 0;
    virtual std::string_view target() const = 0;  // full dotted _target_ path
    virtual std::span<const Parameter> options() const = 0;
};

}  // namespace famspec
