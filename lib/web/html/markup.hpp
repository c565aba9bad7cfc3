// The tokenizer states that skip a construct without reporting it (private
// to lib/web/html/tokenizer.cpp): bogus comments, comments, DOCTYPEs and
// CDATA sections. Each takes the position `p` inside the construct and
// moves it past the construct's end (or to `end`).
#pragma once

#include "web/html/chars.hpp"

#include <cstring>
#include <string_view>

namespace frontier::html::detail {

// 13.2.5.41 bogus comment state: to the next '>'.
inline void skip_bogus_comment(const char*& p, const char* end) {
    const char* gt = static_cast<const char*>(std::memchr(p, '>', end - p));
    p = gt ? gt + 1 : end;
}

inline bool next_is(const char* p, const char* end, std::string_view s, bool ignore_case) {
    if (static_cast<size_t>(end - p) < s.size()) return false;
    for (size_t i = 0; i < s.size(); ++i)
        if ((ignore_case ? lower(p[i]) : p[i]) != s[i]) return false;
    return true;
}

// Comment end state (after "--"); true when the comment ended (or EOF).
inline bool comment_end(const char*& p, const char* end) {
    for (;;) {
        if (p >= end) return true;
        char c = *p;
        if (c == '>') {
            ++p;
            return true;
        }
        if (c == '-') {
            ++p;
            continue;
        }
        if (c == '!') {  // comment end bang state
            ++p;
            if (p >= end) return true;
            if (*p == '>') {
                ++p;
                return true;
            }
            if (*p == '-') {  // back to comment end dash
                ++p;
                if (p >= end) return true;
                if (*p == '-') {
                    ++p;
                    continue;
                }
            }
            return false;
        }
        return false;  // reconsume in the comment state
    }
}

// 13.2.5.43-52 comment states, after "<!--". Only the comment end
// states decide where it ends ("-->", "--!>", and "<!-->", "<!--->"
// at its start); the less-than-sign states lead into them the same way.
inline void skip_comment(const char*& p, const char* end) {
    if (p >= end) return;
    if (*p == '>') {  // comment start state: abrupt closing
        ++p;
        return;
    }
    if (*p == '-') {  // comment start dash state
        ++p;
        if (p >= end) return;
        if (*p == '>') {
            ++p;
            return;
        }
        if (*p == '-') {
            ++p;
            if (comment_end(p, end)) return;
        }
    }
    for (;;) {  // comment state
        const char* dash = static_cast<const char*>(std::memchr(p, '-', end - p));
        if (dash == nullptr) {
            p = end;
            return;
        }
        p = dash + 1;
        // comment end dash state
        if (p >= end) return;
        if (*p != '-') continue;
        ++p;
        if (comment_end(p, end)) return;
    }
}

// 13.2.5.69 CDATA section state, after "<![CDATA[": to "]]>".
inline void skip_cdata(const char*& p, const char* end) {
    for (;;) {
        const char* b = static_cast<const char*>(std::memchr(p, ']', end - p));
        if (b == nullptr || end - b < 3) {
            p = end;
            return;
        }
        if (b[1] == ']' && b[2] == '>') {
            p = b + 3;
            return;
        }
        p = b + 1;
    }
}

// 13.2.5.42 markup declaration open state, after "<!". CDATA sections
// exist in foreign content only (`foreign`); elsewhere they are bogus
// comments.
inline void skip_markup_declaration(const char*& p, const char* end, bool foreign) {
    if (next_is(p, end, "--", false)) {
        p += 2;
        skip_comment(p, end);
    } else if (next_is(p, end, "doctype", true)) {
        // 13.2.5.53-68: every DOCTYPE state ends the token at '>', in
        // quoted identifiers too (abrupt-doctype-*-identifier).
        p += 7;
        skip_bogus_comment(p, end);
    } else if (foreign && next_is(p, end, "[CDATA[", false)) {
        p += 7;
        skip_cdata(p, end);
    } else {
        skip_bogus_comment(p, end);
    }
}

}  // namespace frontier::html::detail
