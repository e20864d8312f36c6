// A block of tables broken by hand after compile() (which writes only sound blocks), one way per
// fixture, chosen by a ZOO_* definition. The core must refuse each whole, at the stage the fixture's
// CMake comment names, before it follows the broken reference, and go on with the other plugins.
#include <string_view>

#include "famspec/sdk/tables.hpp"

#if !defined(ZOO_NAME)
#error "define ZOO_NAME"
#endif

namespace {

using namespace famspec::tables;

#if defined(ZOO_NOT_UTF8)
constexpr std::string_view kFamily = "not_utf8\xff";  // a byte that no UTF-8 text holds
#elif defined(ZOO_NUL_IN_FAMILY_KEY)
constexpr std::string_view kFamily("nul_in\0key", 10);
#else
constexpr std::string_view kFamily = ZOO_NAME;
#endif

constexpr auto kBlock = [] {
    auto tables = compile([](auto use) {
        return use(Identity{.name = ZOO_NAME, .version = "1.0.0", .description = "famspec test fixture"},
                   Plugin{.families = {{.model_type = kFamily,
                                        .architecture = "BrokenForCausalLM",
                                        .archetypes = {{.target_class = "BrokenMoeBlock",
                                                        .compute_factory = "hyper_parallel.models.broken.adapter."
                                                                           "distributed.broken_ep_compute_fn"}}}}});
    });
#if defined(ZOO_TEXT_OUTSIDE_BLOCK)
    // The architecture's characters now start where the block ends.
    tables.template rows<FamilyRow>()[0].architecture.offset = tables.header.byte_size;
#elif defined(ZOO_NAME_OUTSIDE_BLOCK)
    // The plugin's own name far past the end of the file.
    tables.header.name = {0x7fff0000U, 16};
#elif defined(ZOO_UNKNOWN_KIND)
    tables.template rows<ArchetypeRow>()[0].router = static_cast<MoeRouter>(99);
#elif defined(ZOO_BLOCK_PAST_SECTION)
    tables.header.byte_size += 4096;
#endif
    return tables;
}();

}  // namespace

FAMSPEC_PLUGIN_TABLES(kBlock);
