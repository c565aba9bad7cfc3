// JSON-lines input (simdjson On Demand) and a small, correct JSON writer.
//
// Every tool reads records through LineReader and writes them with JsonWriter.
// Per-line problems (bad JSON, invalid UTF-8, NUL bytes, over-long lines) are
// data: the InputLine carries an `error` reason and the stream goes on.
#pragma once

#include <cstdint>
#include <cstdio>
#include <initializer_list>
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
    // (Also: get_number and get_time refuse non-finite values such as 1e400,
    // and get_time accepts a decimal string of epoch seconds, "1795000000".)
    std::optional<std::string> get_string(std::string_view key) const;
    std::optional<int64_t> get_int(std::string_view key) const;
    std::optional<double> get_number(std::string_view key) const;
    std::optional<bool> get_bool(std::string_view key) const;
    std::optional<double> get_time(std::string_view key) const;

    // Sets or replaces a field from a raw JSON text (used by tests and tools
    // that build records). The value is decoded as the reader would decode
    // it; its raw text is `json_text` minus surrounding whitespace. Throws
    // std::invalid_argument when `json_text` is not one valid JSON value.
    void set_raw(std::string_view key, std::string_view json_text);
};

// About the memory a record's text takes (keys and raw values).
size_t record_bytes(const Record& r);

// Parses the JSON text of one object into `out` (fields replaced), with the
// same value decoding as LineReader. Returns false (and leaves `out` empty)
// when the text is not a valid JSON object.
bool parse_record(std::string_view json_object_text, Record& out);

// Parses an RFC 3339 / ISO 8601 timestamp ("2024-05-01T12:00:00Z",
// "2024-05-01T12:00:00.5+02:00", "2024-05-01") to epoch seconds.
// Accepted: a date alone (midnight UTC); date and time separated by 'T', 't'
// or a space; seconds optional ("12:00"); a fraction after '.' or ','; zone
// 'Z'/'z', +hh:mm, -hh:mm or +hhmm, or none (taken as UTC). Surrounding
// whitespace is ignored. Fields are range-checked (Feb 30 and 24:00 are
// refused; a leap second :60 is accepted). nullopt on anything else.
// Thread-safe.
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
// A trailing '\r' is stripped (CRLF input); a last line without '\n' is a
// line. Checks, in order: length ("line-too-long"), NUL bytes ("nul-byte"),
// UTF-8 ("bad-utf8"), then JSON syntax ("bad-json": invalid JSON, trailing
// text after the object, nesting deeper than 1024, or a number that is not
// JSON). "not-object" is never produced: a '{' line is an object or bad-json.
// Every nested value is validated, so `raw` texts are always valid JSON.
// Inputs are opened one at a time when reached; an empty `paths` means stdin.
// Memory: about max_line + 1 MiB of buffer. Not thread-safe; one reader per
// thread.
class LineReader {
public:
    explicit LineReader(std::vector<std::string> paths, size_t max_line = 1 << 20);
    ~LineReader();
    LineReader(const LineReader&) = delete;
    LineReader& operator=(const LineReader&) = delete;

    // Fills `out` with the next non-blank line; false at the end of all input.
    // Throws IoError when a file cannot be opened or read. A blocking read
    // interrupted by SIGINT/SIGTERM (stop_requested(), signals.hpp) also
    // returns false. `out` is reused: its strings and field vector keep their
    // capacity, so pass the same InputLine each time.
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
// Integral doubles up to 2^53 in magnitude print without a fraction (12.0 ->
// 12); larger ones in exponent form (1e+20).
void append_json_number(std::string& out, double v);
void append_json_int(std::string& out, int64_t v);

// Appends `v` as JSON: its raw text when set, else encoded from its kind and
// decoded scalar (an object or array without raw text becomes null).
void append_json_value(std::string& out, const JsonValue& v);

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
    void field(std::string_view k, const JsonValue& v);  // a value read by the JSON reader
    // Values inside arrays / after key():
    void value(std::string_view v);
    void value(const char* v) { value(std::string_view(v)); }  // not bool
    void value(const std::string& v) { value(std::string_view(v)); }
    void value(int64_t v);
    void value(int v) { value(static_cast<int64_t>(v)); }
    void value(uint64_t v) { value(static_cast<int64_t>(v)); }
    void value(double v);
    void value(bool v);
    void value_raw(std::string_view json_text);
    void begin_object();                   // as a value
    void end_object();
    void begin_array();
    void end_array();
    // Writes every field of `r` whose key is not in `skip` (raw text kept;
    // a value without raw text is encoded, see append_json_value).
    // Strings passed to key()/field()/value() are escaped with
    // append_json_string; *_raw texts are written unchecked.
    void pass_through(const Record& r, std::initializer_list<std::string_view> skip);
    const std::string& str() const { return buf_; }
    // The text written, moved out (the writer is empty afterwards).
    std::string take() {
        first_ = true;
        return std::move(buf_);
    }

private:
    void sep();
    std::string buf_;
    bool first_ = true;
};

}  // namespace frontier
