// Cells of the report's text tables (lib/report/report_text.cpp,
// lib/report/report_crawl.cpp): numbers and fixed-width columns.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace frontier::text_cells {

inline std::string num(int64_t v) { return std::to_string(v); }

inline std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// `s` cut to `width` characters (the last one "~"), then padded.
inline std::string left(std::string s, size_t width) {
    if (s.size() > width) s = s.substr(0, width - 1) + "~";
    s.resize(width, ' ');
    return s;
}

inline std::string right(const std::string& s, size_t width) {
    return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

}  // namespace frontier::text_cells
