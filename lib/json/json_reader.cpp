// LineReader: JSON-lines input with simdjson On Demand, and the decoding of a
// JSON object into a Record (also used by Record::set_raw).
//
// Throughput, measured 2025-11 on this project's 2-core build host (g++ 12
// -O2, simdjson 3.0.1): next() plus reading "url" and "depth" over a
// page-cached 1,000,000-line file of lines like
// {"url":"http://h1.site3.com/news/post/12?id=5","depth":2} runs at
// 7.5-8.7 million lines/s from the file and 6-7 million lines/s through a
// pipe on stdin, with 21 heap allocations in total (none per line). Without
// -march flags the header-only On Demand code uses simdjson's portable
// "fallback" kernel; it is fast enough for short lines, so we do not dispatch.
//
// Design: one buffer of max_line + kReadSize bytes plus SIMDJSON_PADDING of
// slack, filled with read(2). Lines are found with memchr and parsed in place
// (the slack satisfies simdjson's padding rule, so nothing is copied). A line
// that outgrows max_line switches the reader to "skipping": bytes are read and
// dropped until its newline, so memory stays bounded. The InputLine's field
// vector and strings are reused between lines (spare fields are parked in a
// pool), so a steady stream of similar records allocates nothing.
#include "json/json.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <simdjson.h>
#include <stdexcept>
#include <unistd.h>

#include "core/error.hpp"
#include "core/signals.hpp"

namespace frontier {

namespace od = simdjson::ondemand;

namespace {

// Deeper documents are rejected as "bad-json" (the value simdjson's DOM
// parser uses). The root object is depth 1.
constexpr int kMaxDepth = 1024;
// Minimum free space we want in front of each read(2).
constexpr size_t kReadSize = 1 << 20;

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

std::string_view trim_right(std::string_view s) {
    while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
    return s;
}

// True when `s` is exactly a JSON number (RFC 8259 grammar). Used for numbers
// simdjson refuses to convert (1e400), which are still valid JSON.
bool json_number_grammar(std::string_view s) {
    size_t i = 0, n = s.size();
    auto digit = [&](size_t k) { return k < n && s[k] >= '0' && s[k] <= '9'; };
    if (i < n && s[i] == '-') ++i;
    if (i < n && s[i] == '0') {
        ++i;
    } else if (digit(i)) {
        while (digit(i)) ++i;
    } else {
        return false;
    }
    if (i < n && s[i] == '.') {
        if (!digit(++i)) return false;
        while (digit(i)) ++i;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
        if (!digit(i)) return false;
        while (digit(i)) ++i;
    }
    return i == n;
}

// Converts a grammatical JSON number that simdjson would not (out of range):
// overflow becomes +-infinity, underflow +-0.
double out_of_range_number(std::string_view s) {
    double d = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
    (void)p;
    if (ec == std::errc()) return d;
    bool negative = !s.empty() && s[0] == '-';
    size_t e = s.find_first_of("eE");
    bool tiny = e != std::string_view::npos && e + 1 < s.size() && s[e + 1] == '-';
    double mag = tiny ? 0.0 : HUGE_VAL;
    return negative ? -mag : mag;
}

bool validate_value(od::value v, int depth);

// Walks a container completely so that every nested token is checked (On
// Demand only validates what it visits).
bool validate_container(od::value& v, od::json_type t, int depth) {
    if (depth > kMaxDepth) return false;
    if (t == od::json_type::object) {
        od::object obj;
        if (v.get_object().get(obj)) return false;
        for (auto f : obj) {
            od::field field;
            std::string_view key;
            if (std::move(f).get(field) || field.unescaped_key().get(key)) return false;
            if (!validate_value(field.value(), depth + 1)) return false;
        }
    } else {
        od::array arr;
        if (v.get_array().get(arr)) return false;
        for (auto e : arr) {
            od::value elem;
            if (std::move(e).get(elem) || !validate_value(elem, depth + 1)) return false;
        }
    }
    return true;
}

bool validate_value(od::value v, int depth) {
    od::json_type t;
    if (v.type().get(t)) return false;
    switch (t) {
    case od::json_type::object:
    case od::json_type::array:
        return validate_container(v, t, depth);
    case od::json_type::string: {
        std::string_view s;
        return !v.get_string().get(s);
    }
    case od::json_type::number: {
        double d;
        return !v.get_double().get(d) || json_number_grammar(trim_right(v.raw_json_token()));
    }
    case od::json_type::boolean: {
        bool b;
        return !v.get_bool().get(b);
    }
    case od::json_type::null: {
        bool is_null = false;
        return !v.is_null().get(is_null) && is_null;
    }
    }
    return false;
}

// Decodes one field value (at depth `depth`) into `out`, including its raw
// text. False when the value is not valid JSON.
bool decode_value(od::value v, JsonValue& out, int depth) {
    out.b = false;
    out.i = 0;
    out.d = 0;
    out.s.clear();
    std::string_view token = v.raw_json_token();
    od::json_type t;
    if (v.type().get(t)) return false;
    switch (t) {
    case od::json_type::object:
    case od::json_type::array: {
        if (!validate_container(v, t, depth)) return false;
        const char* end;
        if (v.current_location().get(end)) return false;
        out.kind = t == od::json_type::object ? JsonValue::Kind::object : JsonValue::Kind::array;
        out.raw.assign(trim_right(std::string_view(token.data(), size_t(end - token.data()))));
        return true;
    }
    case od::json_type::string: {
        std::string_view s;
        if (v.get_string().get(s)) return false;
        out.kind = JsonValue::Kind::string;
        out.s.assign(s);
        break;
    }
    case od::json_type::number: {
        int64_t i;
        if (!v.get_int64().get(i)) {
            out.kind = JsonValue::Kind::integer;
            out.i = i;
            out.d = static_cast<double>(i);
            break;
        }
        double d;
        if (v.get_double().get(d)) {
            if (!json_number_grammar(trim_right(token))) return false;
            d = out_of_range_number(trim_right(token));
        }
        out.kind = JsonValue::Kind::number;
        out.d = d;
        if (d >= -9223372036854775808.0 && d < 9223372036854775808.0 && d == std::trunc(d))
            out.i = static_cast<int64_t>(d);
        break;
    }
    case od::json_type::boolean: {
        bool b;
        if (v.get_bool().get(b)) return false;
        out.kind = JsonValue::Kind::boolean;
        out.b = b;
        break;
    }
    case od::json_type::null: {
        bool is_null = false;
        if (v.is_null().get(is_null) || !is_null) return false;
        out.kind = JsonValue::Kind::null;
        break;
    }
    }
    out.raw.assign(trim_right(token));
    return true;
}

// Reuses record fields across lines: slot `idx` of `r`, taken from `spare`
// (a pool of parked fields with their string capacity) when `r` is short.
JsonField& field_slot(Record& r, size_t idx, std::vector<JsonField>& spare) {
    if (idx < r.fields.size()) return r.fields[idx];
    if (!spare.empty()) {
        r.fields.push_back(std::move(spare.back()));
        spare.pop_back();
    } else {
        r.fields.emplace_back();
    }
    return r.fields.back();
}

// Shrinks `r` to `n` fields, parking the rest in `spare`.
void truncate_fields(Record& r, size_t n, std::vector<JsonField>& spare) {
    while (r.fields.size() > n) {
        spare.push_back(std::move(r.fields.back()));
        r.fields.pop_back();
    }
}

// Parses the object document `json` (with `capacity` readable bytes, at least
// SIMDJSON_PADDING beyond its end) into `r`. Returns "" or an error reason.
const char* parse_object(od::parser& parser, const char* json, size_t len, size_t capacity, Record& r,
                         std::vector<JsonField>& spare) {
    od::document doc;
    auto err = parser.iterate(json, len, capacity).get(doc);
    if (err == simdjson::UTF8_ERROR) return "bad-utf8";
    if (err) return "bad-json";
    od::object obj;
    if (doc.get_object().get(obj)) return "bad-json";
    size_t n = 0;
    for (auto f : obj) {
        od::field field;
        std::string_view key;
        if (std::move(f).get(field) || field.unescaped_key().get(key)) return "bad-json";
        JsonField& slot = field_slot(r, n++, spare);
        slot.key.assign(key);
        if (!decode_value(field.value(), slot.value, 2)) return "bad-json";
    }
    truncate_fields(r, n, spare);
    // Anything after the closing brace is trailing garbage.
    const char* loc;
    if (doc.current_location().get(loc) != simdjson::OUT_OF_BOUNDS) return "bad-json";
    return "";
}

}  // namespace

void Record::set_raw(std::string_view key, std::string_view json_text) {
    static thread_local od::parser parser;
    std::string wrapped;
    wrapped.reserve(json_text.size() + 2);
    wrapped.append("[").append(json_text).append("]");
    simdjson::padded_string padded(wrapped);
    JsonValue v;
    od::document doc;
    od::array arr;
    bool ok = !parser.iterate(padded).get(doc) && !doc.get_array().get(arr);
    size_t count = 0;
    if (ok) {
        for (auto e : arr) {
            od::value elem;
            if (std::move(e).get(elem) || ++count > 1 || !decode_value(elem, v, 2)) {
                ok = false;
                break;
            }
        }
    }
    const char* loc;
    if (!ok || count != 1 || doc.current_location().get(loc) != simdjson::OUT_OF_BOUNDS)
        throw std::invalid_argument("Record::set_raw: invalid JSON for key " + std::string(key));
    for (auto it = fields.rbegin(); it != fields.rend(); ++it) {
        if (it->key == key) {
            it->value = std::move(v);
            return;
        }
    }
    fields.push_back(JsonField{std::string(key), std::move(v)});
}

bool parse_record(std::string_view json_object_text, Record& out) {
    static thread_local od::parser parser;
    simdjson::padded_string padded(json_object_text);
    std::vector<JsonField> spare;
    const char* err = parse_object(parser, padded.data(), padded.size(), padded.size() + simdjson::SIMDJSON_PADDING, out, spare);
    if (*err) {
        out.fields.clear();
        return false;
    }
    return true;
}

struct LineReader::Impl {
    std::vector<std::string> paths;
    size_t next_path = 0;
    std::string path;  // current input, for messages
    int fd = -1;       // current input, -1 between inputs
    bool own_fd = false;
    size_t max_line;
    size_t cap;                   // usable bytes of buf (padding follows)
    std::unique_ptr<char[]> buf;  // cap + SIMDJSON_PADDING bytes
    size_t begin = 0;             // start of the first unconsumed line
    size_t scan = 0;              // [begin, scan) holds no '\n'
    size_t end = 0;               // end of buffered data
    bool skipping = false;        // inside an over-long line, dropping bytes
    uint64_t line_no = 0;
    od::parser parser;
    std::vector<JsonField> spare;

    Impl(std::vector<std::string> p, size_t ml)
        : paths(std::move(p)),
          max_line(ml),
          cap(ml + 2 + kReadSize),
          buf(new char[cap + simdjson::SIMDJSON_PADDING]()) {
        if (paths.empty()) paths.push_back("-");
    }
    ~Impl() { close_input(); }

    void close_input() {
        if (own_fd) ::close(fd);
        fd = -1;
        own_fd = false;
    }

    // Opens the next input; false when there is none.
    bool open_next() {
        if (next_path == paths.size()) return false;
        path = paths[next_path++];
        if (path == "-") {
            fd = 0;
            return true;
        }
        fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) throw IoError("cannot open " + path + ": " + std::strerror(errno));
        own_fd = true;
        return true;
    }

    void set_error(InputLine& out, const char* reason) {
        out.error = reason;
        truncate_fields(out.record, 0, spare);
    }

    // Decodes the line [p, p+n) (without '\n'). False for a blank line.
    bool decode_line(const char* p, size_t n, InputLine& out) {
        out.line_no = line_no;
        out.error.clear();
        if (n > 0 && p[n - 1] == '\r') --n;
        if (n > max_line) return set_error(out, "line-too-long"), true;
        if (std::memchr(p, 0, n)) return set_error(out, "nul-byte"), true;
        size_t i = 0;
        while (i < n && is_blank(p[i])) ++i;
        if (i == n) return false;
        if (p[i] == '{') {
            size_t capacity = size_t(buf.get() + cap + simdjson::SIMDJSON_PADDING - p);
            const char* err = parse_object(parser, p, n, capacity, out.record, spare);
            if (*err) set_error(out, err);
            return true;
        }
        if (!simdjson::validate_utf8(p, n)) return set_error(out, "bad-utf8"), true;
        std::string_view url = trim_right(std::string_view(p + i, n - i));
        JsonField& f = field_slot(out.record, 0, spare);
        truncate_fields(out.record, 1, spare);
        f.key.assign("url");
        f.value.kind = JsonValue::Kind::string;
        f.value.b = false;
        f.value.i = 0;
        f.value.d = 0;
        f.value.s.assign(url);
        f.value.raw.clear();
        append_json_string(f.value.raw, url);
        return true;
    }

    // Makes room for at least kReadSize bytes at `end`.
    void make_room() {
        if (cap - end >= kReadSize) return;
        size_t keep = end - begin;
        std::memmove(buf.get(), buf.get() + begin, keep);
        scan -= begin;
        begin = 0;
        end = keep;
    }
};

LineReader::LineReader(std::vector<std::string> paths, size_t max_line)
    : impl_(std::make_unique<Impl>(std::move(paths), max_line)) {}

LineReader::~LineReader() = default;

bool LineReader::next(InputLine& out) {
    Impl& m = *impl_;
    for (;;) {
        // A complete line in the buffer?
        if (m.scan < m.end) {
            char* base = m.buf.get();
            auto* nl = static_cast<char*>(std::memchr(base + m.scan, '\n', m.end - m.scan));
            if (nl) {
                size_t start = m.begin;
                m.begin = m.scan = size_t(nl - base) + 1;
                ++m.line_no;
                if (m.skipping) {
                    m.skipping = false;
                    out.line_no = m.line_no;
                    m.set_error(out, "line-too-long");
                    return true;
                }
                if (m.decode_line(base + start, size_t(nl - base) - start, out)) return true;
                continue;
            }
            m.scan = m.end;
            // "+ 1": a '\r' before the '\n' does not count.
            if (m.skipping || m.end - m.begin > m.max_line + 1) {
                m.skipping = true;
                m.begin = m.scan = m.end = 0;
            }
        }
        if (m.fd < 0) {
            if (!m.open_next()) return false;
            continue;
        }
        m.make_room();
        ssize_t got = ::read(m.fd, m.buf.get() + m.end, m.cap - m.end);
        if (got > 0) {
            m.end += size_t(got);
            continue;
        }
        if (got < 0) {
            if (errno != EINTR) throw IoError("cannot read " + (m.path == "-" ? std::string("stdin") : m.path) + ": " + std::strerror(errno));
            if (stop_requested()) return false;
            continue;
        }
        // End of this input: a last line without '\n' is still a line.
        m.close_input();
        if (m.skipping || m.end > m.begin) {
            size_t start = m.begin, stop = m.end;
            bool too_long = m.skipping;
            m.skipping = false;
            m.begin = m.scan = m.end = 0;
            ++m.line_no;
            if (too_long) {
                out.line_no = m.line_no;
                m.set_error(out, "line-too-long");
                return true;
            }
            // The data stays in place until the next read, after we return.
            if (m.decode_line(m.buf.get() + start, stop - start, out)) return true;
        }
    }
}

bool LineReader::idle() {
    Impl& m = *impl_;
    if (m.scan < m.end && std::memchr(m.buf.get() + m.scan, '\n', m.end - m.scan)) return false;
    if (m.fd < 0) return false;  // between inputs or finished: next() returns promptly
    pollfd p{m.fd, POLLIN, 0};
    int r = ::poll(&p, 1, 0);
    return r == 0;
}

}  // namespace frontier
