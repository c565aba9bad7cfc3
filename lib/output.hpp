// Buffered stdout for JSON-lines data. EPIPE becomes BrokenPipe (a quiet,
// clean stop); any other write error is an IoError.
#pragma once

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

private:
    std::string buf_;
};

// The process-wide stdout writer.
Output& out();

// "tool-name: message" on stderr.
void diag(std::string_view message);
// The tool name used by diag() (set by the runner).
void set_tool_name(std::string_view name);
const std::string& tool_name();

}  // namespace frontier
