// The HTML page of frontier-report (lib/report/report_render.hpp): one file with
// inline CSS and SVG charts, no scripts and no network resources, laid out
// for a laptop screen (two columns of cards from 1100 px, one below).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "core/http_date.hpp"
#include "report/crawl_stats.hpp"
#include "report/report_render.hpp"

namespace frontier {

namespace {

// 1234567 -> "1,234,567".
std::string grouped(int64_t v) {
    std::string d = std::to_string(v < 0 ? -v : v);
    std::string o;
    for (size_t i = 0; i < d.size(); ++i) {
        if (i && (d.size() - i) % 3 == 0) o += ',';
        o += d[i];
    }
    return v < 0 ? "-" + o : o;
}

std::string px(double v) {
    char buf[32];
    snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

struct Bar {
    std::string label;
    int64_t value = 0;
    std::string color;
};

// A horizontal bar chart: one row per bar, label left, value right of the bar.
std::string hbar_chart(const std::string& id, const std::string& title, const std::vector<Bar>& bars) {
    const double width = 560, label_w = 130, value_w = 90, row_h = 24;
    double area = width - label_w - value_w;
    int64_t max = 1;
    for (auto& b : bars) max = std::max(max, b.value);
    double height = row_h * static_cast<double>(std::max<size_t>(bars.size(), 1)) + 8;
    std::string o = "<svg class=\"chart\" id=\"" + id + "\" role=\"img\" viewBox=\"0 0 " + px(width) + " " +
                    px(height) + "\" width=\"100%\"><title>" + html_escape(title) + "</title>";
    double y = 4;
    for (auto& b : bars) {
        double w = b.value > 0 ? std::max(1.5, area * static_cast<double>(b.value) / static_cast<double>(max)) : 0;
        o += "<text x=\"" + px(label_w - 8) + "\" y=\"" + px(y + 16) + "\" text-anchor=\"end\">" +
             html_escape(b.label) + "</text>";
        o += "<rect x=\"" + px(label_w) + "\" y=\"" + px(y + 3) + "\" width=\"" + px(w) + "\" height=\"" +
             px(row_h - 6) + "\" fill=\"" + b.color + "\" rx=\"2\"/>";
        o += "<text x=\"" + px(label_w + w + 6) + "\" y=\"" + px(y + 16) + "\" class=\"num\">" + grouped(b.value) +
             "</text>";
        y += row_h;
    }
    if (bars.empty()) o += "<text x=\"10\" y=\"20\">none</text>";
    return o + "</svg>";
}

// Vertical bars (depth buckets).
std::string vbar_chart(const std::string& id, const std::string& title, const std::vector<Bar>& bars) {
    const double width = 560, height = 220, base = 185, top = 20;
    int64_t max = 1;
    for (auto& b : bars) max = std::max(max, b.value);
    double slot = width / static_cast<double>(std::max<size_t>(bars.size(), 1));
    std::string o = "<svg class=\"chart\" id=\"" + id + "\" role=\"img\" viewBox=\"0 0 " + px(width) + " " +
                    px(height) + "\" width=\"100%\"><title>" + html_escape(title) + "</title>";
    o += "<line x1=\"0\" y1=\"" + px(base) + "\" x2=\"" + px(width) + "\" y2=\"" + px(base) + "\" stroke=\"#999\"/>";
    for (size_t i = 0; i < bars.size(); ++i) {
        const Bar& b = bars[i];
        double h = (base - top) * static_cast<double>(b.value) / static_cast<double>(max);
        double x = slot * static_cast<double>(i) + slot * 0.2, w = slot * 0.6;
        o += "<rect x=\"" + px(x) + "\" y=\"" + px(base - h) + "\" width=\"" + px(w) + "\" height=\"" + px(h) +
             "\" fill=\"" + b.color + "\" rx=\"2\"/>";
        o += "<text x=\"" + px(x + w / 2) + "\" y=\"" + px(base - h - 5) + "\" text-anchor=\"middle\" class=\"num\">" +
             grouped(b.value) + "</text>";
        o += "<text x=\"" + px(x + w / 2) + "\" y=\"" + px(base + 20) + "\" text-anchor=\"middle\">" +
             html_escape(b.label) + "</text>";
    }
    return o + "</svg>";
}

// Spend against budget per queue: a grey track for the budget (none: no
// track, "no limit"), the spend bar on it, red once spend reaches the budget.
std::string spend_chart(const std::vector<QueueRow>& rows) {
    const double width = 560, label_w = 170, value_w = 110, row_h = 24;
    double area = width - label_w - value_w;
    // Only queues with a budget get a bar (a spend against no limit has no
    // proportion to show); the scale is theirs.
    int64_t max = 1;
    for (auto& r : rows)
        if (r.total_budget >= 0) max = std::max({max, r.total_spend, r.total_budget});
    double height = row_h * static_cast<double>(std::max<size_t>(rows.size(), 1)) + 8;
    std::string o = "<svg class=\"chart\" id=\"chart-spend\" role=\"img\" viewBox=\"0 0 " + px(width) + " " +
                    px(height) + "\" width=\"100%\"><title>Spend vs budget</title>";
    double y = 4;
    auto scale = [&](int64_t v) { return area * static_cast<double>(v) / static_cast<double>(max); };
    for (auto& r : rows) {
        std::string label = r.queue.size() > 24 ? r.queue.substr(0, 23) + "~" : r.queue;
        o += "<text x=\"" + px(label_w - 8) + "\" y=\"" + px(y + 16) + "\" text-anchor=\"end\"><title>" +
             html_escape(r.queue) + "</title>" + html_escape(label) + "</text>";
        bool over = r.total_budget >= 0 && r.total_spend >= r.total_budget;
        if (r.total_budget < 0) {
            o += "<text x=\"" + px(label_w) + "\" y=\"" + px(y + 16) + "\" class=\"num nolimit\">" +
                 grouped(r.total_spend) + " spent &middot; no limit</text>";
            y += row_h;
            continue;
        }
        o += "<rect x=\"" + px(label_w) + "\" y=\"" + px(y + 3) + "\" width=\"" + px(scale(r.total_budget)) +
             "\" height=\"" + px(row_h - 6) + "\" fill=\"#e3e6ea\" stroke=\"#b8bec6\" rx=\"2\"/>";
        double w = r.total_spend > 0 ? std::max(1.5, scale(r.total_spend)) : 0;
        o += "<rect x=\"" + px(label_w) + "\" y=\"" + px(y + 6) + "\" width=\"" + px(w) + "\" height=\"" +
             px(row_h - 12) + "\" fill=\"" + (over ? "#d62728" : "#1f77b4") + "\" rx=\"2\"/>";
        double tx = label_w + std::max(w, scale(r.total_budget)) + 6;
        o += "<text x=\"" + px(tx) + "\" y=\"" + px(y + 16) + "\" class=\"num\">" + grouped(r.total_spend) + " / " +
             grouped(r.total_budget) + "</text>";
        y += row_h;
    }
    if (rows.empty()) o += "<text x=\"10\" y=\"20\">no queue has spent anything yet</text>";
    return o + "</svg>";
}

// Discovery x type grid (discovery x depth when no type is known,
// heatmap_by_depth), cells shaded by count (square-root scale).
std::string heatmap_chart(const Summary& s) {
    const auto& heat = heatmap_by_depth(s) ? s.heat_depth : s.heatmap;
    std::set<std::string> types;
    int64_t max = 1;
    for (auto& [d, row] : heat)
        for (auto& [t, n] : row) {
            types.insert(t);
            max = std::max(max, n);
        }
    const double label_w = 130, cell_w = 80, cell_h = 30, head_h = 26;
    double width = std::max(560.0, label_w + cell_w * static_cast<double>(types.size()) + 10);
    double height = head_h + cell_h * static_cast<double>(std::max<size_t>(heat.size(), 1)) + 8;
    std::string o = "<svg class=\"chart\" id=\"chart-heatmap\" role=\"img\" viewBox=\"0 0 " + px(width) + " " +
                    px(height) + "\" width=\"100%\"><title>URLs added by discovery and " +
                    (heatmap_by_depth(s) ? "depth" : "type") + "</title>";
    double x = label_w;
    for (auto& t : types) {
        o += "<text x=\"" + px(x + cell_w / 2) + "\" y=\"18\" text-anchor=\"middle\">" + html_escape(t) + "</text>";
        x += cell_w;
    }
    double y = head_h;
    for (auto& [d, row] : heat) {
        o += "<text x=\"" + px(label_w - 8) + "\" y=\"" + px(y + 20) + "\" text-anchor=\"end\">" + html_escape(d) +
             "</text>";
        x = label_w;
        for (auto& t : types) {
            auto it = row.find(t);
            int64_t n = it == row.end() ? 0 : it->second;
            double f = std::sqrt(static_cast<double>(n) / static_cast<double>(max));
            int light = static_cast<int>(96 - 58 * f);  // HSL lightness: 96% (none) .. 38% (most)
            o += "<rect class=\"cell\" x=\"" + px(x + 1) + "\" y=\"" + px(y + 1) + "\" width=\"" + px(cell_w - 2) +
                 "\" height=\"" + px(cell_h - 2) + "\" fill=\"hsl(24,85%," + std::to_string(light) + "%)\"/>";
            o += "<text x=\"" + px(x + cell_w / 2) + "\" y=\"" + px(y + 20) + "\" text-anchor=\"middle\" class=\"num\"" +
                 (f > 0.6 ? " style=\"fill:#fff\"" : "") + ">" + grouped(n) + "</text>";
            x += cell_w;
        }
        y += cell_h;
    }
    if (heat.empty()) o += "<text x=\"10\" y=\"40\">no URLs added yet</text>";
    return o + "</svg>";
}

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

std::string seed_table(const std::vector<SeedRow>& rows) {
    std::string o = "<table id=\"seeds\"><thead><tr><th class=\"url\">seed</th><th>state</th><th>status</th>"
                    "<th>redirect</th><th>queue</th><th>pages done there</th><th>failed there</th></tr></thead><tbody>";
    for (auto& r : rows) {
        std::string st = r.error_class.empty() ? (r.status ? std::to_string(*r.status) : std::string("-")) : r.error_class;
        o += "<tr>" + url_cell(r.url) + "<td>" + url_state_name(r.state) + "</td><td>" + html_escape(st) + "</td><td>" +
             (seed_redirected(r) ? "yes" : "-") + "</td>" + name_cell(r.queue, 28) + "<td>" + grouped(r.queue_done) +
             "</td><td>" + grouped(r.queue_failed) + "</td></tr>";
    }
    if (rows.empty()) o += "<tr><td colspan=\"7\">none</td></tr>";
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

// Results per time bucket (errors in red under the successful ones), or
// with `bytes` the bytes per bucket; time axis labelled in UTC at the first
// and last bucket.
std::string timeline_chart(const Summary& s, bool bytes) {
    const double width = 1100, height = bytes ? 170 : 230, top = 16, left_w = 70;
    const double base = height - 40;
    std::string o = std::string("<svg class=\"chart\" id=\"") + (bytes ? "chart-timeline-bytes" : "chart-timeline") +
                    "\" role=\"img\" viewBox=\"0 0 " + px(width) + " " + px(height) + "\" width=\"100%\"><title>" +
                    (bytes ? "Bytes" : "URL results") + " per " +
                    format_duration(static_cast<double>(s.timeline_bucket)) + " (UTC)</title>";
    if (s.timeline.empty()) return o + "<text x=\"10\" y=\"20\">no URL result recorded yet</text></svg>";
    double t0 = s.timeline.front().start, t1 = s.timeline.back().start + static_cast<double>(s.timeline_bucket);
    int64_t max = 1;
    for (auto& b : s.timeline) max = std::max(max, bytes ? b.bytes : b.pages);
    double area = width - left_w - 10;
    double slot = area * static_cast<double>(s.timeline_bucket) / std::max(t1 - t0, 1.0);
    o += "<line x1=\"" + px(left_w) + "\" y1=\"" + px(base) + "\" x2=\"" + px(width - 10) + "\" y2=\"" + px(base) +
         "\" stroke=\"#999\"/>";
    o += "<text x=\"" + px(left_w - 6) + "\" y=\"" + px(top + 4) + "\" text-anchor=\"end\" class=\"num\">" + grouped(max) +
         "</text><text x=\"" + px(left_w - 6) + "\" y=\"" + px(base) + "\" text-anchor=\"end\" class=\"num\">0</text>";
    for (auto& b : s.timeline) {
        double x = left_w + area * (b.start - t0) / std::max(t1 - t0, 1.0);
        double w = std::clamp(slot * 0.85, 1.0, 40.0);
        std::string tip = "<title>" + format_iso8601(b.start) + ": " + grouped(b.pages) + " results, " + grouped(b.errors) +
                          " errors, " + grouped(b.bytes) + " bytes</title>";
        if (bytes) {
            double h = (base - top) * static_cast<double>(b.bytes) / static_cast<double>(max);
            o += "<rect class=\"tl-bytes\" x=\"" + px(x) + "\" y=\"" + px(base - h) + "\" width=\"" + px(w) +
                 "\" height=\"" + px(h) + "\" fill=\"#6b8fc7\">" + tip + "</rect>";
            continue;
        }
        double h = (base - top) * static_cast<double>(b.pages) / static_cast<double>(max);
        double he = (base - top) * static_cast<double>(b.errors) / static_cast<double>(max);
        o += "<rect class=\"tl-pages\" x=\"" + px(x) + "\" y=\"" + px(base - h) + "\" width=\"" + px(w) + "\" height=\"" +
             px(h - he) + "\" fill=\"#1f77b4\">" + tip + "</rect>";
        if (b.errors)
            o += "<rect class=\"tl-errors\" x=\"" + px(x) + "\" y=\"" + px(base - he) + "\" width=\"" + px(w) +
                 "\" height=\"" + px(he) + "\" fill=\"#d62728\">" + tip + "</rect>";
    }
    o += "<text x=\"" + px(left_w) + "\" y=\"" + px(base + 20) + "\">" + html_escape(format_iso8601(t0)) + "</text>";
    o += "<text x=\"" + px(width - 10) + "\" y=\"" + px(base + 20) + "\" text-anchor=\"end\">" + html_escape(format_iso8601(t1)) +
         "</text>";
    return o + "</svg>";
}

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
th{background:#f0f2f4;position:sticky;top:0}
td:first-child,th:first-child,td.url,th.url,td.st-cell,th.st-cell{text-align:left}
td.url{max-width:420px;overflow:hidden;text-overflow:ellipsis}
.nolimit{fill:#5a6570}
table.kv th{text-align:left;width:45%}
.legend{color:#5a6570;font-size:12px;margin:4px 0 0}
.scroll{overflow-x:auto}
.st{padding:1px 6px;border-radius:8px;color:#fff;font-size:11px}
.st-in-process{background:#1f77b4}.st-ready{background:#2ca02c}.st-snoozed{background:#a8a81c}
.st-inactive{background:#7f7f7f}.st-retired{background:#d62728}.st-exhausted{background:#aaa}
)CSS";

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
    const QueueCounts& q = s.queues;
    const UrlCounts& u = s.urls;
    std::vector<Bar> states = {{"in-process", q.in_process, "#1f77b4"}, {"ready", q.ready, "#2ca02c"},
                               {"snoozed", q.snoozed, "#bcbd22"},       {"inactive", q.inactive, "#7f7f7f"},
                               {"retired", q.retired, "#d62728"},       {"exhausted", q.exhausted, "#b0b0b0"}};
    std::vector<Bar> urls = {{"queued", u.queued, "#2ca02c"},   {"leased", u.leased, "#1f77b4"},
                             {"done", u.done, "#17becf"},       {"failed", u.failed, "#d62728"},
                             {"blocked", u.blocked, "#9467bd"}, {"retired", u.retired, "#8c564b"},
                             {"disabled", u.disabled, "#7f7f7f"}};
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
    std::vector<Bar> depth;
    for (const char* d : {"0", "1", "2", "3+"}) {
        auto it = s.depth.find(d);
        depth.push_back({std::string("depth ") + d, it == s.depth.end() ? 0 : it->second, "#6b8fc7"});
    }

    std::string o = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                    "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
                    "<title>" + html_escape(title) + "</title><style>" + kStyle + "</style></head><body>\n";
    o += "<h1>" + html_escape(title) + "</h1><p class=\"sub\">generated at <time id=\"generated\">" + format_iso8601(s.now) +
         "</time> (all times UTC) &middot; " +
         grouped(u.added) + " URLs added &middot; " + grouped(u.robots_leased) + " robots.txt leases out</p>\n";
    o += "<p class=\"summary\" id=\"summary\">" + html_escape(queue_summary_line(q)) + "</p>\n<div class=\"grid\">\n";
    auto card = [&](const std::string& h, const std::string& body, bool wide = false) {
        o += std::string("<section class=\"card") + (wide ? " wide" : "") + "\"><h2>" + html_escape(h) + "</h2>" + body +
             "</section>\n";
    };
    {
        const CrawlSummary& c = s.crawl;
        std::string body = "<table class=\"kv\" id=\"crawl\"><tbody>";
        auto row = [&](const char* k, const std::string& v) {
            body += std::string("<tr><th>") + k + "</th><td>" + v + "</td></tr>";
        };
        row("first result", c.start ? abs_time(c.start) : std::string("none yet"));
        row("last result", c.last ? abs_time(c.last) : std::string("-"));
        row("duration", c.start ? format_duration(*c.last - *c.start) : std::string("-"));
        row("URLs done / failed / blocked", grouped(u.done) + " / " + grouped(u.failed) + " / " + grouped(u.blocked));
        row("results (errors)", grouped(c.pages) + " (" + grouped(c.errors) + ")");
        row("bytes", grouped(c.bytes));
        char rate[64];
        snprintf(rate, sizeof rate, "%.2f", c.avg_pages_per_s);
        row("pages/s, average", rate);
        snprintf(rate, sizeof rate, "%.2f", c.recent_pages_per_s);
        row("pages/s, 10 minutes before generation", rate);
        row("novel / revisit / not modified", grouped(c.novel) + " / " + grouped(c.revisit) + " / " + grouped(c.not_modified));
        if (c.calibration) {
            const Calibration& k = *c.calibration;
            char buf[160];
            snprintf(buf, sizeof buf, "%.1f due/day vs %.1f done/day: %s", k.due_per_day, k.done_per_day,
                     k.met ? "met" : "not met");
            row("revisit capacity", buf);
            if (k.feasible_interval_days) {
                snprintf(buf, sizeof buf, "%.1f days", *k.feasible_interval_days);
                row("interval the rate can keep", buf);
            }
        }
        body += "</tbody></table>";
        card("Crawl summary", body);
    }
    card("Queue states", hbar_chart("chart-queue-states", "Queue states", states));
    card("URLs by state", hbar_chart("chart-urls", "URLs by state", urls));
    card("Spend vs budget (most expensive queues)", spend_chart(costly));
    card("Fetch results by class", hbar_chart("chart-results", "Fetch results by class", results));
    card("URLs added by depth", vbar_chart("chart-depth", "URLs added by depth", depth));
    card(heatmap_by_depth(s) ? "URLs added by discovery method and depth (no types given)"
                             : "URLs added by discovery method and type",
         heatmap_chart(s));
    card("Results over time (UTC)",
         timeline_chart(s, false) + "<p class=\"legend\">blue: results, red: errors; one bar per " +
             format_duration(static_cast<double>(s.timeline_bucket)) + "</p>" + timeline_chart(s, true) +
             "<p class=\"legend\">bytes per " + format_duration(static_cast<double>(s.timeline_bucket)) + "</p>",
         true);
    {
        std::vector<Bar> codes;
        for (auto& [st, n] : s.statuses) codes.push_back({std::to_string(st), n, st < 300 ? "#2ca02c" : st < 400 ? "#17becf" : st < 500 ? "#ff7f0e" : "#d62728"});
        for (auto& [k, n] : s.results)
            if (k.starts_with("err:")) codes.push_back({k.substr(4), n, "#8c564b"});
        card("Results by status code and error class", hbar_chart("chart-codes", "Results by status and error class", codes));
        std::vector<Bar> mimes;
        std::string mt = "<table id=\"mimetypes\"><thead><tr><th>type</th><th>count</th><th>bytes</th></tr></thead><tbody>";
        for (auto& [t, m] : mime_rows(s)) {
            if (mimes.size() < 12) mimes.push_back({t, m.count, "#6b8fc7"});
            mt += "<tr>" + name_cell(t, 40) + "<td>" + grouped(m.count) + "</td><td>" + grouped(m.bytes) + "</td></tr>";
        }
        if (s.mimetypes.empty()) mt += "<tr><td colspan=\"3\">none yet</td></tr>";
        mt += "</tbody></table>";
        card("MIME types (successful results)", hbar_chart("chart-mimetypes", "MIME types", mimes) + mt);
    }
    if (s.revisits) {
        const RevisitSummary& r = *s.revisits;
        std::string body = "<table id=\"revisits\"><tbody>";
        auto row = [&](const char* k, const std::string& v) {
            body += std::string("<tr><th>") + k + "</th><td>" + v + "</td></tr>";
        };
        row("URLs marked for revisiting", grouped(r.urls));
        row("never visited", grouped(r.never_visited));
        row("due now", grouped(r.due_now));
        row("next due", r.next_due ? html_escape(format_iso8601(*r.next_due)) : std::string("-"));
        row("disabled", grouped(r.disabled));
        row("first visits", grouped(r.first_visits));
        row("eventful visits", grouped(r.eventful));
        row("uneventful visits", grouped(r.uneventful));
        body += "</tbody></table>";
        card("Revisits", body);
        std::vector<Bar> bars;
        for (auto& [b, n] : r.intervals) bars.push_back({b, n, "#6b8fc7"});
        card("Revisit intervals", vbar_chart("chart-intervals", "Revisited URLs by interval", bars));
    }
    card("Hosts (by URLs done)", "<div class=\"scroll\">" + host_table(crawl.hosts) + "</div>", true);
    card("Seeds", "<div class=\"scroll\">" + seed_table(crawl.seeds) + "</div>", true);
    card("Failed URLs (latest first)", "<div class=\"scroll\">" + failed_table(crawl.failed) + "</div>", true);
    card("Hosts with errors", "<div class=\"scroll\">" + failing_hosts_table(crawl.failing_hosts) + "</div>", true);
    card("Longest queues", "<div class=\"scroll\">" + queue_table(longest, s.now) + "</div>", true);
    card("Most expensive queues", "<div class=\"scroll\">" + queue_table(costly, s.now) + "</div>", true);
    o += "</div>\n</body></html>\n";
    return o;
}

}  // namespace frontier
