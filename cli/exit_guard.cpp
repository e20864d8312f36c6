#include "exit_guard.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <string>

#include "error_report.hpp"
#include "famspec/names.hpp"
#include "load_watch.hpp"

namespace famspec::cli {
namespace {

std::atomic<bool> armed{false};
bool json_errors = false;
int answer_fd = 1;
// Prepared before plugin code runs, so the handler only writes.
std::string sentence = "a plugin called exit() while famspec loaded it";

void on_exit_while_armed(int status, void*) {
    if (!armed.load()) return;
    const std::string message = sentence + " (status " + std::to_string(status) + "); famspec stops with status 1";
    if (answer_fd < 0) watch_said("plugin_exit", message);
    write_error({"plugin_exit", message, {}, {}, {}}, json_errors, answer_fd);
    watch_reported();
    _exit(1);
}

}  // namespace

ExitGuard::ExitGuard() {
    static const bool registered = on_exit(on_exit_while_armed, nullptr) == 0;
    static_cast<void>(registered);
    armed.store(true);
}

ExitGuard::~ExitGuard() { armed.store(false); }

void ExitGuard::entering(const std::string& path, PluginStage stage) {
    sentence = "plugin " + path + " called exit() during " + std::string(name_of(stage));
}

void ExitGuard::report_json(bool on) { json_errors = on; }

void ExitGuard::answer_descriptor(int fd) { answer_fd = fd; }

}  // namespace famspec::cli
