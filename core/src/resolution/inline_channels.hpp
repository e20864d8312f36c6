// The names generated code shares with the runtime that installs it. They changed upstream once
// (_hyper_ep_group became _hp_ep_group); keeping them here means one edit if they change again.
#pragma once

#include <string_view>

namespace famspec::channels {

inline constexpr std::string_view kEpEnable = "ep_enable";             // instance flag set at install time
inline constexpr std::string_view kEpGroup = "_hp_ep_group";           // instance EP process group
inline constexpr std::string_view kOriginalForward = "_forward_impl";  // where the original forward is kept
inline constexpr std::string_view kEpInput = "hidden_states";          // the MoE block's forward input
inline constexpr std::string_view kEpEntry = "moe_ep_forward";         // the runtime EP entry point
inline constexpr std::string_view kEpModule = "hyper_parallel.distributed.expert_parallel.experts";

}  // namespace famspec::channels
