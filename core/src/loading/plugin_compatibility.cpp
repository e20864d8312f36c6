#include "loading/plugin_compatibility.hpp"

#include <bit>
#include <cstring>

#include "discovery/plugin_refusal.hpp"
#include "famspec/fingerprint.hpp"
#include "famspec/sdk/table_layout.hpp"

namespace famspec::detail {
namespace {

using tables::TableHeader;

std::string order_name(bool big_endian) { return big_endian ? "big-endian" : "little-endian"; }

std::string machine_side(std::uint16_t machine, unsigned elf_class, bool big_endian) {
    return machine_name(machine) + ", ELF" + std::to_string(elf_class) + ", " + order_name(big_endian);
}

std::string abi_side(unsigned major, unsigned minor) {
    return "ABI " + std::to_string(major) + "." + std::to_string(minor);
}

PluginError refused(const Candidate& candidate, std::string core, std::string plugin, const std::string& why,
                    const std::string& remedy) {
    return refusal(candidate.path.string(), PluginStage::compatibility, core, plugin,
                   why + "; the plugin is " + plugin + "; this core is " + core + "; " + remedy);
}

// The fixed prefix every ABI's header starts with.
struct Prefix {
    std::uint64_t magic = 0;
    std::uint16_t abi_major = 0;
    std::uint16_t abi_minor = 0;
    std::uint32_t header_size = 0;
};

}  // namespace

std::optional<PluginError> check_compatibility(const Candidate& candidate) {
    const ElfInfo& elf = candidate.elf;
    const bool host_big = std::endian::native == std::endian::big;
    if (elf.machine != host_machine() || elf.elf_class != tables::kWordBits || elf.big_endian != host_big) {
        return refused(candidate, machine_side(host_machine(), tables::kWordBits, host_big),
                       machine_side(elf.machine, elf.elf_class, elf.big_endian), "built for another machine",
                       "rebuild it on this one");
    }
    const TableSection& block = *elf.tables;
    Prefix prefix;
    std::memcpy(&prefix, block.data(), sizeof prefix);  // the manifest stage saw at least this much
    if (prefix.magic != kPluginMagic) {
        return refusal(candidate.path.string(), PluginStage::compatibility, "famspec's table magic", "other bytes",
                       std::string("its ") + kTableSection +
                           " section does not begin with famspec's table magic: not a famspec plugin");
    }
    const std::string core = abi_side(kAbiMajor, kAbiMinor) + ", " + std::string(core_fingerprint());
    const std::string plugin = abi_side(prefix.abi_major, prefix.abi_minor);
    const std::string rebuild = "rebuild it against famspec " + std::string(core_version());
    if (prefix.abi_major != kAbiMajor) {
        return refused(candidate, core, plugin, "has ABI major " + std::to_string(prefix.abi_major), rebuild);
    }
    if (prefix.abi_minor > kAbiMinor) {
        return refused(
            candidate, core, plugin, "needs a newer core (ABI minor " + std::to_string(prefix.abi_minor) + ")",
            "use a famspec of ABI " + std::to_string(kAbiMajor) + "." + std::to_string(prefix.abi_minor) + " or newer");
    }
    // Every minor of this major has at least ABI 5.0's header; the fields read here are all in it.
    if (block.size < tables::kHeaderSizeAbi50) {
        return refused(candidate, core, plugin,
                       "has a table header of " + std::to_string(block.size) + " bytes, shorter than this ABI's " +
                           std::to_string(tables::kHeaderSizeAbi50),
                       rebuild);
    }
    TableHeader header;
    std::memcpy(static_cast<void*>(&header), block.data(), tables::kHeaderSizeAbi50);
    const std::string built = build_fingerprint(header.abi_major, header.abi_minor, header.format, header.word_bits,
                                                header.byte_order != tables::kByteOrderMark ? !host_big : host_big, "");
    const std::string plugin_side = abi_side(prefix.abi_major, prefix.abi_minor) + ", " + built;
    if (header.word_bits != tables::kWordBits || header.byte_order != tables::kByteOrderMark) {
        return refused(candidate, core, plugin_side, "has tables for another word size or byte order", rebuild);
    }
    if (header.format != tables::kTableFormat) {
        return refused(candidate, core, plugin_side, "has table format " + std::to_string(header.format), rebuild);
    }
    return std::nullopt;
}

}  // namespace famspec::detail
