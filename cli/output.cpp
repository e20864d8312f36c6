#include "output.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <streambuf>

#include "escape.hpp"

namespace famspec::cli {
namespace {

// A buffered stream on a descriptor that remembers the first write error.
class DescriptorBuffer : public std::streambuf {
public:
    DescriptorBuffer(int fd, bool escape) : fd_(fd), escape_(escape) {
        setp(buffer_.data(), buffer_.data() + buffer_.size());
    }

    void set_escape(bool on) {
        sync();
        escape_ = on;
    }
    int error() const { return error_; }
    void set_descriptor(int fd) {
        sync();
        fd_ = fd;
    }
    // The descriptor was closed when famspec started (and now holds /dev/null): writing is an error.
    void mark_closed() { closed_ = true; }

protected:
    int_type overflow(int_type c) override {
        if (sync() != 0) return traits_type::eof();
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }

    int sync() override {
        const std::string_view pending(pbase(), static_cast<std::size_t>(pptr() - pbase()));
        setp(buffer_.data(), buffer_.data() + buffer_.size());
        if (pending.empty() || error_ != 0) return error_ == 0 ? 0 : -1;
        if (closed_) error_ = EBADF;
        if (error_ == 0) error_ = write_all(fd_, escape_ ? escape_control_keep_lines(pending) : std::string(pending));
        return error_ == 0 ? 0 : -1;
    }

private:
    int fd_;
    bool escape_;
    int error_ = 0;
    bool closed_ = false;
    std::array<char, 8192> buffer_{};
};

DescriptorBuffer* out_buffer = nullptr;
DescriptorBuffer* err_buffer = nullptr;
bool stdin_closed = false;

// A standard descriptor that was closed gets /dev/null, so the next file famspec opens cannot take
// its number and receive its output. Returns whether it was closed.
bool occupy_if_closed(int fd) {
    if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF) return false;
    const int null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    if (null >= 0 && null != fd) {
        dup2(null, fd);
        close(null);
    }
    return true;
}

}  // namespace

void install_output() {
    stdin_closed = occupy_if_closed(0);
    const bool stdout_closed = occupy_if_closed(1);
    occupy_if_closed(2);
    signal(SIGPIPE, SIG_IGN);
    // Never destroyed: whatever prints from a static destructor still has a stream.
    out_buffer = new DescriptorBuffer(1, true);
    err_buffer = new DescriptorBuffer(2, true);
    if (stdout_closed) out_buffer->mark_closed();
    std::cout.rdbuf(out_buffer);
    std::cerr.rdbuf(err_buffer);
    std::cerr.setf(std::ios::unitbuf);
}

bool stdin_was_closed() { return stdin_closed; }

void escape_stdout(bool on) {
    if (out_buffer != nullptr) out_buffer->set_escape(on);
}

int write_all(int fd, std::string_view text) {
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return n < 0 ? errno : EIO;
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    return 0;
}

int finish_output(int code) {
    std::cout.flush();
    std::cerr.flush();
    if (out_buffer == nullptr || (out_buffer->error() == 0 && std::cout)) return code;
    const int error = out_buffer->error() != 0 ? out_buffer->error() : EIO;
    std::cerr << "famspec: error: cannot write the output to stdout: " << std::strerror(error) << "\n";
    std::cerr.flush();
    return 2;
}

}  // namespace famspec::cli
