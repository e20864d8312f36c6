#include "famspec/plugin_manifest.hpp"

#include <algorithm>
#include <array>
#include <boost/json.hpp>
#include <set>
#include <tuple>

#include "famspec/canonical_json.hpp"

namespace famspec {
namespace json = boost::json;
namespace {

constexpr std::size_t kMaxManifestText = std::size_t{1} << 20;

// Thrown only inside this file and turned into ManifestParse::error.
struct ManifestFormatError {
    std::string message;
};

const json::value& member(const json::object& object, std::string_view key, std::string_view where) {
    const auto* found = object.if_contains(key);
    if (found == nullptr) throw ManifestFormatError{std::string(where) + ": expected key '" + std::string(key) + "'"};
    return *found;
}

std::string text(const json::object& object, std::string_view key, std::string_view where) {
    const auto& value = member(object, key, where);
    if (!value.is_string()) {
        throw ManifestFormatError{std::string(where) + "." + std::string(key) + ": expected a string"};
    }
    return std::string(value.get_string());
}

std::uint64_t number(const json::object& object, std::string_view key, std::string_view where, std::uint64_t max) {
    const auto& value = member(object, key, where);
    std::uint64_t result = 0;
    if (value.is_uint64())
        result = value.get_uint64();
    else if (value.is_int64() && value.get_int64() >= 0)
        result = static_cast<std::uint64_t>(value.get_int64());
    else
        throw ManifestFormatError{std::string(where) + "." + std::string(key) + ": expected a non-negative integer"};
    if (result > max) throw ManifestFormatError{std::string(where) + "." + std::string(key) + ": out of range"};
    return result;
}

std::vector<std::string> text_list(const json::object& object, std::string_view key, std::string_view where) {
    const auto& value = member(object, key, where);
    if (!value.is_array()) {
        throw ManifestFormatError{std::string(where) + "." + std::string(key) + ": expected a list of strings"};
    }
    std::vector<std::string> out;
    for (const auto& item : value.get_array()) {
        if (!item.is_string()) {
            throw ManifestFormatError{std::string(where) + "." + std::string(key) + ": expected a list of strings"};
        }
        out.emplace_back(item.get_string());
    }
    return out;
}

const json::object& object_of(const json::value& value, std::string_view where) {
    if (!value.is_object()) throw ManifestFormatError{std::string(where) + ": expected an object"};
    return value.get_object();
}

void only_keys(const json::object& object, std::initializer_list<std::string_view> keys, std::string_view where) {
    for (const auto& entry : object) {
        if (std::find(keys.begin(), keys.end(), entry.key()) == keys.end()) {
            throw ManifestFormatError{std::string(where) + ": unknown key '" + std::string(entry.key()) + "'"};
        }
    }
}

// A total order on the items of a manifest list, so that one list is searched in logarithmic time:
// a manifest of many thousand declarations is compared in O(n log n).
bool before(const std::string& a, const std::string& b) { return a < b; }
bool before(const ManifestFamily& a, const ManifestFamily& b) {
    return std::tie(a.model_type, a.architecture, a.aliases, a.directory_aliases) <
           std::tie(b.model_type, b.architecture, b.aliases, b.directory_aliases);
}
bool before(const ManifestArchetype& a, const ManifestArchetype& b) {
    return std::tie(a.compute_factory, a.fingerprint) < std::tie(b.compute_factory, b.fingerprint);
}

template <class T>
class SortedView {
public:
    explicit SortedView(const std::vector<T>& items) {
        for (const T& item : items) items_.push_back(&item);
        std::sort(items_.begin(), items_.end(), less);
    }
    bool contains(const T& item) const { return std::binary_search(items_.begin(), items_.end(), &item, less); }

private:
    static bool less(const T* a, const T* b) { return before(*a, *b); }
    std::vector<const T*> items_;
};

template <class T>
std::vector<std::string> list_difference(std::string_view what, const std::vector<T>& carried,
                                         const std::vector<T>& registered, auto describe) {
    std::vector<std::string> out;
    const SortedView<T> in_manifest(carried);
    const SortedView<T> in_plugin(registered);
    for (const auto& item : registered) {
        if (!in_manifest.contains(item)) {
            out.push_back(std::string(what) + " " + describe(item) + " is registered but not in the manifest");
        }
    }
    for (const auto& item : carried) {
        if (!in_plugin.contains(item)) {
            out.push_back(std::string(what) + " " + describe(item) + " is in the manifest but not registered");
        }
    }
    return out;
}

std::vector<ManifestFamily> families_from(const json::object& top) {
    const auto& families = member(top, "families", "manifest");
    if (!families.is_array()) throw ManifestFormatError{"manifest.families: expected a list"};
    std::vector<ManifestFamily> out;
    for (const auto& item : families.get_array()) {
        const auto& family = object_of(item, "manifest.families[]");
        only_keys(family, {"model_type", "architecture", "aliases", "directory_aliases"}, "manifest.families[]");
        out.push_back({text(family, "model_type", "manifest.families[]"),
                       text(family, "architecture", "manifest.families[]"),
                       text_list(family, "aliases", "manifest.families[]"),
                       text_list(family, "directory_aliases", "manifest.families[]")});
    }
    return out;
}

std::vector<ManifestArchetype> archetypes_from(const json::object& top) {
    const auto& archetypes = member(top, "archetypes", "manifest");
    if (!archetypes.is_array()) throw ManifestFormatError{"manifest.archetypes: expected a list"};
    std::vector<ManifestArchetype> out;
    for (const auto& item : archetypes.get_array()) {
        const auto& archetype = object_of(item, "manifest.archetypes[]");
        only_keys(archetype, {"compute_factory", "fingerprint"}, "manifest.archetypes[]");
        out.push_back({text(archetype, "compute_factory", "manifest.archetypes[]"),
                       text_list(archetype, "fingerprint", "manifest.archetypes[]")});
    }
    return out;
}

// The manifest the JSON object states; throws ManifestFormatError naming the first field that is wrong.
PluginManifest manifest_from(const json::object& top) {
    only_keys(top,
              {"format", "name", "version", "description", "abi", "fingerprint", "families", "factories", "archetypes",
               "cp_wrappers", "components"},
              "manifest");
    const auto format = number(top, "format", "manifest", 1000);
    if (format != PluginManifest::kFormat) {
        throw ManifestFormatError{"manifest.format: expected " + std::to_string(PluginManifest::kFormat) + ", found " +
                                  std::to_string(format)};
    }
    PluginManifest manifest;
    manifest.name = text(top, "name", "manifest");
    manifest.version = text(top, "version", "manifest");
    manifest.description = text(top, "description", "manifest");
    const auto& abi = object_of(member(top, "abi", "manifest"), "manifest.abi");
    only_keys(abi, {"major", "minor", "descriptor_size"}, "manifest.abi");
    manifest.abi_major = static_cast<std::uint16_t>(number(abi, "major", "manifest.abi", 0xFFFF));
    manifest.abi_minor = static_cast<std::uint16_t>(number(abi, "minor", "manifest.abi", 0xFFFF));
    manifest.descriptor_size = static_cast<std::uint32_t>(number(abi, "descriptor_size", "manifest.abi", 0xFFFFFFFF));
    manifest.fingerprint = text(top, "fingerprint", "manifest");
    manifest.families = families_from(top);
    manifest.factories = text_list(top, "factories", "manifest");
    manifest.archetypes = archetypes_from(top);
    manifest.cp_wrappers = text_list(top, "cp_wrappers", "manifest");
    manifest.components = text_list(top, "components", "manifest");
    return manifest;
}

}  // namespace

PluginManifest normalized(PluginManifest manifest) {
    for (auto& family : manifest.families) {
        std::sort(family.aliases.begin(), family.aliases.end());
        std::sort(family.directory_aliases.begin(), family.directory_aliases.end());
    }
    std::sort(manifest.families.begin(), manifest.families.end(),
              [](const auto& a, const auto& b) { return a.model_type < b.model_type; });
    std::sort(manifest.factories.begin(), manifest.factories.end());
    std::sort(manifest.archetypes.begin(), manifest.archetypes.end(),
              [](const auto& a, const auto& b) { return a.compute_factory < b.compute_factory; });
    std::sort(manifest.cp_wrappers.begin(), manifest.cp_wrappers.end());
    std::sort(manifest.components.begin(), manifest.components.end());
    return manifest;
}

std::string to_json(const PluginManifest& input) {
    const PluginManifest manifest = normalized(input);
    json::object out;
    out["format"] = PluginManifest::kFormat;
    out["name"] = manifest.name;
    out["version"] = manifest.version;
    out["description"] = manifest.description;
    out["abi"] = json::object{
        {"major", manifest.abi_major}, {"minor", manifest.abi_minor}, {"descriptor_size", manifest.descriptor_size}};
    out["fingerprint"] = manifest.fingerprint;
    json::array families;
    for (const auto& family : manifest.families) {
        families.push_back(json::object{{"model_type", family.model_type},
                                        {"architecture", family.architecture},
                                        {"aliases", string_array(family.aliases)},
                                        {"directory_aliases", string_array(family.directory_aliases)}});
    }
    out["families"] = std::move(families);
    out["factories"] = string_array(manifest.factories);
    json::array archetypes;
    for (const auto& archetype : manifest.archetypes) {
        archetypes.push_back(json::object{{"compute_factory", archetype.compute_factory},
                                          {"fingerprint", string_array(archetype.fingerprint)}});
    }
    out["archetypes"] = std::move(archetypes);
    out["cp_wrappers"] = string_array(manifest.cp_wrappers);
    out["components"] = string_array(manifest.components);
    return canonical_json(out);
}

ManifestParse parse_manifest(std::string_view text_in) {
    if (text_in.size() > kMaxManifestText) {
        return unexpected("manifest is " + std::to_string(text_in.size()) + " bytes; the limit is " +
                          std::to_string(kMaxManifestText));
    }
    json::parse_options options;
    options.max_depth = 8;
    boost::system::error_code ec;
    // The parsed tree lives only for this call: one arena, a small manifest's on the stack.
    std::array<unsigned char, 4096> arena;
    json::monotonic_resource resource(arena.data(), arena.size());
    const json::value root = json::parse(text_in, ec, &resource, options);
    if (ec == json::error::too_deep) {
        return unexpected("manifest nests deeper than " + std::to_string(options.max_depth) + " levels");
    }
    if (ec) return unexpected("manifest is not valid JSON: " + ec.message());
    try {
        return normalized(manifest_from(object_of(root, "manifest")));
    } catch (const ManifestFormatError& error) {
        return unexpected(error.message);
    }
}

std::vector<std::string> manifest_differences(const PluginManifest& carried_in, const PluginManifest& registered_in) {
    // The usual answer, at every load of every plugin: equal as they are, hence equal normalized.
    if (carried_in == registered_in) return {};
    const PluginManifest carried = normalized(carried_in);
    const PluginManifest registered = normalized(registered_in);
    std::vector<std::string> out;
    auto plain = [](const std::string& s) { return "'" + s + "'"; };
    if (carried.name != registered.name) {
        out.push_back("name: manifest '" + carried.name + "', plugin '" + registered.name + "'");
    }
    if (carried.version != registered.version) {
        out.push_back("version: manifest '" + carried.version + "', plugin '" + registered.version + "'");
    }
    if (carried.abi_major != registered.abi_major || carried.abi_minor != registered.abi_minor ||
        carried.descriptor_size != registered.descriptor_size) {
        out.push_back("abi: manifest " + std::to_string(carried.abi_major) + "." + std::to_string(carried.abi_minor) +
                      " (descriptor " + std::to_string(carried.descriptor_size) + " bytes), plugin " +
                      std::to_string(registered.abi_major) + "." + std::to_string(registered.abi_minor) +
                      " (descriptor " + std::to_string(registered.descriptor_size) + " bytes)");
    }
    if (carried.fingerprint != registered.fingerprint) {
        out.push_back("fingerprint: manifest '" + carried.fingerprint + "', plugin '" + registered.fingerprint + "'");
    }
    auto family_name = [](const ManifestFamily& f) {
        std::string s = "'" + f.model_type + "' (" + f.architecture;
        for (const auto& a : f.aliases) s += ", alias " + a;
        for (const auto& a : f.directory_aliases) s += ", directory alias " + a;
        return s + ")";
    };
    auto archetype_name = [](const ManifestArchetype& a) { return "'" + a.compute_factory + "'"; };
    for (auto&& list : {list_difference("family", carried.families, registered.families, family_name),
                        list_difference("factory", carried.factories, registered.factories, plain),
                        list_difference("archetype", carried.archetypes, registered.archetypes, archetype_name),
                        list_difference("CP wrapper", carried.cp_wrappers, registered.cp_wrappers, plain),
                        list_difference("component", carried.components, registered.components, plain)}) {
        out.insert(out.end(), list.begin(), list.end());
    }
    return out;
}

}  // namespace famspec
