#include "loading/loaded_segments.hpp"

#include <link.h>

namespace famspec::detail {

LoadedSegments LoadedSegments::now() {
    LoadedSegments taken;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* data) {
            Object& object = static_cast<LoadedSegments*>(data)->objects_.emplace_back();
            for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
                const ElfW(Phdr)& segment = info->dlpi_phdr[i];
                if (segment.p_type != PT_LOAD) continue;
                const Span span{info->dlpi_addr + segment.p_vaddr, info->dlpi_addr + segment.p_vaddr + segment.p_memsz};
                object.segments.push_back(span);
                if ((segment.p_flags & PF_W) == 0) object.read_only.push_back(span);
            }
            return 0;
        },
        &taken);
    return taken;
}

bool LoadedSegments::read_only_of(const void* owner, const void* at, std::size_t size) const {
    const auto owner_at = reinterpret_cast<std::uintptr_t>(owner);
    const auto block_at = reinterpret_cast<std::uintptr_t>(at);
    for (const Object& object : objects_) {
        bool owns = false;
        for (const Span& span : object.segments) owns = owns || span.holds(owner_at, 1);
        if (!owns) continue;
        for (const Span& span : object.read_only) {
            if (span.holds(block_at, size)) return true;
        }
        return false;
    }
    return false;
}

}  // namespace famspec::detail
