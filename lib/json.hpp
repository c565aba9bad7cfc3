// JSON-lines input (simdjson On Demand) and a small, correct JSON writer.
//
// Every tool reads records through LineReader and writes them with JsonWriter.
// Per-line problems (bad JSON, invalid UTF-8, NUL bytes, over-long lines) are
// data: the InputLine carries an `error` reason and the stream goes on.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace frontier {

// One value of an input record. Scalars are decoded; every value also keeps
// its JSON text (`raw`, as in the input, minus surrounding whitespace) so keys
// a tool does not own can be written back verbatim.
struct JsonValue {
    enum class Kind { null, boolean, integer, number, string, object, array };
    Kind kind = Kind::null;
    bool b = false;
    int64_t i = 0;      // Kind::integer (also set for integer-valued numbers that fit)
    double d = 0;       // Kind::integer and Kind::number
    std::string s;      // Kind::string, unescaped UTF-8
    std::string raw;    // JSON text of the value
};

struct JsonField {
    std::string key;
    JsonValue value;
};

// Thrown by Record's typed getters when a present, non-null value has the
// wrong type. Callers turn it into a per-record rejection (reason
// "bad-field"), never a stopped stream.
struct FieldTypeError {
    std::string key;
    std::string expected;  // "string", "integer", "number", "boolean", "time"
};

// One input record: the fields of a JSON object, in input order. A bare-URL
// line becomes a record with the single field "url".
class Record {
public:
    std::vector<JsonField> fields;

    // The value for `key`, or nullptr when absent. Duplicate keys: the last wins.
    const JsonValue* find(std::string_view key) const;
    bool has(std::string_view key) const { return find(key) != nullptr; }

    // Typed getters: nullopt when absent or null; FieldTypeError when of
    // another type. get_int accepts integral numbers (3.0) but not 3.5.
    // get_time accepts epoch seconds (number) or an RFC 3339 string.
    std::optional<std::string> get_string(std::string_view key) const;
    std::optional<int64_t> get_int(std::string_view key) const;
    std::optional<double> get_number(std::string_view key) const;
    std::optional<bool> get_bool(std::string_view key) const;
    std::optional<double> get_time(std::string_view key) const;

    // Sets or replaces a field from a raw JSON text (used by tests and tools
    // that build records).
    void set_raw(std::string_view key, std::string_view json_text);
};

// Parses an RFC 3339 / ISO 8601 timestamp ("2024-05-01T12:00:00Z",
// "2024-05-01T12:00:00.5+02:00", "2024-05-01") to epoch seconds.
std::optional<double> parse_rfc3339(std::string_view text);

// True when `s` is valid UTF-8 (no overlongs, no surrogates, <= U+10FFFF).
bool valid_utf8(std::string_view s);

// One line of input, numbered from 1 across all inputs of a reader.
struct InputLine {
    uint64_t line_no = 0;
    std::string error;  // empty when `record` is valid, else a reason:
                        // "bad-json", "bad-utf8", "nul-byte", "line-too-long", "not-object"
    Record record;
};

// Reads JSON-lines from files ("-" = stdin) in order. A line whose first
// non-blank character is not '{' is a bare URL (surrounding whitespace
// trimmed). Blank lines are skipped but counted. Lines longer than
// `max_line` bytes are consumed to their end and reported as
// "line-too-long" without being held in memory.
// Not thread-safe; one reader per thread.
class LineReader {
public:
    explicit LineReader(std::vector<std::string> paths, size_t max_line = 1 << 20);
    ~LineReader();
    LineReader(const LineReader&) = delete;
    LineReader& operator=(const LineReader&) = delete;

    // Fills `out` with the next non-blank line; false at the end of all input.
    // Throws IoError when a file cannot be opened or read.
    bool next(InputLine& out);

    // True when no complete line is buffered and the current input has no
    // data ready (reading would block). Tools commit and flush when idle.
    bool idle();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Appends `s` to `out` as a JSON string literal: quotes, backslash and
// control characters escaped (\n, \t, \u001f...), valid UTF-8 kept as is,
// invalid bytes replaced by U+FFFD.
void append_json_string(std::string& out, std::string_view s);

// Appends a number: integers exactly, doubles in the shortest form that
// reads back the same (12.5, 1795000012.4); NaN and infinities as null.
void append_json_number(std::string& out, double v);
void append_json_int(std::string& out, int64_t v);

// Builds one JSON object per line. Usage:
//   JsonWriter w; w.begin(); w.field("url", u); w.field("priority", 12); w.end();
//   out.write_line(w.str());
// begin() clears the buffer. Nested objects/arrays via begin_object/array.
class JsonWriter {
public:
    void begin();                          // clear, then "{"
    void end();                            // "}"
    void key(std::string_view k);          // writes separator and "k":
    void field(std::string_view k, std::string_view v);
    void field(std::string_view k, const char* v) { field(k, std::string_view(v)); }
    void field(std::string_view k, const std::string& v) { field(k, std::string_view(v)); }
    void field(std::string_view k, int64_t v);
    void field(std::string_view k, int v) { field(k, static_cast<int64_t>(v)); }
    void field(std::string_view k, uint64_t v) { field(k, static_cast<int64_t>(v)); }
    void field(std::string_view k, double v);
    void field(std::string_view k, bool v);
    void field_null(std::string_view k);
    void field_raw(std::string_view k, std::string_view json_text);
    // Values inside arrays / after key():
    void value(std::string_view v);
    void value(int64_t v);
    void value(double v);
    void value(bool v);
    void value_raw(std::string_view json_text);
    void begin_object();                   // as a value
    void end_object();
    void begin_array();
    void end_array();
    // Writes every field of `r` whose key is not in `skip` (raw text kept).
    void pass_through(const Record& r, std::initializer_list<std::string_view> skip);
    const std::string& str() const { return buf_; }

private:
    void sep();
    std::string buf_;
    bool first_ = true;
};

}  // namespace frontier
