// snapshot(registry) and the comparison of two snapshots (see famspec/snapshot.hpp).
#include "famspec/snapshot.hpp"

#include <algorithm>
#include <boost/json.hpp>
#include <fstream>
#include <iterator>
#include <map>
#include <tuple>

#include "famspec/canonical_json.hpp"
#include "famspec/fingerprint.hpp"
#include "famspec/names.hpp"
#include "famspec/plugin_manifest.hpp"
#include "famspec/registry.hpp"
#include "famspec/registry_entries.hpp"
#include "famspec/sdk/abi.hpp"

namespace famspec {
namespace json = boost::json;
namespace {

std::string file_sha256(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "";
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return sha256_digest(bytes);
}

template <class Range>
json::array sorted_strings(const Range& items) {
    std::vector<std::string> out(std::begin(items), std::end(items));
    std::sort(out.begin(), out.end());
    return string_array(out);
}

// What the plugin registered: for a loaded plugin, its manifest (the validate stage proved they are
// equal); a plugin that failed registered nothing.
json::object registered_keys(const PluginManifest* manifest) {
    std::vector<std::string> archetypes;
    if (manifest)
        for (const ManifestArchetype& a : manifest->archetypes) archetypes.push_back(a.compute_factory);
    const std::vector<std::string> none;
    return {{"archetypes", sorted_strings(archetypes)},
            {"components", sorted_strings(manifest ? manifest->components : none)},
            {"cp_wrappers", sorted_strings(manifest ? manifest->cp_wrappers : none)},
            {"factories", sorted_strings(manifest ? manifest->factories : none)}};
}

json::object plugin_json(const PluginRecord& record) {
    const PluginManifest* manifest = record.manifest.get();
    const PluginManifest* registered = record.ok() ? manifest : nullptr;
    std::vector<std::string> families;
    if (registered)
        for (const ManifestFamily& family : registered->families) families.push_back(family.model_type);
    return {{"name", manifest ? manifest->name : ""},
            {"version", manifest ? manifest->version : ""},
            {"abi", manifest ? std::to_string(manifest->abi_major) + "." + std::to_string(manifest->abi_minor) : ""},
            {"sha256", file_sha256(record.path)},
            {"build_id", record.build_id},
            {"status", record.ok() ? "ok" : "error"},
            {"stage", record.error ? json::value(std::string(name_of(record.error->stage))) : json::value(nullptr)},
            {"families", sorted_strings(families)},
            {"keys", registered_keys(registered)},
            {"path", record.path}};
}

std::string string_at(const json::object& object, std::string_view key) {
    const json::value* value = object.if_contains(key);
    return value && value->is_string() ? std::string(value->get_string()) : std::string();
}

// The digest covers everything but the digest itself and the plugins' paths.
std::string digest_of(json::object document) {
    document.erase("digest");
    if (json::value* plugins = document.if_contains("plugins"); plugins && plugins->is_array())
        for (json::value& plugin : plugins->get_array())
            if (plugin.is_object()) plugin.get_object().erase("path");
    return sha256_digest(canonical_json(document));
}

}  // namespace

std::string snapshot(const Registry& registry) {
    std::vector<json::object> plugins;
    for (const PluginRecord& record : registry.plugins()) plugins.push_back(plugin_json(record));
    const auto order = [](const json::object& p) {
        return std::make_tuple(string_at(p, "name"), string_at(p, "sha256"), string_at(p, "path"));
    };
    std::sort(plugins.begin(), plugins.end(), [&](const auto& a, const auto& b) { return order(a) < order(b); });
    json::object document{{"famspec",
                           {{"version", std::string(core_version())},
                            {"abi", std::to_string(kAbiMajor) + "." + std::to_string(kAbiMinor)}}},
                          {"plugins", json::array(plugins.begin(), plugins.end())}};
    document["digest"] = digest_of(document);
    return canonical_json(document);
}

namespace {

// A parsed snapshot whose digest matches its contents, or the reason it is not one.
Expected<json::object, std::string> parse(std::string_view text) {
    boost::system::error_code ec;
    json::value value = json::parse(text, ec);
    if (ec) {
        return unexpected(std::string("not JSON: " + ec.message()));
    }
    if (!value.is_object() || !value.get_object().contains("plugins") || !value.get_object().at("plugins").is_array() ||
        string_at(value.get_object(), "digest").empty()) {
        return unexpected(std::string("not a famspec snapshot: expected an object with \"plugins\" and \"digest\""));
    }
    json::object& document = value.get_object();
    for (const json::value& plugin : document.at("plugins").get_array()) {
        if (!plugin.is_object()) {
            return unexpected(std::string("not a famspec snapshot: every plugin must be an object"));
        }
    }
    if (digest_of(document) != string_at(document, "digest")) {
        return unexpected(std::string("its digest does not match its contents (edited by hand?)"));
    }
    return std::move(document);
}

using PluginsByName = std::map<std::string, json::object>;

// A plugin without a readable manifest has no name: its file name stands for it.
PluginsByName by_name(const json::object& document) {
    PluginsByName out;
    for (const json::value& value : document.at("plugins").get_array()) {
        const json::object& plugin = value.get_object();
        std::string name = string_at(plugin, "name");
        if (name.empty())
            name = "(unnamed) " + string_at(plugin, "path").substr(string_at(plugin, "path").rfind('/') + 1);
        out.emplace(std::move(name), plugin);
    }
    return out;
}

std::map<std::string, std::string> family_owners(const PluginsByName& plugins) {
    std::map<std::string, std::string> out;
    for (const auto& [name, plugin] : plugins) {
        if (const json::value* families = plugin.if_contains("families"); families && families->is_array())
            for (const json::value& family : families->get_array())
                if (family.is_string()) out.emplace(std::string(family.get_string()), name);
    }
    return out;
}

void compare_plugin(const std::string& name, const json::object& was, const json::object& is,
                    std::vector<std::string>& out) {
    const std::string version = string_at(was, "version");
    if (version != string_at(is, "version")) {
        out.push_back("version changed: " + name + " " + version + " -> " + string_at(is, "version"));
    } else if (string_at(was, "sha256") != string_at(is, "sha256")) {
        out.push_back("file changed with the same version: " + name + " " + version + " (" + string_at(was, "sha256") +
                      " -> " + string_at(is, "sha256") + ", build-id " + string_at(was, "build_id") + " -> " +
                      string_at(is, "build_id") + ")");
    }
    if (string_at(was, "status") != string_at(is, "status")) {
        const std::string stage = string_at(is, "stage");
        out.push_back("status changed: " + name + " " + string_at(was, "status") + " -> " + string_at(is, "status") +
                      (stage.empty() ? "" : " (" + stage + ")"));
    }
    if (was.if_contains("keys") && is.if_contains("keys") && was.at("keys") != is.at("keys"))
        out.push_back("registered keys changed: " + name);
}

void compare_families(const PluginsByName& was, const PluginsByName& is, std::vector<std::string>& out) {
    const auto before = family_owners(was);
    const auto after = family_owners(is);
    for (const auto& [family, owner] : before) {
        const auto found = after.find(family);
        if (found == after.end() && is.contains(owner))
            out.push_back("family removed: " + family + " (no longer registered by " + owner + ")");
        else if (found != after.end() && found->second != owner)
            out.push_back("family moved: " + family + " from " + owner + " to " + found->second);
    }
    for (const auto& [family, owner] : after)
        if (!before.contains(family) && was.contains(owner))
            out.push_back("family added: " + family + " (now registered by " + owner + ")");
}

}  // namespace

std::string snapshot_digest(std::string_view snapshot) {
    const auto document = parse(snapshot);
    return document ? string_at(*document, "digest") : std::string();
}

SnapshotComparison compare_snapshots(std::string_view expected, std::string_view actual) {
    const auto was = parse(expected);
    if (!was) return unexpected("stored snapshot: " + was.error());
    const auto is = parse(actual);
    if (!is) return unexpected("live snapshot: " + is.error());
    std::vector<std::string> out;
    if (string_at(*was, "digest") == string_at(*is, "digest")) return out;
    if (was->if_contains("famspec") && is->if_contains("famspec") && was->at("famspec") != is->at("famspec"))
        out.push_back("famspec changed: " + json::serialize(was->at("famspec")) + " -> " +
                      json::serialize(is->at("famspec")));
    const PluginsByName before = by_name(*was);
    const PluginsByName after = by_name(*is);
    for (const auto& [name, plugin] : before) {
        const auto found = after.find(name);
        if (found == after.end())
            out.push_back("plugin removed: " + name + " " + string_at(plugin, "version"));
        else
            compare_plugin(name, plugin, found->second, out);
    }
    for (const auto& [name, plugin] : after)
        if (!before.contains(name))
            out.push_back("plugin added: " + name + " " + string_at(plugin, "version") + " (" +
                          string_at(plugin, "path") + ")");
    compare_families(before, after, out);
    if (out.empty()) out.push_back("digest changed: " + string_at(*was, "digest") + " -> " + string_at(*is, "digest"));
    return out;
}

}  // namespace famspec
