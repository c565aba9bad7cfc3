// Where the content of a raw-text element ends (private to
// lib/web/html/tokenizer.cpp): RCDATA and RAWTEXT (13.2.5.2-3, 13.2.5.9-14)
// and script data with its escaped and double escaped states (13.2.5.4,
// 13.2.5.15-31). Each finder takes `p` at the start of the content and
// returns true with `p` just after the name of the appropriate end tag (its
// attributes are then tokenized as usual), or false with `p` at `end`.
#pragma once

#include "web/html/chars.hpp"

#include <cstdint>
#include <cstring>
#include <string_view>

namespace frontier::html::detail {

// Moves `q` past the letters there: whether they spell `word` (ASCII
// case-insensitively; `word` is lower-case and not empty).
inline bool letters_spell(const char*& q, const char* end, std::string_view word) {
    size_t i = 0;
    bool same = true;
    while (q < end && is_alpha(*q)) {
        if (i >= word.size() || lower(*q) != word[i]) same = false;
        ++i, ++q;
    }
    return same && i == word.size();
}

// After "</" in a raw-text state: an appropriate end tag is the raw
// element's name followed by a space, '/' or '>'. Either way `p` is left
// after the letters read (otherwise they were text).
inline bool appropriate_end_tag(const char*& p, const char* end, std::string_view name) {
    bool same = letters_spell(p, end, name);
    return same && p < end && (is_space(*p) || *p == '/' || *p == '>');
}

// RCDATA and RAWTEXT (and their end tag states): to the appropriate end tag.
inline bool find_rawtext_end(const char*& p, const char* end, std::string_view name) {
    for (;;) {
        const char* lt = static_cast<const char*>(std::memchr(p, '<', end - p));
        if (lt == nullptr || end - lt < 2) {
            p = end;
            return false;
        }
        p = lt + 1;
        if (*p != '/') continue;
        ++p;
        if (appropriate_end_tag(p, end, name)) return true;
    }
}

// The script data states; kEndTag: the appropriate end tag was found.
enum class Script : uint8_t {
    kData, kLessThan, kEscapeStart, kEscapeStartDash,
    kEscaped, kEscapedDash, kEscapedDashDash, kEscapedLessThan,
    kDouble, kDoubleDash, kDoubleDashDash, kDoubleLessThan, kEndTag
};

// Reads letters for the script data double escape states (13.2.5.27,
// 13.2.5.31): whether they spell "script", followed by a space, '/' or
// '>', which is consumed.
inline bool script_word(const char*& p, const char* end) {
    bool same = letters_spell(p, end, "script");
    if (p < end && (is_space(*p) || *p == '/' || *p == '>')) {
        ++p;
        return same;
    }
    return false;
}

// Advances to the next '-' or '<' (consumed); 0 at EOF.
inline char next_dash_or_lt(const char*& p, const char* end) {
    while (p < end) {
        char c = *p++;
        if (c == '-' || c == '<') return c;
    }
    return 0;
}

// At the '/' of "</" in script data, escaped or not: the end tag, or text
// and back to the state `text`.
inline Script script_end_tag_open(const char*& p, const char* end, std::string_view name, Script text) {
    ++p;
    return appropriate_end_tag(p, end, name) ? Script::kEndTag : text;
}

// 13.2.5.15 script data less-than sign state, at `c` after '<'.
inline Script script_less_than(char c, const char*& p, const char* end, std::string_view name) {
    if (c == '/') return script_end_tag_open(p, end, name, Script::kData);
    if (c != '!') return Script::kData;
    ++p;
    return Script::kEscapeStart;
}

// 13.2.5.18-19 script data escape start (dash) states.
inline Script script_escape_start(Script s, char c, const char*& p) {
    if (c != '-') return Script::kData;
    ++p;
    return s == Script::kEscapeStart ? Script::kEscapeStartDash : Script::kEscapedDashDash;
}

// 13.2.5.21-22 and 13.2.5.28-29: the (double) escaped dash and dash dash
// states, which consume `c`.
inline Script script_escaped_dash(Script s, char c, const char*& p) {
    ++p;
    bool escaped = s == Script::kEscapedDash || s == Script::kEscapedDashDash;
    bool dash_dash = s == Script::kEscapedDashDash || s == Script::kDoubleDashDash;
    if (c == '-') return escaped ? Script::kEscapedDashDash : Script::kDoubleDashDash;
    if (c == '<') return escaped ? Script::kEscapedLessThan : Script::kDoubleLessThan;
    if (c == '>' && dash_dash) return Script::kData;
    return escaped ? Script::kEscaped : Script::kDouble;
}

// 13.2.5.23 script data escaped less-than sign state (and 13.2.5.27, the
// double escape start state, at a letter).
inline Script script_escaped_less_than(char c, const char*& p, const char* end, std::string_view name) {
    if (c == '/') return script_end_tag_open(p, end, name, Script::kEscaped);
    if (!is_alpha(c)) return Script::kEscaped;
    return script_word(p, end) ? Script::kDouble : Script::kEscaped;
}

// 13.2.5.30 script data double escaped less-than sign state (and 13.2.5.31,
// the double escape end state).
inline Script script_double_less_than(char c, const char*& p, const char* end) {
    if (c != '/') return Script::kDouble;
    ++p;
    return script_word(p, end) ? Script::kEscaped : Script::kDouble;
}

// The states that look at one character `c` (at `p`, not yet consumed).
inline Script script_step(Script s, char c, const char*& p, const char* end, std::string_view name) {
    switch (s) {
        case Script::kLessThan: return script_less_than(c, p, end, name);
        case Script::kEscapeStart:
        case Script::kEscapeStartDash: return script_escape_start(s, c, p);
        case Script::kEscapedDash:
        case Script::kEscapedDashDash:
        case Script::kDoubleDash:
        case Script::kDoubleDashDash: return script_escaped_dash(s, c, p);
        case Script::kEscapedLessThan: return script_escaped_less_than(c, p, end, name);
        case Script::kDoubleLessThan: return script_double_less_than(c, p, end);
        default: return Script::kData;  // not reached: find_script_end scans those
    }
}

// Script data: to the appropriate end tag. The data, escaped and double
// escaped states scan for the next character that can leave them.
inline bool find_script_end(const char*& p, const char* end, std::string_view name) {
    Script s = Script::kData;
    for (;;) {
        if (s == Script::kData) {
            const char* lt = static_cast<const char*>(std::memchr(p, '<', end - p));
            if (lt == nullptr) return p = end, false;
            p = lt + 1;
            s = Script::kLessThan;
            continue;
        }
        if (s == Script::kEscaped || s == Script::kDouble) {
            char c = next_dash_or_lt(p, end);
            if (c == 0) return false;
            if (s == Script::kEscaped)
                s = c == '-' ? Script::kEscapedDash : Script::kEscapedLessThan;
            else
                s = c == '-' ? Script::kDoubleDash : Script::kDoubleLessThan;
            continue;
        }
        if (p >= end) return false;
        s = script_step(s, *p, p, end, name);
        if (s == Script::kEndTag) return true;
    }
}

}  // namespace frontier::html::detail
