#include "exit_guard.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <boost/json.hpp>
#include <string>

#include "escape.hpp"
#include "famspec/names.hpp"
#include "load_watch.hpp"

namespace famspec::cli {
namespace {

std::atomic<bool> armed{false};
bool json_errors = false;
int answer_fd = 1;
// Prepared before plugin code runs, so the handler only writes.
std::string sentence = "a plugin called exit() while famspec loaded it";

void write_all(int fd, const std::string& text) {
    [[maybe_unused]] const auto written = ::write(fd, text.data(), text.size());
}

void on_exit_while_armed(int status, void*) {
    if (!armed.load()) return;
    const std::string message = sentence + " (status " + std::to_string(status) + "); famspec stops with status 1";
    write_all(2, "famspec: error: " + escape_control(message) + "\n");
    if (json_errors) {
        const boost::json::object error{
            {"kind", "plugin_exit"}, {"message", message}, {"file", nullptr}, {"line", nullptr}, {"column", nullptr}};
        write_all(answer_fd, boost::json::serialize(boost::json::object{{"error", error}}) + "\n");
    }
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
