// Stand-ins for the sessions of lib/frontier/ (session_io.hpp): an input
// that pauses where the script says, and a sink that keeps what would be
// printed. Both write to one event log, with the fake backends, so tests
// can assert on the order of commits, waits and lines.
#pragma once

#include <string>
#include <vector>

#include "frontier/session_io.hpp"

namespace frontier::test {

// What happened, in order: "begin", "commit", "wait" (a read that would
// block), "line:...", "flush", ...
using EventLog = std::vector<std::string>;

inline size_t find_event(const EventLog& log, const std::string& e, size_t from = 0) {
    for (size_t i = from; i < log.size(); ++i)
        if (log[i] == e) return i;
    return log.size();
}

inline size_t count_events(const EventLog& log, const std::string& prefix) {
    size_t n = 0;
    for (auto& e : log) n += e.compare(0, prefix.size(), prefix) == 0;
    return n;
}

// Input lines from a script: a JSON object or a bare URL per entry; an
// empty entry is a pause (idle() true until the next read, which logs a
// "wait" as a read that would block).
class ScriptSource : public RecordSource {
public:
    ScriptSource(std::vector<std::string> script, EventLog& log) : script_(std::move(script)), log_(log) {}
    bool next(InputLine& line) override {
        while (pos_ < script_.size() && script_[pos_].empty()) {
            log_.push_back("wait");
            ++pos_;
        }
        if (pos_ >= script_.size()) return false;
        const std::string& text = script_[pos_++];
        line = InputLine();
        line.line_no = ++line_no_;
        if (text[0] == '{') {
            if (!parse_record(text, line.record)) line.error = "bad-json";
        } else {
            line.record.set_raw("url", "\"" + text + "\"");
        }
        return true;
    }
    bool idle() override { return pos_ < script_.size() && script_[pos_].empty(); }

private:
    std::vector<std::string> script_;
    size_t pos_ = 0;
    uint64_t line_no_ = 0;
    EventLog& log_;
};

// Keeps the lines and messages a session would print.
class RecordingSink : public SessionSink {
public:
    explicit RecordingSink(EventLog& log) : log_(log) {}
    void line(std::string_view text) override {
        lines.emplace_back(text);
        log_.push_back("line:" + std::string(text));
        ++unflushed_;
    }
    void flush() override {
        log_.push_back("flush");
        unflushed_ = 0;
    }
    void message(std::string_view text) override { messages.emplace_back(text); }
    // Each line since the last flush counts as `line_bytes` held.
    size_t held() const override { return unflushed_ * line_bytes; }

    std::vector<std::string> lines, messages;
    size_t line_bytes = 0;

private:
    EventLog& log_;
    size_t unflushed_ = 0;
};

}  // namespace frontier::test
