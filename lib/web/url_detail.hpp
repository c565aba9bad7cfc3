// Helpers shared by lib/web/url.cpp (canonicalisation) and
// lib/web/url_resolve.cpp (resolving links): the per-thread CURLU handle,
// strings from libcurl, ASCII classes, trimming and scheme detection.
#pragma once

#include "core/ondemand.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <new>
#include <string_view>

namespace frontier::url_detail {

// One CURLU handle per thread, cleaned up at thread exit.
class CurlUrlHandle {
public:
    CurlUrlHandle() : h_(curl_api().curl_url()) {
        if (!h_) throw std::bad_alloc();
    }
    ~CurlUrlHandle() { curl_api().curl_url_cleanup(h_); }
    CurlUrlHandle(const CurlUrlHandle&) = delete;
    CurlUrlHandle& operator=(const CurlUrlHandle&) = delete;
    CURLU* get() const { return h_; }

private:
    CURLU* h_;
};

inline CURLU* thread_curlu() {
    thread_local CurlUrlHandle handle;
    return handle.get();
}

// A string allocated by libcurl, freed with curl_free.
struct CurlString {
    char* p = nullptr;
    CurlString() = default;
    CurlString(const CurlString&) = delete;
    CurlString& operator=(const CurlString&) = delete;
    ~CurlString() { curl_api().curl_free(p); }
};

inline constexpr bool is_alpha(unsigned char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
inline constexpr bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
inline constexpr int hex_value(unsigned char c) {
    if (is_digit(c)) return c - '0';
    if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') return (c | 0x20) - 'a' + 10;
    return -1;
}
inline constexpr char lower(char c) { return (c >= 'A' && c <= 'Z') ? char(c | 0x20) : c; }
inline constexpr bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
inline constexpr bool is_unreserved(unsigned char c) {
    return is_alpha(c) || is_digit(c) || c == '-' || c == '.' || c == '_' || c == '~';
}
inline constexpr bool is_sub_delim(unsigned char c) {
    return c == '!' || c == '$' || c == '&' || c == '\'' || c == '(' || c == ')' || c == '*' || c == '+' ||
           c == ',' || c == ';' || c == '=';
}
// RFC 3986 pchar (less pct-encoded) plus '/', and '?' in a query.
inline constexpr bool allowed_literal(unsigned char c, bool query) {
    return is_unreserved(c) || is_sub_delim(c) || c == ':' || c == '@' || c == '/' || (query && c == '?');
}

// A dotted quad as libcurl writes an IPv4 address: four decimal numbers up
// to 255, none with a leading zero (it rewrites the other numeric forms:
// "127.1", "0x7f.1", "2130706433").
inline bool is_dotted_quad(std::string_view h) {
    int labels = 0;
    for (size_t start = 0; start <= h.size(); ++labels) {
        size_t end = std::min(h.find('.', start), h.size());
        std::string_view label = h.substr(start, end - start);
        if (label.empty() || label.size() > 3 || (label.size() > 1 && label[0] == '0')) return false;
        int value = 0;
        for (char d : label) {
            if (!is_digit(d)) return false;
            value = value * 10 + (d - '0');
        }
        if (value > 255) return false;
        start = end + 1;
    }
    return labels == 4;
}

// True when a segment of `path` is "." or "..".
inline bool has_dot_segment(std::string_view path) {
    for (size_t i = 0; i <= path.size();) {
        size_t end = std::min(path.find('/', i), path.size());
        std::string_view segment = path.substr(i, end - i);
        if (segment == "." || segment == "..") return true;
        i = end + 1;
    }
    return false;
}

inline std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

// Length of a leading RFC 3986 scheme followed by ':', else 0.
inline size_t scheme_length(std::string_view s) {
    if (s.empty() || !is_alpha(s[0])) return 0;
    size_t i = 1;
    while (i < s.size() && (is_alpha(s[i]) || is_digit(s[i]) || s[i] == '+' || s[i] == '-' || s[i] == '.'))
        ++i;
    return (i < s.size() && s[i] == ':') ? i : 0;
}

}  // namespace frontier::url_detail
