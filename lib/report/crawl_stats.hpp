// The crawl's story in frontier-report (frontier-report(1), CRAWL SUMMARY,
// OVER TIME, CALIBRATION): plain functions over the aggregates the store
// keeps when a result is recorded (Store::finish). No SQL, no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace frontier {

// The key a Content-Type is counted under in the MIME-type report: the
// media type without parameters, lower case ("text/html; charset=UTF-8" ->
// "text/html"); "unknown" when absent or empty; "other" when it is not a
// plausible type/subtype (characters outside [a-z0-9!#$&^_.+-], no slash,
// longer than 64), so a hostile server cannot grow the table.
std::string mime_key(std::string_view content_type);

// Width in seconds of the buckets the over-time chart and JSON use: the
// smallest of 1, 2, 5, 10, 15, 30 s, 1 min, 5 min, 15 min, 1 h, 3 h, 6 h,
// 1 d, 7 d, and at least `min_width`, that puts `span` seconds in at most
// `max_buckets` buckets (7 d beyond). Minutes are what the store keeps (one
// timeline row per minute with a result); seconds come from URL rows
// (frontier-report(1), OVER TIME).
int64_t timeline_bucket_seconds(double span, int64_t max_buckets = 120, int64_t min_width = 60);

// One bucket of the over-time report: URL results recorded in
// [start, start + width).
struct TimelineBucket {
    double start = 0;
    int64_t pages = 0, bytes = 0, errors = 0;
};

// `buckets` (in time order, each within one bucket of `width` seconds)
// summed into buckets of `width` seconds aligned on multiples of it.
std::vector<TimelineBucket> regroup_timeline(const std::vector<TimelineBucket>& buckets, int64_t width);

// Pages per second over [start, end]; 0 when the span is not positive.
double pages_per_second(int64_t pages, double start, double end);

// The average rate (frontier-report(1), CRAWL SUMMARY): `pages` over the
// crawl from `start` (its first minute) to `last` (the end of its last
// minute), or to `now` while that minute runs (at least one second).
double average_pages_per_second(int64_t pages, double start, double last, double now);

// The recent rate (frontier-report(1), CRAWL SUMMARY) counts the results
// recorded from the start of this minute (epoch minutes), 10 minutes before
// `now`, to `now`.
int64_t recent_first_minute(double now);

// The recent rate: `pages` recorded since recent_first_minute(now), per
// second of that window the crawl covered: from the window's start, or
// from `start` (the crawl's first minute) when later, to `now` (at least
// one second).
double recent_pages_per_second(int64_t pages, double start, double now);

// Revisit calibration: can the configured revisit intervals be
// met at the recorded visit rate?
struct RevisitLoad {
    double interval_days = 1;  // the shortest interval of the group
    int64_t urls = 0;
};
struct Calibration {
    double due_per_day = 0;      // revisits the intervals ask for per day
    double done_per_day = 0;     // visits the crawl made per day (recorded rate)
    bool met = false;            // done_per_day >= due_per_day
    std::optional<double> feasible_interval_days;  // the interval at which every revisited URL fits the rate
};
// due_per_day = sum of urls / interval_days over `load`; feasible interval =
// total URLs / done_per_day (none when the rate is 0).
Calibration calibrate_revisits(const std::vector<RevisitLoad>& load, double done_per_day);

// The shortest interval, in days, of a revisit interval bucket name
// ("<1d" -> `min_days`, "1-2d" -> 1, ">=64d" -> 64).
double interval_bucket_floor_days(std::string_view bucket, double min_days);

// Shortens `s` to at most `max` characters by cutting its middle ("…" in
// the cut, UTF-8), so both the host and the end of a URL stay visible.
std::string middle_truncate(std::string_view s, size_t max);

// A short reason a queue (host) fails, from its counters: "robots.txt
// unreachable", "robots.txt gave up", "host down", "rate-limited", "errors".
std::string host_failure_reason(const std::string& robots, int64_t host_down, int64_t retry_after_blocks);

}  // namespace frontier
