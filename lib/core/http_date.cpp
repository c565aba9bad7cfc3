#include "core/http_date.hpp"

#include <cmath>
#include <cstdio>
#include <ctime>

#include "core/ondemand.hpp"

namespace frontier {

namespace {
std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}
}  // namespace

std::optional<double> parse_http_date(std::string_view text) {
    text = trim(text);
    if (text.empty() || text.size() > 64) return std::nullopt;
    // A bare number is not a date (curl_getdate would accept odd forms).
    bool has_alpha = false;
    for (char c : text) has_alpha |= (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    if (!has_alpha) return std::nullopt;
    std::string s(text);
    time_t t = curl_api().curl_getdate(s.c_str(), nullptr);
    if (t == -1) return std::nullopt;
    return static_cast<double>(t);
}

std::string format_http_date(double epoch) {
    time_t t = static_cast<time_t>(std::floor(epoch));
    struct tm tm {};
    gmtime_r(&t, &tm);
    static const char* days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static const char* months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                   "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    char buf[40];
    std::snprintf(buf, sizeof buf, "%s, %02d %s %04d %02d:%02d:%02d GMT", days[tm.tm_wday], tm.tm_mday,
                  months[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
    return buf;
}

std::string format_iso8601(double epoch, bool micros) {
    double whole = std::floor(epoch);
    time_t t = static_cast<time_t>(whole);
    struct tm tm {};
    gmtime_r(&t, &tm);
    char buf[128];
    if (micros) {
        long us = std::lround((epoch - whole) * 1e6);
        us = us < 0 ? 0 : (us > 999999 ? 999999 : us);
        std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ", tm.tm_year + 1900, tm.tm_mon + 1,
                      tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, us);
    } else {
        std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                      tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
    }
    return buf;
}

std::optional<double> parse_retry_after(std::string_view value, double now) {
    value = trim(value);
    if (value.empty()) return std::nullopt;
    bool digits = true;
    for (char c : value) digits &= (c >= '0' && c <= '9');
    if (digits) {
        if (value.size() > 12) return std::nullopt;
        double v = 0;
        for (char c : value) v = v * 10 + (c - '0');
        return v;
    }
    auto t = parse_http_date(value);
    if (!t) return std::nullopt;
    return *t > now ? std::ceil(*t - now) : 0.0;
}

}  // namespace frontier
