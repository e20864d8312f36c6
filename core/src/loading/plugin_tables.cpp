#include "loading/plugin_tables.hpp"

#include <link.h>

#include <cstdint>

#include "discovery/plugin_refusal.hpp"
#include "registry/table_staging.hpp"

namespace famspec::detail {
namespace {

struct Span {
    std::uintptr_t begin = 0;
    std::uintptr_t end = 0;
    bool inside(std::uintptr_t at, std::size_t size) const { return at >= begin && at <= end && size <= end - at; }
};

// The loaded object that holds the descriptor, and its segments that are mapped without write access.
struct Search {
    std::uintptr_t descriptor = 0;
    bool found = false;
    std::vector<Span> read_only;
};

int visit(dl_phdr_info* info, std::size_t, void* data) {
    auto& search = *static_cast<Search*>(data);
    std::vector<Span> read_only;
    bool holds_descriptor = false;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& segment = info->dlpi_phdr[i];
        if (segment.p_type != PT_LOAD) continue;
        const Span span{info->dlpi_addr + segment.p_vaddr, info->dlpi_addr + segment.p_vaddr + segment.p_memsz};
        if (span.inside(search.descriptor, 1)) holds_descriptor = true;
        if ((segment.p_flags & PF_W) == 0) read_only.push_back(span);
    }
    if (!holds_descriptor) return 0;
    search.found = true;
    search.read_only = std::move(read_only);
    return 1;
}

// The block must be the plugin's own constant data: a pointer into another library, the heap or a
// writable page is refused before a byte of it is read past the header.
std::optional<std::string> misplaced(const PluginDescriptor& descriptor) {
    Search search{.descriptor = reinterpret_cast<std::uintptr_t>(&descriptor), .found = false, .read_only = {}};
    dl_iterate_phdr(visit, &search);
    if (!search.found) return "its descriptor lies in no loaded object";
    const auto at = reinterpret_cast<std::uintptr_t>(descriptor.tables);
    const auto holds = [&](std::size_t size) {
        for (const Span& span : search.read_only) {
            if (span.inside(at, size)) return true;
        }
        return false;
    };
    if (at % alignof(tables::TableHeader) != 0 || !holds(sizeof(tables::TableHeader))) {
        return "its tables do not lie in its own read-only segments";
    }
    if (!holds(descriptor.tables->byte_size)) {
        return "its tables (" + std::to_string(descriptor.tables->byte_size) +
               " bytes) run past its own read-only segments";
    }
    return std::nullopt;
}

}  // namespace

std::optional<PluginError> read_tables(const Candidate& candidate, const PluginDescriptor& descriptor,
                                       StagingRegistrar& registrar) {
    const std::string path = candidate.path.string();
    if (auto fault = misplaced(descriptor)) {
        return refusal(path, PluginStage::register_, "tables in the plugin's own read-only data", *fault,
                       "refused: " + *fault);
    }
    const tables::TableView view(*descriptor.tables);
    if (auto fault = view.check()) {
        return refusal(path, PluginStage::register_, "well-formed tables", *fault,
                       "refused: its tables cannot be read: " + *fault);
    }
    try {
        stage_tables(view, registrar);
    } catch (const std::exception& error) {
        // The core's own copy failing (memory), not the plugin: still reported at this plugin.
        return refusal(path, PluginStage::register_, "its tables copied", error.what(),
                       std::string("its tables could not be copied: ") + error.what());
    }
    if (!registrar.errors().empty()) {
        const std::string all = joined(registrar.errors());
        return refusal(path, PluginStage::register_, "valid, unique declarations", all,
                       "registration rejected: " + all);
    }
    return std::nullopt;
}

}  // namespace famspec::detail
