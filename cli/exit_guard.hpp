// A plugin that calls exit() while famspec loads it would end famspec with the plugin's status,
// often 0, before any answer or error is printed. While plugin code may run, this guard is armed:
// an exit() then prints which plugin did it at which stage and ends famspec with status 1.
#pragma once

#include <string>

#include "famspec/plugin_record.hpp"

namespace famspec::cli {

class ExitGuard {
public:
    ExitGuard();   // arms it
    ~ExitGuard();  // disarms it
    ExitGuard(const ExitGuard&) = delete;
    ExitGuard& operator=(const ExitGuard&) = delete;

    // Which plugin code may run next, for the message.
    static void entering(const std::string& path, PluginStage stage);
    // Also print the error as JSON on stdout (--json).
    static void report_json(bool on);
    // The descriptor famspec's answer goes to, when not 1 (see separate_stdout); -1 in the work
    // process, which holds no stdout while plugins load: the process that waits says the error.
    static void answer_descriptor(int fd);
};

}  // namespace famspec::cli
