#include "load_watch.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>

#include "famspec/names.hpp"
#include "output.hpp"
#include "signal_relay.hpp"
#include "supervisor.hpp"

namespace famspec::cli {
namespace {

// What the work process records for the parent, in memory both see: plain stores (no system call
// per stage), read by the parent only once the work process is gone.
struct Shared {
    std::atomic<int> state{static_cast<int>(WorkState::working)};
    int code = 0;
    int stage = 0;  // a PluginStage
    std::size_t path_size = 0;
    char path[4000] = {};
    char kind[32] = {};  // what the work process said itself, for the parent to say (watch_said)
    char message[8000] = {};
};

Shared* shared = nullptr;  // the work process's record (in the parent too, for read_record)
bool started = false;

// The work process's own end of the socket its stdin and answer descriptor come through, and the
// socket's identity: a plugin that closed or replaced the descriptor cannot fake that.
int channel = -1;
dev_t channel_device = 0;
ino_t channel_inode = 0;
pid_t worker = 0;  // the work process; a copy a plugin forked has another pid
bool delivered = false;
// The plugin code that ran last, in this process's own memory (a forked copy keeps its own).
std::string last_path;
PluginStage last_stage = PluginStage::open;

void record(WorkState state) { shared->state.store(static_cast<int>(state)); }
WorkState recorded() { return static_cast<WorkState>(shared->state.load()); }

WorkRecord read_record() {
    return {recorded(),
            shared->code,
            static_cast<PluginStage>(shared->stage),
            std::string(shared->path, std::min(shared->path_size, sizeof shared->path)),
            std::string(shared->kind, ::strnlen(shared->kind, sizeof shared->kind)),
            std::string(shared->message, ::strnlen(shared->message, sizeof shared->message))};
}

std::string plugin_at_work() { return "plugin " + last_path + " "; }

// A copy of the work process that a plugin forked, returning into famspec: it must answer nothing
// (the answer is the work process's), so it says so and ends here.
void end_if_copy() {
    if (worker == 0 || ::getpid() == worker) return;
    const std::string text = "famspec: warning: " + plugin_at_work() + "forked famspec's work process during " +
                             std::string(name_of(last_stage)) + "; the copy stops here and answers nothing\n";
    write_all(2, text);
    _exit(1);
}

// Ends the work process with `message`, for the parent to say (it holds stdout, for --json).
[[noreturn]] void end_saying(const std::string& kind, const std::string& message) {
    std::memcpy(shared->kind, kind.data(), std::min(kind.size(), sizeof shared->kind - 1));
    std::memcpy(shared->message, message.data(), std::min(message.size(), sizeof shared->message - 1));
    record(WorkState::reported);
    _exit(1);
}

bool channel_intact() {
    struct stat status {};
    return ::fstat(channel, &status) == 0 && S_ISSOCK(status.st_mode) && status.st_dev == channel_device &&
           status.st_ino == channel_inode;
}

void end_if_channel_broken() {
    if (channel_intact()) return;
    end_saying("plugin_descriptors", plugin_at_work() + "closed or replaced famspec's descriptors during " +
                                         std::string(name_of(last_stage)) +
                                         ", so famspec has no sure way to its input and output; famspec stops "
                                         "with status 1");
}

// A one-byte message carrying two descriptors (SCM_RIGHTS): famspec's stdin and stdout, sent by
// the parent and received by the work process once loading is over.
struct DescriptorMessage {
    static constexpr std::size_t kBytes = 2 * sizeof(int);
    char byte = 'd';
    iovec data{&byte, 1};
    alignas(cmsghdr) std::array<char, CMSG_SPACE(kBytes)> control{};
    msghdr message{};

    DescriptorMessage() {
        message.msg_iov = &data;
        message.msg_iovlen = 1;
        message.msg_control = control.data();
        message.msg_controllen = control.size();
    }
    DescriptorMessage(const DescriptorMessage&) = delete;
    DescriptorMessage& operator=(const DescriptorMessage&) = delete;
};

bool send_descriptors(int socket) {
    const std::array<int, 2> descriptors{0, 1};
    DescriptorMessage sent;
    cmsghdr* header = CMSG_FIRSTHDR(&sent.message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(DescriptorMessage::kBytes);
    std::memcpy(CMSG_DATA(header), descriptors.data(), DescriptorMessage::kBytes);
    ssize_t n = -1;
    while ((n = ::sendmsg(socket, &sent.message, MSG_NOSIGNAL)) < 0 && errno == EINTR) {
    }
    return n == 1;
}

// False when the message is not there (or not whole).
bool receive_descriptors(std::array<int, 2>& descriptors) {
    DescriptorMessage got;
    ssize_t n = -1;
    while ((n = ::recvmsg(channel, &got.message, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {
    }
    const cmsghdr* header = n == 1 ? CMSG_FIRSTHDR(&got.message) : nullptr;
    if (header == nullptr || header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS ||
        header->cmsg_len != CMSG_LEN(DescriptorMessage::kBytes) || (got.message.msg_flags & MSG_CTRUNC) != 0) {
        return false;
    }
    std::memcpy(descriptors.data(), CMSG_DATA(header), DescriptorMessage::kBytes);
    return true;
}

// Until loading is over the work process holds neither famspec's stdin nor its stdout: a plugin
// that reads, closes or replaces descriptor 0 or 1 touches /dev/null and stderr.
void hand_over_standard_descriptors() {
    const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null >= 0) {
        ::dup2(null, 0);
        ::close(null);
    }
    ::dup2(2, 1);
}

}  // namespace

bool start_watched_work(bool json) {
    if (started) return worker != 0;
    started = true;
    // Sent before the fork, so the message waits in the child's end whatever the child does first;
    // the sending end is closed on both sides, so a taken message reads as the end of the socket.
    std::array<int, 2> sockets{};
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sockets.data()) != 0) return false;
    const bool sent = send_descriptors(sockets[0]);
    ::close(sockets[0]);
    void* memory =
        sent ? ::mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0) : MAP_FAILED;
    if (memory == MAP_FAILED) {  // the work goes on here, guarded by ExitGuard only
        ::close(sockets[1]);
        return false;
    }
    auto* told = new (memory) Shared;
    // Nothing buffered may be written twice, by both processes.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    const pid_t parent = ::getpid();
    // A signal that arrives before the parent relays it waits, instead of ending the parent alone.
    const sigset_t relayed = relayed_signals();
    sigset_t before;
    ::sigprocmask(SIG_BLOCK, &relayed, &before);
    const pid_t child = ::fork();
    if (child > 0) {
        shared = told;
        ::close(sockets[1]);
        supervise_work(child, read_record, json);
    }
    ::sigprocmask(SIG_SETMASK, &before, nullptr);
    if (child < 0) {
        ::munmap(memory, sizeof(Shared));
        ::close(sockets[1]);
        return false;
    }
    shared = told;
    // The child dies with its parent, so no work outlives a killed famspec.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) _exit(1);
    channel = sockets[1];
    struct stat status {};
    ::fstat(channel, &status);
    channel_device = status.st_dev;
    channel_inode = status.st_ino;
    worker = ::getpid();
    hand_over_standard_descriptors();
    return true;
}

void watch_entering(const std::string& path, PluginStage stage) {
    if (shared == nullptr) return;
    end_if_copy();
    if (stage < PluginStage::open) return;  // the loader's own checks: no plugin code runs yet
    if (recorded() == WorkState::in_plugin && !delivered) end_if_channel_broken();
    last_path = path;
    last_stage = stage;
    shared->path_size = std::min(path.size(), sizeof shared->path);
    std::memcpy(shared->path, path.data(), shared->path_size);
    shared->stage = static_cast<int>(stage);
    record(WorkState::in_plugin);
}

void watch_loaded() {
    if (shared == nullptr) return;
    end_if_copy();
    if (worker != 0 && !delivered) {
        end_if_channel_broken();
        std::array<int, 2> descriptors{-1, -1};
        if (!receive_descriptors(descriptors)) {
            end_saying("plugin_descriptors",
                       "famspec's stdin and stdout did not reach its work process (a plugin took them while it "
                       "loaded); famspec stops with status 1");
        }
        ::close(channel);
        delivered = true;
        // Received at the lowest free numbers: 0 itself when a plugin closed stdin.
        if (descriptors[0] != 0) {
            ::dup2(descriptors[0], 0);
            ::close(descriptors[0]);
        }
        ::fcntl(0, F_SETFD, 0);
        // The answer above stderr, even when a plugin closed descriptor 1 or 2.
        if (descriptors[1] <= 2) {
            const int moved = ::fcntl(descriptors[1], F_DUPFD_CLOEXEC, 3);
            ::close(descriptors[1]);
            descriptors[1] = moved;
        }
        std::clearerr(stdin);  // a plugin's read of /dev/null left stdin at its end
        std::cin.clear();
        answer_to(descriptors[1]);
    }
    if (recorded() <= WorkState::in_plugin) record(WorkState::loaded);
}

void watch_reported() {
    if (shared == nullptr) return;
    end_if_copy();
    record(WorkState::reported);
}

void watch_said(const std::string& kind, const std::string& message) {
    if (shared == nullptr) return;
    end_if_copy();
    end_saying(kind, message);
}

int watch_finished(int code) {
    end_if_copy();
    if (shared != nullptr) {
        shared->code = code;
        record(WorkState::finished);
    }
    return code;
}

}  // namespace famspec::cli
