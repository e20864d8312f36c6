// Whole training configs written the way HyperParallel users write them: many top-level sections
// the runtime reads, plan_overrides among them, anchors, folded targets and entry keys famspec
// does not read.
#pragma once

#include <string>

namespace famspec::test {

// The sections a real config carries before plan_overrides, ending with a newline; `model_target`
// becomes model._target_ (empty: the model section names a checkpoint only).
std::string config_head(const std::string& model_target);
// Sections after plan_overrides.
std::string config_tail();
// A config of about `lines` lines: head, the given plan_overrides block, and enough runtime
// sections (optimizer groups, datasets, profiling ranges) after it to reach the size.
std::string realistic_config(const std::string& overrides, std::size_t lines);

}  // namespace famspec::test
