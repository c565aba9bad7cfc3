// Character references in attribute values (13.2.5.72-80 with an attribute
// as the return state), for lib/web/html/tokenizer.cpp: the named
// references of entities.inc and the numeric ones.
#pragma once

#include "web/html/chars.hpp"
#include "web/html/utf8.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace frontier::html::detail {

struct Entity {
    std::string_view name;  // with its ';' when it has one
    std::string_view value;
};

inline constexpr Entity kEntities[] = {
#include "web/html/entities.inc"
};

// Longest name of a reference without ';' (the legacy ones: "middot").
inline constexpr size_t kMaxLegacyName = [] {
    size_t m = 0;
    for (const Entity& e : kEntities)
        if (e.name.back() != ';') m = std::max(m, e.name.size());
    return m;
}();

// Longest name with its ';' ("CounterClockwiseContourIntegral;").
inline constexpr size_t kMaxName = [] {
    size_t m = 0;
    for (const Entity& e : kEntities) m = std::max(m, e.name.size());
    return m;
}();

inline const Entity* find_entity(std::string_view name) {
    const Entity* end = kEntities + std::size(kEntities);
    const Entity* it =
        std::lower_bound(kEntities, end, name, [](const Entity& e, std::string_view n) { return e.name < n; });
    return it != end && it->name == name ? it : nullptr;
}

// 13.2.5.80 numeric character reference end state: the replacements.
inline uint32_t numeric_reference(uint32_t v, bool overflow) {
    // 0x80-0x9F as windows-1252 (0 where the code point stays).
    static const uint16_t kC1[32] = {0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
                                     0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0,      0x017D, 0,
                                     0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                                     0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};
    if (overflow || v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0xFFFD;
    if (v >= 0x80 && v <= 0x9F && kC1[v - 0x80] != 0) return kC1[v - 0x80];
    return v;
}

// 13.2.5.75-79 numeric character reference states, at the '#' of a
// reference ending before `stop`: appends the code point and moves `p` past
// it, or appends '&' ("&#" without digits stays text).
inline void numeric_character_reference(const char*& p, const char* stop, std::string& out) {
    const char* q = p + 1;
    bool hex = q < stop && (*q == 'x' || *q == 'X');
    if (hex) ++q;
    const char* digits = q;
    uint32_t v = 0;
    bool overflow = false;
    while (q < stop && (hex ? is_hex(*q) : is_digit(*q))) {
        uint32_t d = is_digit(*q) ? *q - '0' : (lower(*q) - 'a' + 10);
        v = v * (hex ? 16 : 10) + d;
        if (v > 0x10FFFF) overflow = true, v = 0x110000;
        ++q;
    }
    if (q == digits) return out.push_back('&');  // absence-of-digits: "&#" stays text
    p = q;
    if (p < stop && *p == ';') ++p;
    append_utf8(out, numeric_reference(v, overflow));
}

// 13.2.5.73 named character reference state, at the first letter or digit:
// the longest name, with ';' or one of the legacy names without.
inline void named_character_reference(const char*& p, const char* stop, std::string& out) {
    const char* q = p;
    while (q < stop && is_alnum(*q) && static_cast<size_t>(q - p) < kMaxName) ++q;
    size_t run = q - p;
    if (q < stop && *q == ';' && run + 1 <= kMaxName) {
        char buf[64];
        std::memcpy(buf, p, run);
        buf[run] = ';';
        if (const Entity* e = find_entity(std::string_view(buf, run + 1))) {
            out.append(e->value);
            p = q + 1;
            return;
        }
    }
    for (size_t k = std::min(run, kMaxLegacyName); k >= 2; --k) {
        const Entity* e = find_entity(std::string_view(p, k));
        if (e == nullptr) continue;
        // In an attribute, "&amp=" and "&ampx" stay as written.
        if (p + k < stop && (p[k] == '=' || is_alnum(p[k]))) break;
        out.append(e->value);
        p += k;
        return;
    }
    out.push_back('&');  // no reference: the name stays text
}

// 13.2.5.72 character reference state, after '&' at `p` in an attribute
// value ending at `stop` (a quote, a space or '>', which no reference
// reaches): appends what it stands for to `out` and moves `p` past it.
inline void character_reference(const char*& p, const char* stop, std::string& out) {
    if (p >= stop) return out.push_back('&');
    if (*p == '#') return numeric_character_reference(p, stop, out);
    if (!is_alnum(*p)) return out.push_back('&');
    named_character_reference(p, stop, out);
}

}  // namespace frontier::html::detail
