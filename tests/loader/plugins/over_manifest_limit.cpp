// A plugin whose manifest would be over the loader's limit of 1 MiB: famspec-manifest must refuse to
// write it. Made from a block that stays small, because the table form writes each string where it
// is named and the compiler's constant evaluation costs kilobytes per character: the first factory's
// target ends in 1500 'a's, and the others' targets are its prefixes, which share its characters
// (replace_a, replace_aa, ...), so that 1500 targets add up to more than 1 MiB of manifest.
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
    return use(Plugin{
        .families = {{.model_type = "many",
                      .architecture = "ManyForCausalLM",
                      .factories = {Factory{.target = I == 0 ? std::string_view(kLongest.data(), kLongest.size()) : "",
                                            .runtime_only = "r"}...}}}});
}

constexpr auto kBlock = [] {
    auto tables = compile([](auto use) { return declare(use, std::make_index_sequence<kFactories>{}); });
    const Text longest = tables.factories[0].target;
    for (std::size_t i = 0; i < kFactories; ++i) {
        tables.factories[i].target = {longest.offset, static_cast<std::uint32_t>(kPrefix.size() + i + 1)};
    }
    return tables;
}();

}  // namespace

FAMSPEC_PLUGIN_DESCRIPTOR("over_manifest_limit", "1.0.0", "famspec test fixture", kBlock.header);
