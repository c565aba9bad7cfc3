// What a session (lib/frontier/*_session.hpp, lease_follower.hpp) reads and
// prints through, so that unit tests can feed it records and see what it
// would print: a source of input lines, a sink for data lines and
// messages, and the stop check. Tools pass the adapters over LineReader,
// stdout and the signal flag.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/output.hpp"
#include "core/signals.hpp"
#include "json/json.hpp"

namespace frontier {

// Input lines, as LineReader gives them.
class RecordSource {
public:
    virtual ~RecordSource() = default;
    // The next line; false at the end of the input (or on a stop signal).
    virtual bool next(InputLine& line) = 0;
    // True when reading would block: sessions commit and flush first.
    virtual bool idle() = 0;
};

// RecordSource over files or stdin ("-"; stdin when `paths` is empty),
// lines of at most `max_line` bytes (LineReader).
class ReaderSource : public RecordSource {
public:
    explicit ReaderSource(const std::vector<std::string>& paths, size_t max_line = 1 << 20)
        : reader_(paths.empty() ? std::vector<std::string>{"-"} : paths, max_line) {}
    bool next(InputLine& line) override { return reader_.next(line); }
    bool idle() override { return reader_.idle(); }

private:
    LineReader reader_;
};

// Where a session's output goes: data lines (stdout) and messages (stderr).
class SessionSink {
public:
    virtual ~SessionSink() = default;
    virtual void line(std::string_view text) = 0;  // one data line
    virtual void flush() = 0;                      // before any wait: lines so far are out
    virtual void message(std::string_view text) = 0;
    // Bytes of data lines written but not yet flushed (TxPacer::record).
    virtual size_t held() const { return 0; }
};

// SessionSink over out() and diag(). With `held`, lines stay buffered
// until flush() (HeldOutput): a session that prints results before it
// commits them flushes right after each commit, so no line shows what the
// frontier does not have.
class StdoutSink : public SessionSink {
public:
    explicit StdoutSink(bool held = false) : held_(held ? std::make_unique<HeldOutput>() : nullptr) {}
    void line(std::string_view text) override { out().write_line(text); }
    void flush() override { out().flush(); }
    void message(std::string_view text) override { diag(text); }
    size_t held() const override { return out().size(); }

private:
    std::unique_ptr<HeldOutput> held_;
};

// The stop check sessions poll between records and batches.
using StopCheck = std::function<bool()>;
inline StopCheck signal_stop() {
    return [] { return stop_requested(); };
}

}  // namespace frontier
