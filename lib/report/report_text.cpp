// Text and JSON rendering of frontier-report data (lib/report/report_render.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "core/http_date.hpp"
#include "json/json.hpp"
#include "report/report_render.hpp"
#include "report/text_cells.hpp"

namespace frontier {

namespace {

using namespace text_cells;

std::string cost_text(const QueueRow& r) {
    if (!r.last_cost) return "-";
    return num(*r.last_cost) + " (" + (r.average_cost ? fixed(*r.average_cost, 1) : "-") + ")";
}

std::string spend_text(const QueueRow& r) {
    return num(r.total_spend) + "/" + (r.total_budget < 0 ? std::string("-") : num(r.total_budget));
}

// Result classes in display order: 1xx..5xx, then error classes by name.
std::vector<std::pair<std::string, int64_t>> status_classes(const Summary& s) {
    std::vector<std::pair<std::string, int64_t>> v;
    for (const char* c : {"1xx", "2xx", "3xx", "4xx", "5xx"}) {
        auto it = s.results.find(c);
        if (it != s.results.end() || std::string_view(c) != "1xx") v.emplace_back(c, it == s.results.end() ? 0 : it->second);
    }
    return v;
}

std::vector<std::pair<std::string, int64_t>> error_classes(const Summary& s) {
    std::vector<std::pair<std::string, int64_t>> v;
    for (auto& [k, n] : s.results)
        if (k.starts_with("err:")) v.emplace_back(k.substr(4), n);
    return v;
}

}  // namespace

std::string revisit_text(const RevisitSummary& r, double now) {
    std::string o = "Revisits: " + num(r.urls) + " URLs (" + num(r.never_visited) + " never visited); " +
                    num(r.due_now) + " due now; next due " +
                    (r.next_due ? format_iso8601(*r.next_due) + " (" + format_relative(*r.next_due, now) + ")"
                                : std::string("-")) +
                    "; " + num(r.disabled) + " disabled\n";
    o += "Visits: " + num(r.first_visits) + " first; " + num(r.eventful) + " eventful; " + num(r.uneventful) +
         " uneventful\nIntervals:";
    bool any = false;
    for (auto& [b, n] : r.intervals)
        if (n) {
            o += std::string(any ? "; " : " ") + b + ": " + num(n);
            any = true;
        }
    return o + (any ? "\n" : " none yet\n");
}

std::string queue_summary_line(const QueueCounts& q) {
    return num(q.total) + " queues: " + num(q.active) + " active (" + num(q.in_process) + " in-process; " +
           num(q.ready) + " ready; " + num(q.snoozed) + " snoozed); " + num(q.inactive) + " inactive; " +
           num(q.retired) + " retired; " + num(q.exhausted) + " exhausted";
}

std::string format_relative(double t, double now) {
    if (t <= 0) return "-";
    double d = t - now;
    int64_t a = static_cast<int64_t>(std::llround(std::fabs(d)));
    if (a == 0) return "now";
    std::string v;
    if (a < 60) v = num(a) + "s";
    else if (a < 3600) v = num(a / 60) + "m" + (a % 60 ? (a % 60 < 10 ? "0" : "") + num(a % 60) + "s" : "");
    else if (a < 86400) v = num(a / 3600) + "h" + (a % 3600 / 60 < 10 ? "0" : "") + num(a % 3600 / 60) + "m";
    else v = num(a / 86400) + "d" + (a % 86400 / 3600 < 10 ? "0" : "") + num(a % 86400 / 3600) + "h";
    return d > 0 ? "in " + v : v + " ago";
}

namespace {

std::string queue_table_prefix_header(bool wide) {
    std::string h = left("QUEUE", 28) + " " + left("STATE", 10) + right("SIZE", 9) + right("ENQUEUED", 9) +
                    right("BALANCE", 8) + right("COST(AVG)", 11) + right("SPEND/BUDGET", 14) + right("ERR", 6) + "  " +
                    left("DEQUEUED", 9) + " " + left("WAKE", 9);
    if (wide)
        h += right("FLIGHT", 7) + right("LAT-MS", 8) + right("DOWN", 6) + right("RA", 5) + "  " + left("ROBOTS", 11);
    return h;
}

// The fixed columns, then the two URL columns fitted to `width`.
std::string with_urls(std::string fixed, const std::string& a, const std::string& b, size_t width) {
    if (width == 0) return fixed + " " + a + " " + b;
    size_t room = width > fixed.size() + 2 ? width - fixed.size() - 2 : 0;
    size_t each = room / 2;
    if (each < 8) return fit_line(std::move(fixed), width);
    auto cut = [](std::string s, size_t w) { return s.size() > w ? s.substr(0, w - 1) + "~" : s; };
    return fixed + " " + left(cut(a, each), each) + " " + cut(b, room - each);
}

}  // namespace

std::string fit_line(std::string line, size_t width) {
    if (width > 0 && line.size() > width) line = line.substr(0, width - 1) + "~";
    return line;
}

std::string queue_table_header(bool wide, size_t width) {
    std::string h = with_urls(queue_table_prefix_header(wide), "LAST-PEEK", "LAST-QUEUED", width);
    while (!h.empty() && h.back() == ' ') h.pop_back();
    return h;
}

std::string queue_table_row(const QueueRow& r, double now, bool wide, size_t width) {
    std::string s = left(r.queue, 28) + " " + left(report_state_name(r.state), 10) + right(num(r.size), 9) +
                    right(num(r.enqueued), 9) + right(num(r.session_balance), 8) + right(cost_text(r), 11) +
                    right(spend_text(r), 14) + right(num(r.error_count), 6) + "  " +
                    left(format_relative(r.last_dequeue_at.value_or(0), now), 9) + " " +
                    left(r.wake_at > now ? format_relative(r.wake_at, now) : "-", 9);
    if (wide)
        s += right(num(r.in_flight), 7) + right(r.avg_latency_ms ? fixed(*r.avg_latency_ms, 0) : "-", 8) +
             right(num(r.host_down), 6) + right(num(r.retry_after_blocks), 5) + "  " + left(r.robots, 11);
    s = with_urls(std::move(s), r.last_peek_url.value_or("-"), r.last_queued_url.value_or("-"), width);
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
}

std::string render_report_text(const Summary& s, const std::vector<QueueRow>& longest,
                               const std::vector<QueueRow>& costly, const std::string& title, size_t width) {
    std::string o;
    o += title + " at " + format_iso8601(s.now) + "\n";
    o += queue_summary_line(s.queues) + "\n";
    const UrlCounts& u = s.urls;
    o += "URLs: " + num(u.queued) + " queued; " + num(u.leased) + " leased; " + num(u.done) + " done; " +
         num(u.failed) + " failed; " + num(u.blocked) + " blocked; " + num(u.retired) + " retired; " +
         num(u.disabled) + " disabled (" + num(u.added) + " added; " + num(u.robots_leased) + " robots.txt leased)\n";
    o += "Results:";
    bool first = true;
    for (auto& [k, n] : status_classes(s)) {
        o += std::string(first ? " " : "; ") + num(n) + " " + k;
        first = false;
    }
    auto errs = error_classes(s);
    int64_t nerr = 0;
    for (auto& e : errs) nerr += e.second;
    o += "; " + num(nerr) + " errors";
    if (!errs.empty()) {
        o += " (";
        for (size_t i = 0; i < errs.size(); ++i) o += (i ? "; " : "") + errs[i].first + " " + num(errs[i].second);
        o += ")";
    }
    o += "\n" + crawl_text(s);
    o += "Depth: ";
    first = true;
    for (const char* d : {"0", "1", "2", "3+"}) {
        auto it = s.depth.find(d);
        o += std::string(first ? "" : "; ") + d + ": " + num(it == s.depth.end() ? 0 : it->second);
        first = false;
    }
    o += "\n";
    if (s.revisits) o += revisit_text(*s.revisits, s.now);
    const auto& heat = heatmap_by_depth(s) ? s.heat_depth : s.heatmap;
    if (!heat.empty()) {
        std::set<std::string> types;
        for (auto& [d, row] : heat)
            for (auto& [t, n] : row) types.insert(t);
        size_t w0 = 9;
        for (auto& [d, row] : heat) w0 = std::max(w0, d.size());
        o += std::string("\nURLs added by discovery x ") + (heatmap_by_depth(s) ? "depth" : "type") + ":\n" +
             left("discovery", w0);
        for (auto& t : types) o += "  " + right(t, std::max<size_t>(t.size(), 6));
        o += "  " + right("total", 6) + "\n";
        for (auto& [d, row] : heat) {
            o += left(d, w0);
            int64_t total = 0;
            for (auto& t : types) {
                auto it = row.find(t);
                int64_t n = it == row.end() ? 0 : it->second;
                total += n;
                o += "  " + right(num(n), std::max<size_t>(t.size(), 6));
            }
            o += "  " + right(num(total), 6) + "\n";
        }
    }
    auto table = [&](const char* name, const std::vector<QueueRow>& rows) {
        if (rows.empty()) return;
        o += std::string("\n") + name + ":\n" + queue_table_header(false, width) + "\n";
        for (auto& r : rows) o += queue_table_row(r, s.now, false, width) + "\n";
    };
    table("Longest queues", longest);
    table("Most expensive queues", costly);
    return o;
}

bool heatmap_by_depth(const Summary& s) {
    if (s.heat_depth.empty()) return false;
    for (auto& [d, row] : s.heatmap)
        for (auto& [t, n] : row)
            if (t != "other" && n > 0) return false;
    return true;
}

namespace {

void queue_counts_json(JsonWriter& w, const QueueCounts& q) {
    w.key("queues");
    w.begin_object();
    w.field("total", q.total);
    w.field("active", q.active);
    w.field("in_process", q.in_process);
    w.field("ready", q.ready);
    w.field("snoozed", q.snoozed);
    w.field("inactive", q.inactive);
    w.field("retired", q.retired);
    w.field("exhausted", q.exhausted);
    w.end_object();
}

void url_counts_json(JsonWriter& w, const UrlCounts& u) {
    w.key("urls");
    w.begin_object();
    w.field("queued", u.queued);
    w.field("leased", u.leased);
    w.field("done", u.done);
    w.field("failed", u.failed);
    w.field("blocked", u.blocked);
    w.field("retired", u.retired);
    w.field("disabled", u.disabled);
    w.field("robots_leased", u.robots_leased);
    w.field("added", u.added);
    w.end_object();
}

void results_json(JsonWriter& w, const Summary& s) {
    w.key("results");
    w.begin_object();
    for (auto& [k, n] : status_classes(s)) w.field(k, n);
    w.key("errors");
    w.begin_object();
    for (auto& [k, n] : error_classes(s)) w.field(k, n);
    w.end_object();
    w.end_object();
}

// A heatmap (rows of counts by column name) under `key`.
void heatmap_json(JsonWriter& w, const char* key, const std::map<std::string, std::map<std::string, int64_t>>& heatmap) {
    w.key(key);
    w.begin_object();
    for (auto& [d, row] : heatmap) {
        w.key(d);
        w.begin_object();
        for (auto& [t, n] : row) w.field(t, n);
        w.end_object();
    }
    w.end_object();
}

void depth_json(JsonWriter& w, const Summary& s) {
    w.key("depth");
    w.begin_object();
    for (const char* d : {"0", "1", "2", "3+"}) {
        auto it = s.depth.find(d);
        w.field(d, it == s.depth.end() ? int64_t{0} : it->second);
    }
    w.end_object();
}

void revisits_json(JsonWriter& w, const RevisitSummary& r) {
    w.key("revisits");
    w.begin_object();
    w.field("urls", r.urls);
    w.field("never_visited", r.never_visited);
    w.field("due_now", r.due_now);
    if (r.next_due) w.field("next_due", *r.next_due); else w.field_null("next_due");
    w.field("disabled", r.disabled);
    w.field("first_visits", r.first_visits);
    w.field("eventful", r.eventful);
    w.field("uneventful", r.uneventful);
    w.key("intervals");
    w.begin_object();
    for (auto& [b, n] : r.intervals) w.field(b, n);
    w.end_object();
    w.end_object();
}

void statuses_and_mimetypes_json(JsonWriter& w, const Summary& s) {
    w.key("statuses");
    w.begin_object();
    for (auto& [st, n] : s.statuses) w.field(std::to_string(st), n);
    w.end_object();
    w.key("mimetypes");
    w.begin_object();
    for (auto& [t, m] : mime_rows(s)) {
        w.key(t);
        w.begin_object();
        w.field("count", m.count);
        w.field("bytes", m.bytes);
        w.end_object();
    }
    w.end_object();
}

}  // namespace

std::string render_summary_json(const Summary& s) {
    JsonWriter w;
    w.begin();
    w.field("generated_at", s.now);
    queue_counts_json(w, s.queues);
    url_counts_json(w, s.urls);
    results_json(w, s);
    heatmap_json(w, "heatmap", s.heatmap);
    heatmap_json(w, "heatmap_depth", s.heat_depth);
    depth_json(w, s);
    if (s.revisits) revisits_json(w, *s.revisits);
    crawl_json(w, s);
    statuses_and_mimetypes_json(w, s);
    w.end();
    return w.str();
}

std::string queue_row_json(const QueueRow& r) {
    JsonWriter w;
    w.begin();
    w.field("queue", r.queue);
    w.field("state", report_state_name(r.state));
    if (r.retired_by_hand) w.field("retired_by_hand", true);
    w.field("size", r.size);
    w.field("enqueued", r.enqueued);
    w.field("session_balance", r.session_balance);
    if (r.last_cost) w.field("last_cost", *r.last_cost); else w.field_null("last_cost");
    if (r.average_cost) w.field("average_cost", *r.average_cost); else w.field_null("average_cost");
    w.field("total_spend", r.total_spend);
    w.field("total_budget", r.total_budget);
    w.field("session_budget", r.session_budget);
    w.field("error_count", r.error_count);
    w.field("in_flight", r.in_flight);
    w.field("wake_at", r.wake_at);
    if (r.last_dequeue_at) w.field("last_dequeue_at", *r.last_dequeue_at); else w.field_null("last_dequeue_at");
    if (r.avg_latency_ms) w.field("avg_latency_ms", *r.avg_latency_ms); else w.field_null("avg_latency_ms");
    if (r.last_peek_url) w.field("last_peek_url", *r.last_peek_url); else w.field_null("last_peek_url");
    if (r.last_queued_url) w.field("last_queued_url", *r.last_queued_url); else w.field_null("last_queued_url");
    w.field("done", r.done);
    w.field("failed", r.failed);
    w.field("blocked", r.blocked);
    w.field("host_down", r.host_down);
    w.field("retry_after_blocks", r.retry_after_blocks);
    w.field("bytes", r.bytes);
    w.field("robots", r.robots);
    w.end();
    return w.str();
}

}  // namespace frontier
