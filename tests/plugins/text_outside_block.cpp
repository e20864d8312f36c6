// Its block of tables names a string outside itself: the core must refuse the block whole when it
// reads it, before it follows a reference, and go on with the other plugins of the directory.
// The block is what a declaration compiles to, broken by hand after compile() (which writes only
// sound blocks).
#include "famspec/sdk/tables.hpp"

namespace {

constexpr auto kBlock = [] {
    auto tables = famspec::tables::compile([](auto use) {
        using namespace famspec::tables;
        return use(Plugin{
            .families = {{.model_type = "text_outside_block", .architecture = "text_outside_blockForCausalLM"}}});
    });
    // The architecture's characters now start where the block ends.
    tables.families[0].architecture.offset = tables.header.byte_size;
    return tables;
}();

}  // namespace

FAMSPEC_PLUGIN_DESCRIPTOR("text_outside_block", "1.0.0", "famspec test fixture", kBlock.header);
