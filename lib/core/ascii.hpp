// ASCII case helpers shared by the URL, robots.txt and link parsers (hosts,
// schemes, HTML names and robots.txt keys are ASCII-case-insensitive; no
// locale is involved). Thread-safe.
#pragma once

#include <string_view>

namespace frontier {

inline char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// True when `a` and `b` are equal ignoring ASCII case.
inline bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
    return true;
}

}  // namespace frontier
