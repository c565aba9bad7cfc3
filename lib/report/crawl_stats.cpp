// Plain functions behind frontier-report's crawl sections (lib/report/crawl_stats.hpp).
#include "report/crawl_stats.hpp"

#include <algorithm>
#include <cmath>

namespace frontier {

std::string mime_key(std::string_view ct) {
    if (auto semi = ct.find(';'); semi != std::string_view::npos) ct = ct.substr(0, semi);
    while (!ct.empty() && (ct.front() == ' ' || ct.front() == '\t')) ct.remove_prefix(1);
    while (!ct.empty() && (ct.back() == ' ' || ct.back() == '\t')) ct.remove_suffix(1);
    if (ct.empty()) return "unknown";
    if (ct.size() > 64) return "other";
    std::string o;
    size_t slashes = 0;
    for (char c : ct) {
        char l = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
        bool ok = (l >= 'a' && l <= 'z') || (l >= '0' && l <= '9') || l == '!' || l == '#' || l == '$' ||
                  l == '&' || l == '^' || l == '_' || l == '.' || l == '+' || l == '-' || l == '/';
        if (!ok) return "other";
        if (l == '/') ++slashes;
        o += l;
    }
    if (slashes != 1 || o.front() == '/' || o.back() == '/') return "other";
    return o;
}

int64_t timeline_bucket_seconds(double span, int64_t max_buckets, int64_t min_width) {
    static const int64_t widths[] = {1, 2, 5, 10, 15, 30, 60, 300, 900, 3600, 3 * 3600, 6 * 3600, 86400, 7 * 86400};
    if (max_buckets < 1) max_buckets = 1;
    for (int64_t w : widths)
        if (w >= min_width && span / static_cast<double>(w) <= static_cast<double>(max_buckets)) return w;
    return widths[std::size(widths) - 1];
}

std::vector<TimelineBucket> regroup_timeline(const std::vector<TimelineBucket>& buckets, int64_t width) {
    std::vector<TimelineBucket> out;
    const double w = static_cast<double>(std::max<int64_t>(width, 1));
    for (const TimelineBucket& b : buckets) {
        double start = std::floor(b.start / w) * w;
        if (out.empty() || out.back().start != start) out.push_back({start, 0, 0, 0});
        out.back().pages += b.pages;
        out.back().bytes += b.bytes;
        out.back().errors += b.errors;
    }
    return out;
}

double pages_per_second(int64_t pages, double start, double end) {
    if (!(end > start)) return 0;
    return static_cast<double>(pages) / (end - start);
}

double average_pages_per_second(int64_t pages, double start, double last, double now) {
    return static_cast<double>(pages) / std::max(std::min(last, now) - start, 1.0);
}

int64_t recent_first_minute(double now) { return static_cast<int64_t>(std::floor((now - 600) / 60)); }

double recent_pages_per_second(int64_t pages, double start, double now) {
    double from = std::max(static_cast<double>(recent_first_minute(now)) * 60, start);
    return static_cast<double>(pages) / std::max(now - from, 1.0);
}

Calibration calibrate_revisits(const std::vector<RevisitLoad>& load, double done_per_day) {
    Calibration c;
    c.done_per_day = done_per_day;
    int64_t urls = 0;
    for (const RevisitLoad& l : load) {
        if (l.urls <= 0) continue;
        urls += l.urls;
        c.due_per_day += static_cast<double>(l.urls) / std::max(l.interval_days, 1.0 / 24);
    }
    c.met = done_per_day >= c.due_per_day;
    if (done_per_day > 0 && urls > 0) c.feasible_interval_days = static_cast<double>(urls) / done_per_day;
    return c;
}

double interval_bucket_floor_days(std::string_view b, double min_days) {
    if (b.starts_with("<")) return min_days;
    if (b.starts_with(">=")) b.remove_prefix(2);
    double v = 0;
    size_t i = 0;
    while (i < b.size() && b[i] >= '0' && b[i] <= '9') v = v * 10 + (b[i++] - '0');
    return i == 0 ? min_days : v;
}

std::string middle_truncate(std::string_view s, size_t max) {
    if (s.size() <= max) return std::string(s);
    if (max < 3) return std::string(s.substr(0, max));
    size_t keep = max - 1, head = (keep + 1) / 2, tail = keep - head;
    // Do not cut a UTF-8 sequence: move the cuts to character starts.
    auto cont = [&](size_t i) { return i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80; };
    while (head > 0 && cont(head)) --head;
    size_t from = s.size() - tail;
    while (from < s.size() && cont(from)) ++from;
    return std::string(s.substr(0, head)) + "\xE2\x80\xA6" + std::string(s.substr(from));
}

std::string host_failure_reason(const std::string& robots, int64_t host_down, int64_t retry_after_blocks) {
    if (robots == "unreachable") return "robots.txt unreachable";
    if (robots == "gave-up") return "robots.txt gave up";
    if (host_down > 0) return "host down";
    if (retry_after_blocks > 0) return "rate-limited";
    return "errors";
}

}  // namespace frontier
