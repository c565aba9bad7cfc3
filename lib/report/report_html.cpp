// The HTML page of frontier-report (lib/report/report_render.hpp): one file with
// inline CSS and SVG charts, no scripts and no network resources, laid out
// for a laptop screen (two columns of cards from 1100 px, one below).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "core/http_date.hpp"
#include "report/crawl_stats.hpp"
#include "report/report_html_charts.hpp"
#include "report/report_render.hpp"

namespace frontier {

namespace report_html {

std::string grouped(int64_t v) {
    std::string d = std::to_string(v < 0 ? -v : v);
    std::string o;
    for (size_t i = 0; i < d.size(); ++i) {
        if (i && (d.size() - i) % 3 == 0) o += ',';
        o += d[i];
    }
    return v < 0 ? "-" + o : o;
}

}  // namespace report_html

namespace {

using namespace report_html;

// An absolute time (UTC, seconds), "-" when unset.
std::string abs_time(std::optional<double> t) {
    if (!t || *t <= 0) return "-";
    std::string v = format_iso8601(*t);
    return "<time>" + html_escape(v.substr(0, 10) + " " + v.substr(11)) + "</time>";
}

// A URL cell: cut in the middle to `max` characters, the whole URL on hover.
std::string url_cell(const std::string& url, size_t max = 60) {
    return "<td class=\"url\" title=\"" + html_escape(url) + "\">" + html_escape(middle_truncate(url, max)) + "</td>";
}

std::string name_cell(const std::string& name, size_t max = 32) {
    return "<td title=\"" + html_escape(name) + "\">" + html_escape(middle_truncate(name, max)) + "</td>";
}

// A queue's balance: its session balance, but a retired queue has none to
// spend ("retired", the stored value on hover).
std::string balance_cell(const QueueRow& r) {
    if (r.state == ReportState::retired)
        return "<td title=\"stored session balance " + grouped(r.session_balance) + "\">retired</td>";
    return "<td>" + grouped(r.session_balance) + "</td>";
}

// The queue tables of the summary; latency and robots.txt are in the hosts
// table, so these fit a 1280 px page.
std::string queue_table(const std::vector<QueueRow>& rows, double now) {
    std::string o =
        "<table><thead><tr><th>queue</th><th class=\"st-cell\">state</th><th>size</th><th>enqueued</th><th>balance</th>"
        "<th>last cost (avg)</th><th>spend / budget</th><th>errors</th><th>in flight</th><th>last dequeue (UTC)</th>"
        "<th>wake (UTC)</th><th class=\"url\">last peeked URL</th></tr></thead><tbody>";
    for (auto& r : rows) {
        char avg[32] = "-";
        if (r.average_cost) snprintf(avg, sizeof avg, "%.1f", *r.average_cost);
        o += "<tr>" + name_cell(r.queue, 28) + "<td class=\"st-cell\"><span class=\"st st-" + report_state_name(r.state) +
             "\">" + report_state_name(r.state) + "</span></td><td>" + grouped(r.size) + "</td><td>" +
             grouped(r.enqueued) + "</td>" + balance_cell(r) + "<td>" +
             (r.last_cost ? grouped(*r.last_cost) + " (" + avg + ")" : std::string("-")) + "</td><td>" +
             grouped(r.total_spend) + " / " + (r.total_budget >= 0 ? grouped(r.total_budget) : std::string("no limit")) +
             "</td><td>" + grouped(r.error_count) + "</td><td>" + grouped(r.in_flight) + "</td><td>" +
             abs_time(r.last_dequeue_at) + "</td><td>" +
             abs_time(r.wake_at > now ? std::optional<double>(r.wake_at) : std::nullopt) + "</td>" +
             url_cell(r.last_peek_url.value_or("-"), 40) + "</tr>";
    }
    if (rows.empty()) o += "<tr><td colspan=\"12\">none</td></tr>";
    return o + "</tbody></table>";
}

std::string host_table(const std::vector<QueueRow>& rows) {
    std::string o = "<table id=\"hosts\"><thead><tr><th>queue (host)</th><th class=\"st-cell\">state</th><th>done</th>"
                    "<th>failed</th><th>blocked</th><th>errors</th><th>bytes</th><th>latency ms</th><th>robots</th>"
                    "<th>spend / budget</th></tr></thead><tbody>";
    for (auto& r : rows) {
        char lat[32] = "-";
        if (r.avg_latency_ms) snprintf(lat, sizeof lat, "%.0f", *r.avg_latency_ms);
        o += "<tr>" + name_cell(r.queue) + "<td class=\"st-cell\"><span class=\"st st-" + report_state_name(r.state) +
             "\">" + report_state_name(r.state) + "</span></td><td>" + grouped(r.done) + "</td><td>" + grouped(r.failed) +
             "</td><td>" + grouped(r.blocked) + "</td><td>" + grouped(r.error_count) + "</td><td>" + grouped(r.bytes) +
             "</td><td>" + lat + "</td><td>" + html_escape(r.robots) + "</td><td>" + grouped(r.total_spend) + " / " +
             (r.total_budget >= 0 ? grouped(r.total_budget) : std::string("no limit")) + "</td></tr>";
    }
    if (rows.empty()) o += "<tr><td colspan=\"10\">no results yet</td></tr>";
    return o + "</tbody></table>";
}

// A seed's own outcome: its state, last status, reason and whether it
// redirected; its queue's totals are in the hosts table, not on its row.
std::string seed_table(const std::vector<SeedRow>& rows) {
    std::string o = "<table id=\"seeds\"><thead><tr><th class=\"url\">seed</th><th>state</th><th>status</th>"
                    "<th>reason</th><th>redirect</th><th>queue</th></tr></thead><tbody>";
    for (auto& r : rows)
        o += "<tr>" + url_cell(r.url) + "<td>" + url_state_name(r.state) + "</td><td>" +
             (r.status ? std::to_string(*r.status) : std::string("-")) + "</td><td>" + html_escape(seed_reason(r)) +
             "</td><td>" + (seed_redirected(r) ? "yes" : "-") + "</td>" + name_cell(r.queue, 28) + "</tr>";
    if (rows.empty()) o += "<tr><td colspan=\"6\">none</td></tr>";
    return o + "</tbody></table>";
}

std::string failed_table(const std::vector<FailedUrl>& rows) {
    std::string o = "<table id=\"failed-urls\"><thead><tr><th class=\"url\">URL</th><th>queue</th><th>status</th>"
                    "<th>reason</th><th>at (UTC)</th></tr></thead><tbody>";
    for (auto& r : rows)
        o += "<tr>" + url_cell(r.url) + name_cell(r.queue, 28) + "<td>" +
             (r.status ? std::to_string(*r.status) : std::string("-")) + "</td><td>" + html_escape(failed_reason(r)) +
             "</td><td>" + abs_time(r.fetched_at) + "</td></tr>";
    if (rows.empty()) o += "<tr><td colspan=\"5\">none</td></tr>";
    return o + "</tbody></table>";
}

std::string failing_hosts_table(const std::vector<QueueRow>& rows) {
    std::string o = "<table id=\"failed-hosts\"><thead><tr><th>queue (host)</th><th>failed</th><th>errors</th>"
                    "<th>host down</th><th>Retry-After</th><th>robots</th><th>reason</th></tr></thead><tbody>";
    for (auto& r : rows)
        o += "<tr>" + name_cell(r.queue) + "<td>" + grouped(r.failed) + "</td><td>" + grouped(r.error_count) + "</td><td>" +
             grouped(r.host_down) + "</td><td>" + grouped(r.retry_after_blocks) + "</td><td>" + html_escape(r.robots) +
             "</td><td>" + html_escape(host_failure_reason(r.robots, r.host_down, r.retry_after_blocks)) + "</td></tr>";
    if (rows.empty()) o += "<tr><td colspan=\"7\">none</td></tr>";
    return o + "</tbody></table>";
}

// Headers wrap, and a URL column takes up to a third of its table, less
// when the other columns need it (max-width:0 lets it shrink below its
// text, cut with an ellipsis), so a table fits its card whatever the
// lengths of its values.
const char* const kStyle = R"CSS(
*{box-sizing:border-box}
body{margin:0;padding:16px 20px;font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1d2329;background:#f4f5f7}
h1{font-size:20px;margin:0 0 4px}
h2{font-size:15px;margin:0 0 8px}
.sub{color:#5a6570;margin:0 0 12px}
.summary{font-size:15px;font-weight:600;margin:0 0 14px}
.grid{display:grid;grid-template-columns:1fr;gap:14px}
@media (min-width:1100px){.grid{grid-template-columns:1fr 1fr}}
.card{background:#fff;border:1px solid #dde1e6;border-radius:6px;padding:12px 14px;min-width:0}
.wide{grid-column:1/-1}
svg.chart{display:block;max-width:100%;height:auto;font-size:13px}
svg .num{font-variant-numeric:tabular-nums;fill:#333}
table{border-collapse:collapse;width:100%;font-size:12px}
th,td{padding:3px 6px;border-bottom:1px solid #eceef1;text-align:right;white-space:nowrap}
th{background:#f0f2f4;position:sticky;top:0;white-space:normal}
td:first-child,th:first-child,td.url,th.url,td.st-cell,th.st-cell{text-align:left}
td.url{max-width:0;width:35%;overflow:hidden;text-overflow:ellipsis}
.nolimit{fill:#5a6570}
table.kv th{text-align:left;width:45%}
.legend{color:#5a6570;font-size:12px;margin:4px 0 0}
.scroll{overflow-x:auto}
.st{padding:1px 6px;border-radius:8px;color:#fff;font-size:11px}
.st-in-process{background:#1f77b4}.st-ready{background:#2ca02c}.st-snoozed{background:#a8a81c}
.st-inactive{background:#7f7f7f}.st-retired{background:#d62728}.st-exhausted{background:#aaa}
)CSS";

// The bars of the summary charts: queue states, URL states, result
// classes (and errors), depth buckets.
std::vector<Bar> queue_state_bars(const QueueCounts& q) {
    return {{"in-process", q.in_process, "#1f77b4"}, {"ready", q.ready, "#2ca02c"},
            {"snoozed", q.snoozed, "#bcbd22"},       {"inactive", q.inactive, "#7f7f7f"},
            {"retired", q.retired, "#d62728"},       {"exhausted", q.exhausted, "#b0b0b0"}};
}

std::vector<Bar> url_state_bars(const UrlCounts& u) {
    return {{"queued", u.queued, "#2ca02c"},   {"leased", u.leased, "#1f77b4"},
            {"done", u.done, "#17becf"},       {"failed", u.failed, "#d62728"},
            {"blocked", u.blocked, "#9467bd"}, {"retired", u.retired, "#8c564b"},
            {"disabled", u.disabled, "#7f7f7f"}};
}

std::vector<Bar> result_bars(const Summary& s) {
    std::vector<Bar> results;
    const char* class_colors[] = {"#aaa", "#2ca02c", "#17becf", "#ff7f0e", "#d62728"};
    for (int c = 1; c <= 5; ++c) {
        std::string k = std::to_string(c) + "xx";
        auto it = s.results.find(k);
        if (c == 1 && it == s.results.end()) continue;
        results.push_back({k, it == s.results.end() ? 0 : it->second, class_colors[c - 1]});
    }
    for (auto& [k, n] : s.results)
        if (k.starts_with("err:")) results.push_back({k.substr(4) + " (error)", n, "#8c564b"});
    return results;
}

std::vector<Bar> depth_bars(const Summary& s) {
    std::vector<Bar> depth;
    for (const char* d : {"0", "1", "2", "3+"}) {
        auto it = s.depth.find(d);
        depth.push_back({std::string("depth ") + d, it == s.depth.end() ? 0 : it->second, "#6b8fc7"});
    }
    return depth;
}

// A two-column table of key and value rows.
class KeyValueTable {
public:
    explicit KeyValueTable(std::string open) : body_(std::move(open)) {}
    void row(const char* k, const std::string& v) { body_ += std::string("<tr><th>") + k + "</th><td>" + v + "</td></tr>"; }
    std::string done() { return body_ + "</tbody></table>"; }

private:
    std::string body_;
};

std::string crawl_summary_table(const Summary& s) {
    const CrawlSummary& c = s.crawl;
    const UrlCounts& u = s.urls;
    KeyValueTable t("<table class=\"kv\" id=\"crawl\"><tbody>");
    t.row("first result", c.start ? abs_time(c.start) : std::string("none yet"));
    t.row("last result", c.last ? abs_time(c.last) : std::string("-"));
    t.row("duration", c.start ? format_duration(*c.last - *c.start) : std::string("-"));
    t.row("URLs done / failed / blocked", grouped(u.done) + " / " + grouped(u.failed) + " / " + grouped(u.blocked));
    t.row("results (errors)", grouped(c.pages) + " (" + grouped(c.errors) + ")");
    t.row("bytes", grouped(c.bytes));
    char rate[64];
    snprintf(rate, sizeof rate, "%.2f", c.avg_pages_per_s);
    t.row("pages/s, average", rate);
    snprintf(rate, sizeof rate, "%.2f", c.recent_pages_per_s);
    t.row("pages/s, 10 minutes before generation", rate);
    t.row("novel / revisit / not modified", grouped(c.novel) + " / " + grouped(c.revisit) + " / " + grouped(c.not_modified));
    if (c.calibration) {
        const Calibration& k = *c.calibration;
        char buf[160];
        snprintf(buf, sizeof buf, "%.1f due/day vs %.1f done/day: %s", k.due_per_day, k.done_per_day,
                 k.met ? "met" : "not met");
        t.row("revisit capacity", buf);
        if (k.feasible_interval_days) {
            snprintf(buf, sizeof buf, "%.1f days", *k.feasible_interval_days);
            t.row("interval the rate can keep", buf);
        }
    }
    return t.done();
}

std::string revisits_table(const RevisitSummary& r) {
    KeyValueTable t("<table id=\"revisits\"><tbody>");
    t.row("URLs marked for revisiting", grouped(r.urls));
    t.row("never visited", grouped(r.never_visited));
    t.row("due now", grouped(r.due_now));
    t.row("next due", r.next_due ? html_escape(format_iso8601(*r.next_due)) : std::string("-"));
    t.row("disabled", grouped(r.disabled));
    t.row("first visits", grouped(r.first_visits));
    t.row("eventful visits", grouped(r.eventful));
    t.row("uneventful visits", grouped(r.uneventful));
    return t.done();
}

std::vector<Bar> status_code_bars(const Summary& s) {
    std::vector<Bar> codes;
    for (auto& [st, n] : s.statuses) codes.push_back({std::to_string(st), n, st < 300 ? "#2ca02c" : st < 400 ? "#17becf" : st < 500 ? "#ff7f0e" : "#d62728"});
    for (auto& [k, n] : s.results)
        if (k.starts_with("err:")) codes.push_back({k.substr(4), n, "#8c564b"});
    return codes;
}

// The MIME types: a chart of the first 12 and a table of all.
std::string mime_types_body(const Summary& s) {
    std::vector<Bar> mimes;
    std::string mt = "<table id=\"mimetypes\"><thead><tr><th>type</th><th>count</th><th>bytes</th></tr></thead><tbody>";
    for (auto& [t, m] : mime_rows(s)) {
        if (mimes.size() < 12) mimes.push_back({t, m.count, "#6b8fc7"});
        mt += "<tr>" + name_cell(t, 40) + "<td>" + grouped(m.count) + "</td><td>" + grouped(m.bytes) + "</td></tr>";
    }
    if (s.mimetypes.empty()) mt += "<tr><td colspan=\"3\">none yet</td></tr>";
    mt += "</tbody></table>";
    return hbar_chart("chart-mimetypes", "MIME types", mimes) + mt;
}

// The results chart (a short crawl's seconds from URL rows, else the
// stored minutes grouped) and the bytes chart (the stored minutes grouped).
std::string timeline_body(const Summary& s) {
    const bool seconds = !s.visit_timeline.empty();
    const int64_t bucket = seconds ? s.visit_bucket : s.timeline_bucket;
    return timeline_chart(seconds ? s.visit_timeline : s.timeline, bucket, false) +
           "<p class=\"legend\">blue: results, red: errors; one bar per " + format_duration(static_cast<double>(bucket)) +
           (seconds ? " (each URL's last result)" : "") + "</p>" + timeline_chart(s.timeline, s.timeline_bucket, true) +
           "<p class=\"legend\">bytes per " + format_duration(static_cast<double>(s.timeline_bucket)) + "</p>";
}

// The page being written: its head, then cards in a grid.
class Page {
public:
    Page(const Summary& s, const std::string& title) {
        const UrlCounts& u = s.urls;
        o_ = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
             "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
             "<title>" + html_escape(title) + "</title><style>" + kStyle + "</style></head><body>\n";
        o_ += "<h1>" + html_escape(title) + "</h1><p class=\"sub\">generated at <time id=\"generated\">" +
              format_iso8601(s.now) + "</time> (all times UTC) &middot; " + grouped(u.added) +
              " URLs added &middot; " + grouped(u.robots_leased) + " robots.txt leases out</p>\n";
        o_ += "<p class=\"summary\" id=\"summary\">" + html_escape(queue_summary_line(s.queues)) +
              "</p>\n<div class=\"grid\">\n";
    }

    void card(const std::string& h, const std::string& body, bool wide = false) {
        o_ += std::string("<section class=\"card") + (wide ? " wide" : "") + "\"><h2>" + html_escape(h) + "</h2>" +
              body + "</section>\n";
    }

    // A wide card holding a table that scrolls.
    void table_card(const std::string& h, const std::string& table) {
        card(h, "<div class=\"scroll\">" + table + "</div>", true);
    }

    std::string end() { return o_ + "</div>\n</body></html>\n"; }

private:
    std::string o_;
};

}  // namespace

std::string html_escape(std::string_view s) {
    std::string o;
    o.reserve(s.size());
    for (char c : s) {
        switch (c) {
            case '&': o += "&amp;"; break;
            case '<': o += "&lt;"; break;
            case '>': o += "&gt;"; break;
            case '"': o += "&quot;"; break;
            case '\'': o += "&#39;"; break;
            default: o += c;
        }
    }
    return o;
}

std::string render_report_html(const Summary& s, const std::vector<QueueRow>& longest,
                               const std::vector<QueueRow>& costly, const std::string& title, const CrawlTables& crawl) {
    Page page(s, title);
    page.card("Crawl summary", crawl_summary_table(s));
    page.card("Queue states", hbar_chart("chart-queue-states", "Queue states", queue_state_bars(s.queues)));
    page.card("URLs by state", hbar_chart("chart-urls", "URLs by state", url_state_bars(s.urls)));
    page.card("Spend vs budget (most expensive queues)", spend_chart(costly));
    page.card("Fetch results by class", hbar_chart("chart-results", "Fetch results by class", result_bars(s)));
    page.card("URLs added by depth", vbar_chart("chart-depth", "URLs added by depth", depth_bars(s)));
    page.card(heatmap_by_depth(s) ? "URLs added by discovery method and depth (no types given)"
                                  : "URLs added by discovery method and type",
              heatmap_chart(s));
    page.card("Results over time (UTC)", timeline_body(s), true);
    page.card("Results by status code and error class",
              hbar_chart("chart-codes", "Results by status and error class", status_code_bars(s)));
    page.card("MIME types (successful results)", mime_types_body(s));
    if (s.revisits) {
        page.card("Revisits", revisits_table(*s.revisits));
        std::vector<Bar> bars;
        for (auto& [b, n] : s.revisits->intervals) bars.push_back({b, n, "#6b8fc7"});
        page.card("Revisit intervals", vbar_chart("chart-intervals", "Revisited URLs by interval", bars));
    }
    page.table_card("Hosts (by URLs done)", host_table(crawl.hosts));
    page.table_card("Seeds", seed_table(crawl.seeds));
    page.table_card("Failed URLs (latest first)", failed_table(crawl.failed));
    page.table_card("Hosts with errors", failing_hosts_table(crawl.failing_hosts));
    page.table_card("Longest queues", queue_table(longest, s.now));
    page.table_card("Most expensive queues", queue_table(costly, s.now));
    return page.end();
}

}  // namespace frontier
