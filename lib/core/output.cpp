#include "core/output.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <unistd.h>

#include "core/error.hpp"

namespace frontier {

namespace {
std::string g_tool = "frontier";
}

void Output::write_line(std::string_view line) {
    buf_.append(line);
    buf_.push_back('\n');
    if (!hold_ && buf_.size() >= (1u << 16)) flush();
}

void Output::flush() {
    size_t off = 0;
    while (off < buf_.size()) {
        ssize_t n = ::write(1, buf_.data() + off, buf_.size() - off);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EPIPE) {
                buf_.clear();
                throw BrokenPipe();
            }
            std::string msg = std::string("cannot write to standard output: ") + std::strerror(errno);
            buf_.clear();
            throw IoError(msg);
        }
        off += static_cast<size_t>(n);
    }
    buf_.clear();
}

HeldOutput::~HeldOutput() {
    if (std::uncaught_exceptions() > 0) out().discard();
    out().hold(false);
}

Output& out() {
    static Output o;
    return o;
}

void set_tool_name(std::string_view name) { g_tool = std::string(name); }
const std::string& tool_name() { return g_tool; }

void write_file_replacing(const std::string& path, std::string_view data) {
    const std::string tmp = path + ".tmp";
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw IoError("cannot write " + tmp + ": " + std::strerror(errno));
    const bool written = std::fwrite(data.data(), 1, data.size(), f) == data.size();
    if (std::fclose(f) != 0 || !written) {
        std::remove(tmp.c_str());
        throw IoError("cannot write " + tmp);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        throw IoError("cannot rename " + tmp + " to " + path + ": " + std::strerror(errno));
    }
}

void diag(std::string_view message) {
    // On a terminal, erase the line first: another tool of the pipeline (fetch)
    // may have left its live progress line there without a newline.
    static const bool tty = ::isatty(2) == 1;
    std::string line = (tty ? "\r\033[K" : "") + g_tool + ": " + std::string(message) + "\n";
    (void)!::write(2, line.data(), line.size());
}

double monotonic_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string per_second(int64_t n, double secs) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.0f/s", secs > 0 ? double(n) / secs : 0.0);
    return buf;
}

void TxPacer::restart() {
    n_ = 0;
    start_ = monotonic_seconds();
}

bool TxPacer::record(size_t held) {
    ++n_;
    if (n_ >= batch_ || held >= max_output_) return true;
    return (n_ & 255) == 0 && monotonic_seconds() - start_ >= kMaxSeconds;
}

}  // namespace frontier
