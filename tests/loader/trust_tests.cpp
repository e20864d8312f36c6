// The trust boundary through the public API: ownership and modes of a plugin file and its
// directory, digest pinning, special files named like plugins, a file changed while it loads, and
// directories that hold nothing. The suite runs as root in CI, so each case builds a situation that
// root's own checks still refuse (modes, an owner that is nobody).
#include <doctest/doctest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "famspec/famspec.hpp"
#include "famspec/names.hpp"
#include "famspec/plugin_inspection.hpp"
#include "famspec/required_digests.hpp"
#include "famspec/search_path.hpp"
#include "process.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using famspec::PluginRecord;
using famspec::test::fixture_file;
using famspec::test::TempDir;

namespace {

std::string stage_of(const PluginRecord& record) {
    return record.error ? std::string(famspec::name_of(record.error->stage)) : "ok";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

struct Loaded {
    std::shared_ptr<const famspec::Registry> registry;
    std::vector<std::string> warnings;
};

Loaded load(famspec::LoadOptions options, const famspec::StageCallback& on_stage = {}) {
    Loaded loaded;
    options.log = [&loaded](famspec::LogLevel level, std::string_view text) {
        if (level == famspec::LogLevel::warning) loaded.warnings.emplace_back(text);
    };
    loaded.registry = famspec::load_plugins(options, on_stage);
    return loaded;
}

Loaded load_dir(const fs::path& directory, bool allow_insecure = false) {
    famspec::LoadOptions options;
    options.directories = {directory};
    options.allow_insecure = allow_insecure;
    return load(std::move(options));
}

// A directory of our own holding a copy of the good fixture, modes as the build left them (0755).
struct PluginCopy {
    TempDir dir;
    fs::path file = dir / "famspec_zoo_good.so";
    PluginCopy() { fs::copy_file(fixture_file("zoo_good"), file); }
};

std::string sha256_of(const fs::path& file) {
    const auto result = famspec::test::run_process({"sha256sum", file.string()});
    REQUIRE(result.exit_code == 0);
    return result.out.substr(0, 64);
}

void write(const fs::path& file, const std::string& text) { std::ofstream(file) << text; }

}  // namespace

TEST_CASE("a plugin in a directory its group can write is refused at the trust stage") {
    PluginCopy copy;
    fs::permissions(copy.dir.path(), static_cast<fs::perms>(0775));
    const Loaded loaded = load_dir(copy.dir.path());
    REQUIRE(loaded.registry->plugins().size() == 1);
    const PluginRecord& record = loaded.registry->plugins()[0];
    REQUIRE(stage_of(record) == "trust");
    const std::string& message = record.error->message;
    CHECK(message.find(copy.file.string() + ": refused: directory " + copy.dir.path().string() +
                       " is writable by its group (mode 0775); fix: chmod go-w " + copy.dir.path().string()) == 0);
    CHECK(contains(message, "--allow-insecure-plugins (FAMSPEC_ALLOW_INSECURE=1)"));
    CHECK(loaded.registry->families().empty());
    CHECK_FALSE(loaded.registry->all_ok());
}

TEST_CASE("a plugin file others can write is refused, and allowed with a warning when asked") {
    PluginCopy copy;
    fs::permissions(copy.file, fs::perms::others_write, fs::perm_options::add);
    const Loaded refused = load_dir(copy.dir.path());
    REQUIRE(stage_of(refused.registry->plugins()[0]) == "trust");
    CHECK(contains(refused.registry->plugins()[0].error->message,
                   "file " + copy.file.string() + " is writable by others (mode 0757)"));

    const Loaded allowed = load_dir(copy.dir.path(), true);
    CHECK(allowed.registry->all_ok());
    CHECK(allowed.registry->find_family("zoo_good") != nullptr);
    REQUIRE(allowed.warnings.size() == 1);
    CHECK(allowed.warnings[0].find(copy.file.string() + ": loaded although insecure") == 0);
    CHECK(contains(allowed.warnings[0], "writable by others (mode 0757)"));
}

TEST_CASE("a plugin owned by neither root nor the current user is refused") {
    if (::geteuid() != 0) {
        MESSAGE("needs root to give a file to another user; CI runs as root");
        return;
    }
    PluginCopy copy;
    REQUIRE(::chown(copy.file.c_str(), 65534, 65534) == 0);
    const Loaded loaded = load_dir(copy.dir.path());
    REQUIRE(stage_of(loaded.registry->plugins()[0]) == "trust");
    CHECK(contains(loaded.registry->plugins()[0].error->message,
                   "file " + copy.file.string() + " is owned by uid 65534"));
    CHECK(contains(loaded.registry->plugins()[0].error->message, "neither root nor the current user (uid 0"));
}

TEST_CASE("a symbolic link is judged by the directory its file is really in, and an explicit file by its own") {
    PluginCopy unsafe;
    fs::permissions(unsafe.dir.path(), static_cast<fs::perms>(0775));
    const TempDir safe;
    fs::create_symlink(unsafe.file, safe / "famspec_zoo_good.so");

    const Loaded linked = load_dir(safe.path());
    REQUIRE(linked.registry->plugins().size() == 1);
    const PluginRecord& record = linked.registry->plugins()[0];
    REQUIRE(stage_of(record) == "trust");
    CHECK(contains(record.error->message,
                   "directory " + unsafe.dir.path().string() + " is writable by its group (mode 0775)"));
    CHECK_FALSE(contains(record.error->message, "directory " + safe.path().string() + " "));

    famspec::LoadOptions options;
    options.files = {unsafe.file};
    const Loaded named = load(options);
    REQUIRE(named.registry->plugins().size() == 1);
    REQUIRE(stage_of(named.registry->plugins()[0]) == "trust");
    CHECK(contains(named.registry->plugins()[0].error->message,
                   "directory " + unsafe.dir.path().string() + " is writable by its group (mode 0775)"));

    fs::permissions(unsafe.dir.path(), static_cast<fs::perms>(0755));
    CHECK(load_dir(safe.path()).registry->all_ok());
}

TEST_CASE("special files named like plugins are refused candidates, never waited on") {
    const TempDir dir;
    REQUIRE(::mkfifo((dir / "fifo.so").c_str(), 0644) == 0);
    fs::create_directory(dir / "directory.so");
    fs::create_symlink("/dev/null", dir / "device.so");
    fs::create_symlink(dir / "nowhere", dir / "dangling.so");
    const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
    REQUIRE(sock >= 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string socket_path = (dir / "socket.so").string();
    REQUIRE(socket_path.size() < sizeof address.sun_path);
    std::strcpy(address.sun_path, socket_path.c_str());
    REQUIRE(::bind(sock, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);

    const Loaded loaded = load_dir(dir.path());
    ::close(sock);
    std::map<std::string, std::string> messages;
    for (const PluginRecord& record : loaded.registry->plugins()) {
        CHECK(stage_of(record) == "find");
        messages[fs::path(record.path).filename().string()] = record.error ? record.error->message : "";
    }
    CHECK(contains(messages["fifo.so"], "refused: named like a plugin but is a FIFO; only regular files are loaded"));
    CHECK(contains(messages["directory.so"], "is a directory;"));
    CHECK(contains(messages["device.so"], "is a character device (through a symbolic link);"));
    CHECK(contains(messages["socket.so"], "is a socket;"));
    CHECK(contains(messages["dangling.so"], "plugin file is a symbolic link to nothing"));
    CHECK(messages.size() == 5);
}

TEST_CASE("an empty or missing plugin directory is an error, so nothing looks like no families") {
    const TempDir dir;
    write(dir / "README.txt", "not a plugin\n");
    const Loaded empty = load_dir(dir.path());
    REQUIRE(empty.registry->plugins().size() == 1);
    CHECK(stage_of(empty.registry->plugins()[0]) == "find");
    CHECK(empty.registry->plugins()[0].error->message ==
          dir.path().string() +
              ": plugin directory holds no plugin (*.so); build or install the plugins there, or search another "
              "directory with --plugin-path or FAMSPEC_PLUGIN_PATH");
    CHECK_FALSE(empty.registry->all_ok());

    const Loaded missing = load_dir(dir / "missing");
    REQUIRE(missing.registry->plugins().size() == 1);
    const famspec::PluginError& gone = *missing.registry->plugins()[0].error;
    CHECK(gone.stage == famspec::PluginStage::find);
    CHECK(gone.found == "No such file or directory");
    CHECK(gone.message == (dir / "missing").string() + ": plugin directory does not exist or is not a directory");

    const Loaded file = load_dir(dir / "README.txt");
    REQUIRE(file.registry->plugins().size() == 1);
    CHECK(file.registry->plugins()[0].error->found == "not a directory");
    CHECK_FALSE(file.registry->all_ok());
}

TEST_CASE("pinned digests: only a listed file loads, and a refusal comes before its tables are read") {
    PluginCopy copy;
    const std::string digest = sha256_of(copy.file);
    famspec::LoadOptions options;
    options.directories = {copy.dir.path()};

    SUBCASE("a sha256sum line list that names the file") {
        write(copy.dir / "digests.txt", "# pinned\n\n" + digest + "  famspec_zoo_good.so\n");
        famspec::require_digests(options, copy.dir / "digests.txt");
        CHECK(load(options).registry->all_ok());
    }
    SUBCASE("a snapshot's JSON, with the sha256: prefix") {
        write(copy.dir / "digests.json",
              R"({"plugins": [{"name": "zoo_good", "version": "1.2.3", "sha256": "sha256:)" + digest + R"("}]})");
        famspec::require_digests(options, copy.dir / "digests.json");
        CHECK(load(options).registry->all_ok());
    }
    SUBCASE("another digest for the same name") {
        options.required_digests = {{.name = "zoo_good", .sha256 = std::string(64, '0')}};
        const auto registry = load(options).registry;
        REQUIRE(stage_of(registry->plugins()[0]) == "trust");
        CHECK(contains(registry->plugins()[0].error->message, "refused: its SHA-256 " + digest +
                                                                  " is not among the required digests; the list pins "
                                                                  "'zoo_good' to " +
                                                                  std::string(64, '0')));
        CHECK(registry->families().empty());
    }
    SUBCASE("a file the list does not name is refused at trust, whatever it holds") {
        fs::copy_file(fixture_file("code_never_runs"), copy.dir / "famspec_code_never_runs.so");
        options.required_digests = {{.name = "zoo_good", .sha256 = digest}};
        const auto registry = load(options).registry;
        REQUIRE(registry->plugins().size() == 2);
        CHECK(stage_of(registry->plugins()[0]) == "trust");
        CHECK(contains(registry->plugins()[0].error->message, "the list names no such plugin"));
        CHECK(registry->plugins()[1].ok());
    }
}

TEST_CASE("a digest list that cannot be used pins nothing, so every plugin is refused") {
    PluginCopy copy;
    write(copy.dir / "bad.txt", "0123 famspec_zoo_good.so\n");
    const famspec::RequiredDigests read = famspec::read_required_digests(copy.dir / "bad.txt");
    CHECK_FALSE(read.has_value());
    CHECK(read.error() == (copy.dir / "bad.txt").string() + ":1: expected '<sha256> <name>'");

    famspec::LoadOptions options;
    options.directories = {copy.dir.path()};
    famspec::require_digests(options, copy.dir / "bad.txt");
    const auto registry = load(options).registry;
    REQUIRE(registry->plugins().size() == 2);
    CHECK(stage_of(registry->plugins()[0]) == "trust");
    CHECK(contains(registry->plugins()[0].error->message, "cannot use the required digests: "));
    CHECK(stage_of(registry->plugins()[1]) == "trust");
    CHECK(registry->families().empty());
}

TEST_CASE("a plugin rewritten in place while it is read is refused") {
    PluginCopy copy;
    famspec::LoadOptions options;
    options.directories = {copy.dir.path()};
    // Between reading the tables and the end of the checks, someone appends to it.
    const auto append = [&](const std::string&, famspec::PluginStage stage) {
        if (stage == famspec::PluginStage::manifest) std::ofstream(copy.file, std::ios::app) << "tail";
    };
    const auto registry = load(options, append).registry;
    REQUIRE(registry->plugins().size() == 1);
    const PluginRecord& record = registry->plugins()[0];
    REQUIRE(stage_of(record) == "manifest");
    CHECK(contains(record.error->message, "refused: the file changed while it was being read (its size changed from "));
    CHECK(contains(record.error->message, "deploy a plugin by writing a new file and renaming it into place"));
    CHECK(registry->families().empty());
}

TEST_CASE("a plugin replaced by rename while it is read is read as it was checked") {
    PluginCopy copy;
    famspec::LoadOptions options;
    options.directories = {copy.dir.path()};
    // The safe deploy: a new file renamed over the old one. The descriptor still names the old file.
    const auto replace = [&](const std::string&, famspec::PluginStage stage) {
        if (stage != famspec::PluginStage::manifest) return;
        fs::copy_file(fixture_file("not_elf"), copy.dir / "incoming.tmp");
        fs::rename(copy.dir / "incoming.tmp", copy.file);
    };
    const auto registry = load(options, replace).registry;
    REQUIRE(registry->plugins().size() == 1);
    INFO((registry->plugins()[0].error ? registry->plugins()[0].error->message : std::string("ok")));
    CHECK(registry->plugins()[0].ok());
    CHECK(registry->find_family("zoo_good") != nullptr);
}
