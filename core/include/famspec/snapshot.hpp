// The loaded plugin set as canonical JSON (snapshot(registry)), and what differs between two of them.
//
//   {"digest": "sha256:<hex>",
//    "famspec": {"abi": "1.0", "version": "0.1.0"},
//    "plugins": [{"abi", "build_id", "families": [model_type...], "keys": {"archetypes", "components",
//                 "cp_wrappers", "factories"}, "name", "path", "sha256", "stage", "status", "version"}]}
//
// Plugins are sorted by name, then file sha256, then path. `digest` is the SHA-256 of the same
// document without `digest` and without the plugins' `path`: the same plugin files installed under
// another prefix have the same digest. A plugin that failed registered nothing: its families and keys
// are empty, and its status and stage say why.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "famspec/expected.hpp"
#include "famspec/sdk/export.hpp"

namespace famspec {

class Registry;

// The loaded plugin set as canonical JSON with its digest. Reads each plugin file to hash it, so call
// it once and keep the result.
FAMSPEC_API std::string snapshot(const Registry& registry);

// The differences, one readable line each from `expected` to `actual` (none when they are equal);
// or, when a text is not a snapshot, why, naming which one.
using SnapshotComparison = Expected<std::vector<std::string>, std::string>;

// `expected` is the stored (or reference) snapshot, `actual` the live one; an error names which is bad.
// The differences, named the way an operator acts on them: plugin added or removed, version changed,
// file changed with the same version, family moved to another plugin, status or keys changed.
FAMSPEC_API SnapshotComparison compare_snapshots(std::string_view expected, std::string_view actual);

// The digest a snapshot's bytes carry, or empty when the text is not a snapshot.
FAMSPEC_API std::string snapshot_digest(std::string_view snapshot);

}  // namespace famspec
