// What the four harnesses beyond the parsers answer, and the contract each answer must satisfy. The
// libFuzzer harnesses (fuzz_resolution, fuzz_option, fuzz_loader, fuzz_tables) abort on a violation;
// the replay test checks the corpus of each against an expected outcome.
#pragma once

#include <cstdint>
#include <string>

#include "famspec/resolver.hpp"
#include "parser_results.hpp"

namespace famspec::fuzz {

// A plan all the way through: parsed, resolved (lenient and strict) by `warm`, a resolver kept from
// input to input, summarised and digested; a fresh resolver on `registry` must give the same digest.
// value: "entries=N resolved=R native=K not_covered=C error=E digest=sha256:..."; error: the plan error.
Answer resolution_answer(const std::string& plan_text, const std::shared_ptr<const Registry>& registry,
                         const Resolver& warm, std::string& violation);

// Each line of the input as one `--option name=value` (core parse_option). value: the options as
// Python literals, "name=literal" a line; error: the first line's error.
Answer option_answer(const std::string& lines, std::string& violation);

// load_plugins on the one plugin file at `path` (a scratch copy the caller owns): the file read, its
// tables checked, claimed and staged, or the plugin refused with its stage. value: "families=F
// factories=N cp_wrappers=W archetypes=A components=C" from its manifest; error: "<stage>: <message>".
Answer loader_answer(const std::string& path, std::string& violation);

// The input as the contents of a plugin's table section, read as the loader reads it once the
// compatibility stage has seen a whole header: TableView::check(), then the claims (manifest_of) and
// the copy into a registry's staging, both under the block's CopyBudget. value: "families=F
// factories=N cp_wrappers=W archetypes=A components=C"; error: why the block cannot be read, that
// its copies would exceed the budget, or the first declaration the staging rejected.
Answer tables_answer(const std::string& block, std::string& violation);

// The most a block of `byte_size` bytes may make the core copy (registry/copy_budget.hpp).
std::uint64_t copy_bound(std::uint64_t byte_size);

}  // namespace famspec::fuzz
