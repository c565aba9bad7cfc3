// Buffered stdout for JSON-lines data. EPIPE becomes BrokenPipe (a quiet,
// clean stop); any other write error is an IoError.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace frontier {

class Output {
public:
    // Writes `line` plus '\n' to the buffer; flushes when the buffer is large.
    void write_line(std::string_view line);
    // Writes buffered data to fd 1. Call before waiting for input or time.
    void flush();
    bool empty() const { return buf_.empty(); }
    // While held, write_line never flushes by itself: a tool that prints
    // results before it commits them holds them until the commit, so a crash
    // never shows a result the frontier file does not have.
    void hold(bool on) { hold_ = on; }
    size_t size() const { return buf_.size(); }
    // Drops buffered lines (results of a transaction that was rolled back).
    void discard() { buf_.clear(); }

private:
    std::string buf_;
    bool hold_ = false;
};

// The process-wide stdout writer.
Output& out();

// Holds out() (see Output::hold) for its lifetime; when left by an
// exception, the held lines are dropped: their transaction was rolled back.
// Tools that print before they commit flush right after each commit and
// commit once size() passes kMaxHeldOutput.
struct HeldOutput {
    static constexpr size_t kMaxHeldOutput = 4u << 20;
    HeldOutput() { out().hold(true); }
    ~HeldOutput();
    HeldOutput(const HeldOutput&) = delete;
    HeldOutput& operator=(const HeldOutput&) = delete;
};

// When a tool that writes records in batches commits: after `batch`
// records, once the held output passes `max_output` (kMaxHeldOutput unless
// the tool gives another), or after about
// kMaxSeconds of work, so that other tools on the frontier never wait for
// the write lock much longer than that (the clock is read every 256 records).
class TxPacer {
public:
    static constexpr double kMaxSeconds = 1.0;
    explicit TxPacer(int64_t batch, size_t max_output = HeldOutput::kMaxHeldOutput)
        : batch_(batch), max_output_(max_output) {
        restart();
    }
    void restart();  // a transaction began
    // Counts one record, with `held` bytes of output waiting for the commit
    // (SessionSink::held); true when the transaction should be committed now.
    bool record(size_t held);
    int64_t in_batch() const { return n_; }

private:
    int64_t batch_, n_ = 0;
    size_t max_output_;
    double start_ = 0;
};

// Writes `data` to `path` through `path`.tmp renamed over it, so that a
// reader never sees half a file (a report page, a summary). Throws IoError.
void write_file_replacing(const std::string& path, std::string_view data);

// "tool-name: message" on stderr.
void diag(std::string_view message);

// For progress lines: a monotonic clock in seconds, and "1234/s" for n
// things in secs seconds.
double monotonic_seconds();
std::string per_second(int64_t n, double secs);
// The tool name used by diag() (set by the runner).
void set_tool_name(std::string_view name);
const std::string& tool_name();

}  // namespace frontier
