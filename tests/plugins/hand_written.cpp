// A family whose spellings are computed rather than stated: the path an author takes when an answer
// must be derived. A plugin is data, so the compiler computes them: constexpr functions derive the
// architecture, the alias and the factory targets from the model_type into constant character
// arrays, and the declarations name those.
#include <array>
#include <cstddef>
#include <string_view>

#include "famspec/sdk/tables.hpp"

namespace {

constexpr std::string_view kModelType = "hand_written";

// A string made while compiling: its characters, as a constant the declarations can name.
struct Spelling {
    std::array<char, 96> chars{};
    std::size_t size = 0;

    constexpr Spelling& operator+=(char c) {
        chars[size++] = c;
        return *this;
    }
    constexpr Spelling& operator+=(std::string_view part) {
        for (const char c : part) *this += c;
        return *this;
    }
    constexpr std::string_view view() const { return {chars.data(), size}; }
};

// "hand_written" -> "HandWritten".
constexpr Spelling camel_case(std::string_view snake) {
    Spelling out;
    bool upper = true;
    for (const char c : snake) {
        if (c == '_') {
            upper = true;
            continue;
        }
        out += upper ? static_cast<char>(c - 'a' + 'A') : c;
        upper = false;
    }
    return out;
}

// "hand_written" -> "hand-written".
constexpr Spelling dashed(std::string_view snake) {
    Spelling out;
    for (const char c : snake) out += c == '_' ? '-' : c;
    return out;
}

// One factory per norm class, all alike: "RMSNorm" -> "hyper_parallel.models.<family>.adapter.
// replacements.replace_rmsnorm".
constexpr Spelling norm_target(std::string_view component) {
    Spelling out;
    out += "hyper_parallel.models.";
    out += kModelType;
    out += ".adapter.replacements.replace_";
    for (const char c : component) out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    return out;
}

constexpr Spelling kArchitecture = camel_case(kModelType) += "ForCausalLM";
constexpr Spelling kAlias = dashed(kModelType);
constexpr Spelling kRmsNormTarget = norm_target("RMSNorm");
constexpr Spelling kOffsetRmsNormTarget = norm_target("OffsetRMSNorm");

static_assert(kArchitecture.view() == "HandWrittenForCausalLM");
static_assert(kRmsNormTarget.view() == "hyper_parallel.models.hand_written.adapter.replacements.replace_rmsnorm");

}  // namespace

FAMSPEC_PLUGIN("hand_written", "1.0.0", "famspec test fixture: names computed at compile time",
               Plugin{.families = {{.model_type = kModelType,
                                    .architecture = kArchitecture.view(),
                                    .aliases = {kAlias.view()},
                                    .factories = {
                                        {.target = kRmsNormTarget.view(),
                                         .constructs = wraps("RMSNorm", "hyper_parallel.components.modules"),
                                         .arguments = {bind("module_fqn")}},
                                        {.target = kOffsetRmsNormTarget.view(),
                                         .constructs = wraps("OffsetRMSNorm", "hyper_parallel.components.modules"),
                                         .arguments = {bind("module_fqn")}},
                                    }}}});
