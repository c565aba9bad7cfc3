// The decoding of a JSON object into a Record (private to lib/json/: the
// LineReader of json_reader.cpp and Record::set_raw / parse_record in
// json_decode.cpp).
#pragma once

#include <simdjson.h>

#include <string_view>
#include <vector>

#include "json/json.hpp"

namespace frontier::json_detail {

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

inline std::string_view trim_right(std::string_view s) {
    while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
    return s;
}

// Reuses record fields across lines: slot `idx` of `r`, taken from `spare`
// (a pool of parked fields with their string capacity) when `r` is short.
JsonField& field_slot(Record& r, size_t idx, std::vector<JsonField>& spare);

// Shrinks `r` to `n` fields, parking the rest in `spare`.
void truncate_fields(Record& r, size_t n, std::vector<JsonField>& spare);

// Parses the object document `json` (with `capacity` readable bytes, at least
// SIMDJSON_PADDING beyond its end) into `r`. Returns "" or an error reason.
const char* parse_object(simdjson::ondemand::parser& parser, const char* json, size_t len, size_t capacity, Record& r,
                         std::vector<JsonField>& spare);

}  // namespace frontier::json_detail
