// One family with as many replacement factories as the compile definition FAMSPEC_FIXTURE_DECLARATIONS
// says (4 when unset): a plugin of many declarations, read and copied whole.
#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

#include "famspec/sdk/tables.hpp"

#ifndef FAMSPEC_FIXTURE_DECLARATIONS
#define FAMSPEC_FIXTURE_DECLARATIONS 4
#endif

namespace {

using namespace famspec::tables;

constexpr std::string_view kTargetPrefix = "hyper_parallel.models.many.adapter.replacements.replace_norm_";
// Its own component, so that it loads on its own (no catalogue plugin on the path).
constexpr std::string_view kModules = "hyper_parallel.models.many.modules";

// "<prefix><index>", made while compiling.
struct Target {
    std::array<char, kTargetPrefix.size() + 20> chars{};
    std::size_t size = 0;

    constexpr explicit Target(std::size_t index) {
        for (const char c : kTargetPrefix) chars[size++] = c;
        std::array<char, 20> digits{};
        std::size_t count = 0;
        do {
            digits[count++] = static_cast<char>('0' + index % 10);
            index /= 10;
        } while (index != 0);
        while (count != 0) chars[size++] = digits[--count];
    }
    constexpr std::string_view view() const { return {chars.data(), size}; }
};
template <std::size_t I>
constexpr Target kTarget{I};

// The declarations, one factory per index of the pack; compile() calls it with its two passes.
template <std::size_t... I>
constexpr auto declare(auto use, std::index_sequence<I...>) {
    return use(Identity{.name = "many_declarations",
                        .version = "1.0.0",
                        .description = "A family with a configurable number of factories"},
               Plugin{.families = {{.model_type = "many",
                                    .architecture = "ManyForCausalLM",
                                    .factories = {Factory{.target = kTarget<I>.view(),
                                                          .constructs = wraps("ManyNorm", kModules),
                                                          .arguments = {bind("module_fqn"), bind("context")}}...}}},
                      .components = {{.package = kModules,
                                      .components = {{.name = "ManyNorm",
                                                      .submodule = "norm",
                                                      .signature = {kw_only, param("module"), param("module_fqn", ""),
                                                                    param("context", famspec::none)}}}}}});
}

constexpr auto kTables =
    compile([](auto use) { return declare(use, std::make_index_sequence<FAMSPEC_FIXTURE_DECLARATIONS>{}); });

}  // namespace

FAMSPEC_PLUGIN_TABLES(kTables);
