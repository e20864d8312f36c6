// What the five harnesses beyond the parsers answer, and the contract each answer must satisfy. The
// libFuzzer harnesses (fuzz_resolution, fuzz_option, fuzz_report, fuzz_loader, fuzz_tables) abort on a violation;
// the replay test checks the corpus of each against an expected outcome class and fragment.
#pragma once

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

// The lines of the input fed to verify's report parser, as a plugin's child could write them on fd 3.
// value: "stage=S result=ok|error(stage)"; error: why the report is malformed.
Answer report_answer(const std::string& lines, std::string& violation);

// The loader's decisions on one or two manifests (split at the first NUL byte), made before any
// plugin code runs: compatibility with this core, drift between them, claims they share.
// value: "a=ok|refused b=... drift=N shared=yes|no"; error: the first manifest parse error.
Answer loader_answer(const std::string& manifests, std::string& violation);

// The input as a plugin's block of tables (ABI 4.0), read as the loader reads one it has found in the
// plugin's own read-only data: checked whole (TableView::check), then copied into a registry's
// staging. value: "families=F factories=N cp_wrappers=W archetypes=A components=C"; error: why the
// block cannot be read, or the declarations the staging rejected.
Answer tables_answer(const std::string& block, std::string& violation);

}  // namespace famspec::fuzz
