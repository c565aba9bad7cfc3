// Text and JSON of frontier-report's crawl sections (lib/report/report_render.hpp;
// frontier-report(1), CRAWL SUMMARY, HOSTS, MIME TYPES, CODES, SEEDS,
// FAILURES, OVER TIME, CALIBRATION).
#include <algorithm>
#include <cstdio>

#include "core/http_date.hpp"
#include "json/json.hpp"
#include "report/report_render.hpp"
#include "report/text_cells.hpp"

namespace frontier {

namespace {

using namespace text_cells;

std::string trim_right(std::string s) {
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
}

std::string opt_status(const std::optional<int64_t>& s) { return s ? num(*s) : std::string("-"); }

}  // namespace

std::string format_duration(double seconds) {
    if (seconds < 0) seconds = 0;
    int64_t a = static_cast<int64_t>(seconds + 0.5);
    if (a < 60) return num(a) + "s";
    if (a < 3600) return num(a / 60) + "m" + (a % 60 < 10 ? "0" : "") + num(a % 60) + "s";
    if (a < 86400) return num(a / 3600) + "h" + (a % 3600 / 60 < 10 ? "0" : "") + num(a % 3600 / 60) + "m";
    return num(a / 86400) + "d" + (a % 86400 / 3600 < 10 ? "0" : "") + num(a % 86400 / 3600) + "h";
}

std::string crawl_text(const Summary& s) {
    const CrawlSummary& c = s.crawl;
    std::string o;
    if (!c.start) {
        o += "Crawl: no URL result recorded yet\n";
    } else {
        o += "Crawl: " + format_iso8601(*c.start) + " to " + format_iso8601(*c.last) + " (" +
             format_duration(*c.last - *c.start) + "): " + num(c.pages) + " results (" + num(c.errors) + " errors); " +
             num(c.bytes) + " bytes; " + num(c.novel) + " novel; " + num(c.revisit) + " revisits; " +
             num(c.not_modified) + " not modified\n";
        o += "Rate: " + fixed(c.avg_pages_per_s, 2) + " pages/s average; " + fixed(c.recent_pages_per_s, 2) +
             " pages/s in the last 10 minutes\n";
    }
    if (c.calibration) o += calibration_text(*c.calibration);
    return o;
}

std::string calibration_text(const Calibration& k) {
    std::string o = "Revisit capacity: the intervals ask for " + fixed(k.due_per_day, 1) + " visits/day; the crawl made " +
                    fixed(k.done_per_day, 1) + "/day: " + (k.met ? "met" : "not met");
    if (k.feasible_interval_days) o += "; the rate covers every revisited URL at an interval of " +
                                       fixed(*k.feasible_interval_days, 1) + " days";
    else o += "; no visit rate recorded yet";
    return o + "\n";
}

void crawl_json(JsonWriter& w, const Summary& s) {
    const CrawlSummary& c = s.crawl;
    w.key("crawl");
    w.begin_object();
    if (c.start) w.field("start", *c.start); else w.field_null("start");
    if (c.last) w.field("last", *c.last); else w.field_null("last");
    w.field("duration", c.start ? *c.last - *c.start : 0.0);
    w.field("results", c.pages);
    w.field("errors", c.errors);
    w.field("bytes", c.bytes);
    w.field("done", s.urls.done);
    w.field("failed", s.urls.failed);
    w.field("blocked", s.urls.blocked);
    w.field("novel", c.novel);
    w.field("revisit", c.revisit);
    w.field("not_modified", c.not_modified);
    w.field("avg_pages_per_s", c.avg_pages_per_s);
    w.field("recent_pages_per_s", c.recent_pages_per_s);
    if (c.calibration) {
        const Calibration& k = *c.calibration;
        w.key("calibration");
        w.begin_object();
        w.field("due_per_day", k.due_per_day);
        w.field("done_per_day", k.done_per_day);
        w.field("met", k.met);
        if (k.feasible_interval_days) w.field("feasible_interval_days", *k.feasible_interval_days);
        else w.field_null("feasible_interval_days");
        w.end_object();
    }
    w.end_object();
    w.key("timeline");
    w.begin_object();
    w.field("bucket_seconds", s.timeline_bucket);
    w.key("buckets");
    w.begin_array();
    for (const TimelineBucket& b : s.timeline) {
        w.begin_object();
        w.field("start", b.start);
        w.field("pages", b.pages);
        w.field("bytes", b.bytes);
        w.field("errors", b.errors);
        w.end_object();
    }
    w.end_array();
    w.end_object();
}

// --- hosts -------------------------------------------------------------------

std::string host_table_header() {
    return trim_right(left("QUEUE", 28) + " " + left("STATE", 10) + right("DONE", 9) + right("FAILED", 8) +
                      right("BLOCKED", 8) + right("ERRORS", 8) + right("BYTES", 13) + right("LAT-MS", 8) + "  " +
                      left("ROBOTS", 11) + right("SPEND/BUDGET", 16));
}

std::string host_table_row(const QueueRow& r) {
    return trim_right(left(r.queue, 28) + " " + left(report_state_name(r.state), 10) + right(num(r.done), 9) +
                      right(num(r.failed), 8) + right(num(r.blocked), 8) + right(num(r.error_count), 8) +
                      right(num(r.bytes), 13) + right(r.avg_latency_ms ? fixed(*r.avg_latency_ms, 0) : "-", 8) + "  " +
                      left(r.robots, 11) +
                      right(num(r.total_spend) + "/" + (r.total_budget < 0 ? std::string("-") : num(r.total_budget)), 16));
}

std::string host_row_json(const QueueRow& r) {
    JsonWriter w;
    w.begin();
    w.field("queue", r.queue);
    w.field("state", report_state_name(r.state));
    w.field("done", r.done);
    w.field("failed", r.failed);
    w.field("blocked", r.blocked);
    w.field("errors", r.error_count);
    w.field("bytes", r.bytes);
    if (r.avg_latency_ms) w.field("avg_latency_ms", *r.avg_latency_ms); else w.field_null("avg_latency_ms");
    w.field("robots", r.robots);
    w.field("total_spend", r.total_spend);
    w.field("total_budget", r.total_budget);
    w.end();
    return w.str();
}

// --- MIME types and codes -------------------------------------------------------

std::vector<std::pair<std::string, MimeCount>> mime_rows(const Summary& s) {
    std::vector<std::pair<std::string, MimeCount>> v(s.mimetypes.begin(), s.mimetypes.end());
    std::stable_sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.second.count > b.second.count; });
    return v;
}

std::string mime_text(const Summary& s, int64_t limit) {
    std::string o = trim_right(left("TYPE", 40) + right("COUNT", 10) + right("BYTES", 14)) + "\n";
    int64_t n = 0;
    for (auto& [t, m] : mime_rows(s)) {
        if (limit >= 0 && n++ >= limit) break;
        o += trim_right(left(t, 40) + right(num(m.count), 10) + right(num(m.bytes), 14)) + "\n";
    }
    return o;
}

std::string mime_json(const Summary& s, int64_t limit) {
    std::string o;
    int64_t n = 0;
    for (auto& [t, m] : mime_rows(s)) {
        if (limit >= 0 && n++ >= limit) break;
        JsonWriter w;
        w.begin();
        w.field("type", t);
        w.field("count", m.count);
        w.field("bytes", m.bytes);
        w.end();
        o += w.str() + "\n";
    }
    return o;
}

std::string codes_text(const Summary& s) {
    std::string o = "CODE            COUNT\n";
    for (auto& [st, n] : s.statuses) o += left(num(st), 12) + right(num(n), 9) + "\n";
    for (auto& [k, n] : s.results)
        if (k.starts_with("err:")) o += left(k, 12) + right(num(n), 9) + "\n";
    return o;
}

std::string codes_json(const Summary& s) {
    std::string o;
    JsonWriter w;
    for (auto& [st, n] : s.statuses) {
        w.begin();
        w.field("status", st);
        w.field("class", std::to_string(st / 100) + "xx");
        w.field("count", n);
        w.end();
        o += w.str() + "\n";
    }
    for (auto& [k, n] : s.results)
        if (k.starts_with("err:")) {
            w.begin();
            w.field("error_class", k.substr(4));
            w.field("count", n);
            w.end();
            o += w.str() + "\n";
        }
    return o;
}

// --- seeds and failures -----------------------------------------------------------

bool seed_redirected(const SeedRow& r) { return r.status && *r.status >= 300 && *r.status < 400; }

std::string seed_reason(const SeedRow& r) {
    if (!r.error_class.empty()) return r.error_class;
    return r.reason.empty() ? "-" : r.reason;
}

std::string seed_table_header() {
    return left("STATE", 9) + right("STATUS", 7) + "  " + left("QUEUE", 28) + right("Q-DONE", 8) + right("Q-FAILED", 9) +
           "  SEED";
}

std::string seed_table_row(const SeedRow& r) {
    std::string st = opt_status(r.status);
    if (!r.error_class.empty()) st = r.error_class;
    return left(url_state_name(r.state), 9) + right(st, 7) + "  " + left(r.queue, 28) + right(num(r.queue_done), 8) +
           right(num(r.queue_failed), 9) + "  " + r.url + (seed_redirected(r) ? " (redirect)" : "");
}

std::string seed_row_json(const SeedRow& r) {
    JsonWriter w;
    w.begin();
    w.field("url", r.url);
    w.field("state", url_state_name(r.state));
    if (r.status) w.field("status", *r.status); else w.field_null("status");
    if (!r.error_class.empty()) w.field("error_class", r.error_class); else w.field_null("error_class");
    if (!r.reason.empty()) w.field("reason", r.reason); else w.field_null("reason");
    w.field("redirect", seed_redirected(r));
    w.field("queue", r.queue);
    w.field("queue_done", r.queue_done);
    w.field("queue_failed", r.queue_failed);
    w.end();
    return w.str();
}

std::string failed_reason(const FailedUrl& r) {
    if (!r.error_class.empty()) return r.error_class;
    if (!r.reason.empty()) return r.reason;
    if (r.status) return "status " + num(*r.status);
    return "-";
}

std::string failed_url_row(const FailedUrl& r) {
    return left(r.fetched_at ? format_iso8601(*r.fetched_at) : "-", 21) + right(opt_status(r.status), 6) + "  " +
           left(failed_reason(r), 20) + " " + r.url;
}

std::string failed_url_json(const FailedUrl& r) {
    JsonWriter w;
    w.begin();
    w.field("kind", "url");
    w.field("url", r.url);
    w.field("queue", r.queue);
    if (r.status) w.field("status", *r.status); else w.field_null("status");
    if (!r.error_class.empty()) w.field("error_class", r.error_class); else w.field_null("error_class");
    w.field("reason", failed_reason(r));
    if (r.fetched_at) w.field("fetched_at", *r.fetched_at); else w.field_null("fetched_at");
    w.end();
    return w.str();
}

std::string failing_host_row(const QueueRow& r) {
    return trim_right(left(r.queue, 28) + right(num(r.failed), 8) + right(num(r.error_count), 8) +
                      right(num(r.host_down), 6) + right(num(r.retry_after_blocks), 5) + "  " + left(r.robots, 11) + " " +
                      host_failure_reason(r.robots, r.host_down, r.retry_after_blocks));
}

std::string failing_host_json(const QueueRow& r) {
    JsonWriter w;
    w.begin();
    w.field("kind", "host");
    w.field("queue", r.queue);
    w.field("failed", r.failed);
    w.field("errors", r.error_count);
    w.field("host_down", r.host_down);
    w.field("retry_after_blocks", r.retry_after_blocks);
    w.field("robots", r.robots);
    w.field("reason", host_failure_reason(r.robots, r.host_down, r.retry_after_blocks));
    w.end();
    return w.str();
}

}  // namespace frontier
