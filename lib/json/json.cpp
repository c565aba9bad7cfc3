// Record lookups and typed getters, RFC 3339 timestamps, UTF-8 validation.
// The reader is in json_reader.cpp, the writer in json_writer.cpp.
#include "json/json.hpp"

#include <charconv>
#include <cmath>
#include <ctime>
#include <simdjson.h>

namespace frontier {

namespace {

bool fits_int64(double d) {
    return d >= -9223372036854775808.0 && d < 9223372036854775808.0 && d == std::trunc(d);
}

[[noreturn]] void type_error(std::string_view key, const char* expected) {
    throw FieldTypeError{std::string(key), expected};
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Reads exactly `n` digits at s[pos]; advances pos.
bool read_digits(std::string_view s, size_t& pos, size_t n, int& value) {
    if (pos + n > s.size()) return false;
    value = 0;
    for (size_t k = 0; k < n; ++k) {
        char c = s[pos + k];
        if (c < '0' || c > '9') return false;
        value = value * 10 + (c - '0');
    }
    pos += n;
    return true;
}

int days_in_month(int year, int month) {
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month == 2 && leap ? 29 : days[month - 1];
}

}  // namespace

size_t record_bytes(const Record& r) {
    size_t n = 0;
    for (const JsonField& f : r.fields) n += f.key.size() + f.value.raw.size() + f.value.s.size();
    return n;
}

const JsonValue* Record::find(std::string_view key) const {
    for (auto it = fields.rbegin(); it != fields.rend(); ++it)
        if (it->key == key) return &it->value;
    return nullptr;
}

std::optional<std::string> Record::get_string(std::string_view key) const {
    const JsonValue* v = find(key);
    if (!v || v->kind == JsonValue::Kind::null) return std::nullopt;
    if (v->kind != JsonValue::Kind::string) type_error(key, "string");
    return v->s;
}

std::optional<int64_t> Record::get_int(std::string_view key) const {
    const JsonValue* v = find(key);
    if (!v || v->kind == JsonValue::Kind::null) return std::nullopt;
    if (v->kind == JsonValue::Kind::integer) return v->i;
    if (v->kind == JsonValue::Kind::number && fits_int64(v->d)) return static_cast<int64_t>(v->d);
    type_error(key, "integer");
}

std::optional<double> Record::get_number(std::string_view key) const {
    const JsonValue* v = find(key);
    if (!v || v->kind == JsonValue::Kind::null) return std::nullopt;
    if (v->kind == JsonValue::Kind::integer) return v->d;
    if (v->kind == JsonValue::Kind::number && std::isfinite(v->d)) return v->d;
    type_error(key, "number");
}

std::optional<bool> Record::get_bool(std::string_view key) const {
    const JsonValue* v = find(key);
    if (!v || v->kind == JsonValue::Kind::null) return std::nullopt;
    if (v->kind != JsonValue::Kind::boolean) type_error(key, "boolean");
    return v->b;
}

std::optional<double> Record::get_time(std::string_view key) const {
    const JsonValue* v = find(key);
    if (!v || v->kind == JsonValue::Kind::null) return std::nullopt;
    if (v->kind == JsonValue::Kind::integer) return v->d;
    if (v->kind == JsonValue::Kind::number && std::isfinite(v->d)) return v->d;
    if (v->kind == JsonValue::Kind::string) {
        if (auto t = parse_rfc3339(v->s)) return t;
        // Epoch seconds written as a string ("1795000000.5") are accepted too.
        double d = 0;
        const char* first = v->s.data();
        const char* last = first + v->s.size();
        auto [p, ec] = std::from_chars(first, last, d);
        if (ec == std::errc() && p == last && !v->s.empty() && std::isfinite(d)) return d;
    }
    type_error(key, "time");
}

std::optional<double> parse_rfc3339(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    size_t pos = 0;
    int year, month, day, hour = 0, minute = 0, second = 0;
    if (!read_digits(s, pos, 4, year) || pos >= s.size() || s[pos++] != '-' || !read_digits(s, pos, 2, month) ||
        pos >= s.size() || s[pos++] != '-' || !read_digits(s, pos, 2, day))
        return std::nullopt;
    if (month < 1 || month > 12 || day < 1 || day > days_in_month(year, month)) return std::nullopt;
    double fraction = 0;
    int offset = 0;  // seconds east of UTC
    if (pos < s.size()) {
        char sep = s[pos++];
        if (sep != 'T' && sep != 't' && sep != ' ') return std::nullopt;
        if (!read_digits(s, pos, 2, hour) || pos >= s.size() || s[pos++] != ':' || !read_digits(s, pos, 2, minute))
            return std::nullopt;
        if (pos < s.size() && s[pos] == ':') {
            ++pos;
            if (!read_digits(s, pos, 2, second)) return std::nullopt;
            if (pos < s.size() && (s[pos] == '.' || s[pos] == ',')) {
                ++pos;
                size_t start = pos;
                double scale = 0.1;
                while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
                    fraction += (s[pos] - '0') * scale;
                    scale /= 10;
                    ++pos;
                }
                if (pos == start) return std::nullopt;
            }
        }
        if (hour > 23 || minute > 59 || second > 60) return std::nullopt;
        if (pos < s.size()) {
            char z = s[pos++];
            if (z == 'Z' || z == 'z') {
                if (pos != s.size()) return std::nullopt;
            } else if (z == '+' || z == '-') {
                int oh, om;
                if (!read_digits(s, pos, 2, oh)) return std::nullopt;
                if (pos < s.size() && s[pos] == ':') ++pos;
                if (!read_digits(s, pos, 2, om) || pos != s.size() || oh > 23 || om > 59) return std::nullopt;
                offset = (oh * 3600 + om * 60) * (z == '-' ? -1 : 1);
            } else {
                return std::nullopt;
            }
        }
        // No zone designator: taken as UTC.
    }
    std::tm tm{};
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = second;
    time_t t = timegm(&tm);
    return static_cast<double>(t) - offset + fraction;
}

bool valid_utf8(std::string_view s) { return simdjson::validate_utf8(s.data(), s.size()); }

}  // namespace frontier
