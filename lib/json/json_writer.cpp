// JSON output: string escaping, number formatting and JsonWriter.
#include "json/json.hpp"

#include <charconv>
#include <cmath>

namespace frontier {

namespace {

// Byte classes for append_json_string: 0 copied as is, 1 escaped, 2 start
// of a multi-byte sequence (or an invalid byte).
struct ByteClasses {
    unsigned char c[256];
    constexpr ByteClasses() : c() {
        for (int i = 0; i < 256; ++i) c[i] = i < 0x20 || i == '"' || i == '\\' ? 1 : i >= 0x80 ? 2 : 0;
    }
};
constexpr ByteClasses kByteClass;

bool in(unsigned char c, unsigned char lo, unsigned char hi) { return c >= lo && c <= hi; }

// Length of the valid UTF-8 sequence at p (avail bytes left), 0 if invalid
// (overlong forms, surrogates and code points above U+10FFFF are invalid).
size_t utf8_sequence(const unsigned char* p, size_t avail) {
    unsigned char c = p[0];
    if (c < 0xC2) return 0;
    if (c < 0xE0) return avail >= 2 && in(p[1], 0x80, 0xBF) ? 2 : 0;
    if (c < 0xF0) {
        if (avail < 3) return 0;
        unsigned char lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        return in(p[1], lo, hi) && in(p[2], 0x80, 0xBF) ? 3 : 0;
    }
    if (c < 0xF5) {
        if (avail < 4) return 0;
        unsigned char lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        return in(p[1], lo, hi) && in(p[2], 0x80, 0xBF) && in(p[3], 0x80, 0xBF) ? 4 : 0;
    }
    return 0;
}

}  // namespace

void append_json_string(std::string& out, std::string_view s) {
    static const char hex[] = "0123456789abcdef";
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    size_t n = s.size(), i = 0;
    out.reserve(out.size() + n + 2);
    out.push_back('"');
    while (i < n) {
        size_t run = i;
        while (run < n && kByteClass.c[p[run]] == 0) ++run;
        out.append(s.data() + i, run - i);
        i = run;
        if (i == n) break;
        unsigned char c = p[i];
        if (kByteClass.c[c] == 2) {
            size_t len = utf8_sequence(p + i, n - i);
            if (len) {
                out.append(s.data() + i, len);
                i += len;
            } else {
                out.append("\xEF\xBF\xBD");
                ++i;
            }
            continue;
        }
        ++i;
        switch (c) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        case '\b': out.append("\\b"); break;
        case '\f': out.append("\\f"); break;
        default:
            out.append("\\u00");
            out.push_back(hex[c >> 4]);
            out.push_back(hex[c & 15]);
        }
    }
    out.push_back('"');
}

void append_json_int(std::string& out, int64_t v) {
    char buf[24];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    (void)ec;
    out.append(buf, end);
}

void append_json_number(std::string& out, double v) {
    if (!std::isfinite(v)) {
        out.append("null");
        return;
    }
    if (std::fabs(v) <= 9007199254740992.0 && v == std::trunc(v)) {
        append_json_int(out, static_cast<int64_t>(v));
        return;
    }
    char buf[32];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    (void)ec;
    out.append(buf, end);
}

// Separators: first_ is true right after "{", "[" or a key, where the next
// item needs no comma. Closing a container leaves first_ false, because the
// enclosing container now holds at least that item; so no stack is needed.
void JsonWriter::sep() {
    if (!first_) buf_.push_back(',');
    first_ = false;
}

void JsonWriter::begin() {
    buf_.clear();
    buf_.push_back('{');
    first_ = true;
}

void JsonWriter::end() {
    buf_.push_back('}');
    first_ = false;
}

void JsonWriter::key(std::string_view k) {
    sep();
    append_json_string(buf_, k);
    buf_.push_back(':');
    first_ = true;
}

void JsonWriter::field(std::string_view k, std::string_view v) {
    key(k);
    value(v);
}

void JsonWriter::field(std::string_view k, int64_t v) {
    key(k);
    value(v);
}

void JsonWriter::field(std::string_view k, double v) {
    key(k);
    value(v);
}

void JsonWriter::field(std::string_view k, bool v) {
    key(k);
    value(v);
}

void JsonWriter::field_null(std::string_view k) {
    key(k);
    value_raw("null");
}

void JsonWriter::field_raw(std::string_view k, std::string_view json_text) {
    key(k);
    value_raw(json_text);
}

void JsonWriter::value(std::string_view v) {
    sep();
    append_json_string(buf_, v);
}

void JsonWriter::value(int64_t v) {
    sep();
    append_json_int(buf_, v);
}

void JsonWriter::value(double v) {
    sep();
    append_json_number(buf_, v);
}

void JsonWriter::value(bool v) {
    sep();
    buf_.append(v ? "true" : "false");
}

void JsonWriter::value_raw(std::string_view json_text) {
    sep();
    buf_.append(json_text);
}

void JsonWriter::begin_object() {
    sep();
    buf_.push_back('{');
    first_ = true;
}

void JsonWriter::end_object() {
    buf_.push_back('}');
    first_ = false;
}

void JsonWriter::begin_array() {
    sep();
    buf_.push_back('[');
    first_ = true;
}

void JsonWriter::end_array() {
    buf_.push_back(']');
    first_ = false;
}

void append_json_value(std::string& out, const JsonValue& v) {
    if (!v.raw.empty()) {
        out.append(v.raw);
        return;
    }
    switch (v.kind) {
    case JsonValue::Kind::boolean: out.append(v.b ? "true" : "false"); break;
    case JsonValue::Kind::integer: append_json_int(out, v.i); break;
    case JsonValue::Kind::number: append_json_number(out, v.d); break;
    case JsonValue::Kind::string: append_json_string(out, v.s); break;
    default: out.append("null"); break;  // null, or a container without text
    }
}

void JsonWriter::field(std::string_view k, const JsonValue& v) {
    key(k);
    sep();
    append_json_value(buf_, v);
}

void JsonWriter::pass_through(const Record& r, std::initializer_list<std::string_view> skip) {
    for (const JsonField& f : r.fields) {
        bool skipped = false;
        for (std::string_view s : skip) {
            if (f.key == s) {
                skipped = true;
                break;
            }
        }
        if (skipped) continue;
        key(f.key);
        sep();
        append_json_value(buf_, f.value);
    }
}

}  // namespace frontier
