// The decoding of a JSON object into a Record with simdjson On Demand
// (json_decode.hpp): every value is validated to its end and kept with its
// raw text. LineReader (json_reader.cpp) parses each line through
// parse_object; Record::set_raw and parse_record are here too.
#include "json/json_decode.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace frontier {

namespace od = simdjson::ondemand;

namespace {

using json_detail::is_blank;
using json_detail::trim_right;

// Deeper documents are rejected as "bad-json" (the value simdjson's DOM
// parser uses). The root object is depth 1.
constexpr int kMaxDepth = 1024;

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

}  // namespace

namespace json_detail {

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

}  // namespace json_detail

using json_detail::parse_object;

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

}  // namespace frontier
