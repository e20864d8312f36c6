// Rows that share one large string: 1500 factories whose targets all name the same 1,560 characters,
// in a block of about 110 kB. Copying them would take more than 2 MB, over the core's bound of 8 times
// the block, so the plugin is refused whole before its copies are made. (A real block writes each
// string where it is named; here the rows are pointed at the first one by hand after compile().)
#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

#include "famspec/sdk/tables.hpp"

namespace {

using namespace famspec::tables;

constexpr std::size_t kFactories = 1500;
constexpr std::string_view kPrefix = "hyper_parallel.models.many.adapter.replacements.replace_";

constexpr auto kLongest = [] {
    std::array<char, kPrefix.size() + kFactories> chars{};
    std::size_t size = 0;
    for (const char c : kPrefix) chars[size++] = c;
    while (size < chars.size()) chars[size++] = 'a';
    return chars;
}();

template <std::size_t... I>
constexpr auto declare(auto use, std::index_sequence<I...>) {
    // The targets are set below; until then only the first is whole.
    return use(Identity{.name = "shared_large_string", .version = "1.0.0", .description = "famspec test fixture"},
               Plugin{.families = {{.model_type = "many",
                                    .architecture = "ManyForCausalLM",
                                    .factories = {Factory{
                                        .target = I == 0 ? std::string_view(kLongest.data(), kLongest.size()) : "",
                                        .runtime_only = "r"}...}}}});
}

constexpr auto kBlock = [] {
    auto tables = compile([](auto use) { return declare(use, std::make_index_sequence<kFactories>{}); });
    auto& factories = tables.template rows<FactoryRow>();
    for (auto& factory : factories) factory.target = factories[0].target;
    return tables;
}();

}  // namespace

FAMSPEC_PLUGIN_TABLES(kBlock);
