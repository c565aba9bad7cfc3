// The SVG charts of frontier-report's HTML page (report_html_charts.hpp).
#include "report/report_html_charts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "core/http_date.hpp"
#include "report/crawl_stats.hpp"

namespace frontier::report_html {

namespace {

std::string px(double v) {
    char buf[32];
    snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

// A label of at most `max` px: cut in the middle (text_px), the whole on hover.
std::string label_text(const std::string& label, double max) {
    std::string cut = label;
    for (size_t n = label.size(); n > 1 && text_px(cut) > max; --n) cut = middle_truncate(label, n);
    if (cut == label) return html_escape(label);
    return "<title>" + html_escape(label) + "</title>" + html_escape(cut);
}

// The width (text_px) of the widest text(item) of `items`, kept within [lo, hi].
template <class Range, class F>
double widest(const Range& items, F&& text, double lo, double hi) {
    double w = 0;
    for (auto& i : items) w = std::max(w, text_px(text(i)));
    return std::clamp(w, lo, hi);
}

// The x of a centred text of `text` near `x`, moved so it stays in [0, width].
double centred_x(double x, const std::string& text, double width) {
    double half = text_px(text) / 2 + 2;
    return std::clamp(x, std::min(half, width / 2), std::max(width - half, width / 2));
}

}  // namespace

double text_px(std::string_view s) {
    double w = 0;
    for (char ch : s) {
        unsigned char c = static_cast<unsigned char>(ch);
        if ((c & 0xC0) == 0x80) continue;  // a UTF-8 continuation byte
        bool wide = (c >= 'A' && c <= 'Z') || c == 'm' || c == 'w' || c >= 0x80;
        w += (wide ? 0.95 : 0.65) * kChartFontPx;
    }
    return w;
}

// A horizontal bar chart: one row per bar, label left, value right of the
// bar; the label column as wide as the widest label (up to 220 px, longer
// ones cut), the value column as the widest value.
std::string hbar_chart(const std::string& id, const std::string& title, const std::vector<Bar>& bars) {
    const double width = 560, row_h = 24;
    int64_t max = 1;
    for (auto& b : bars) max = std::max(max, b.value);
    const double label_w = widest(bars, [](const Bar& b) { return b.label; }, 40, 220) + 14;
    const double value_w = text_px(grouped(max)) + 14;
    double area = width - label_w - value_w;
    double height = row_h * static_cast<double>(std::max<size_t>(bars.size(), 1)) + 8;
    std::string o = "<svg class=\"chart\" id=\"" + id + "\" role=\"img\" viewBox=\"0 0 " + px(width) + " " +
                    px(height) + "\" width=\"100%\"><title>" + html_escape(title) + "</title>";
    double y = 4;
    for (auto& b : bars) {
        double w = b.value > 0 ? std::max(1.5, area * static_cast<double>(b.value) / static_cast<double>(max)) : 0;
        o += "<text x=\"" + px(label_w - 8) + "\" y=\"" + px(y + 16) + "\" text-anchor=\"end\">" +
             label_text(b.label, label_w - 14) + "</text>";
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
        o += "<text x=\"" + px(centred_x(x + w / 2, grouped(b.value), width)) + "\" y=\"" + px(base - h - 5) +
             "\" text-anchor=\"middle\" class=\"num\">" + grouped(b.value) + "</text>";
        o += "<text x=\"" + px(centred_x(x + w / 2, b.label, width)) + "\" y=\"" + px(base + 20) +
             "\" text-anchor=\"middle\">" + html_escape(b.label) + "</text>";
    }
    return o + "</svg>";
}

// Spend against budget per queue: a grey track for the budget (none: no
// track, "no limit"), the spend bar on it, red once spend reaches the budget.
std::string spend_chart(const std::vector<QueueRow>& rows) {
    const double width = 560, row_h = 24;
    // Only queues with a budget get a bar (a spend against no limit has no
    // proportion to show); the scale is theirs.
    int64_t max = 1;
    for (auto& r : rows)
        if (r.total_budget >= 0) max = std::max({max, r.total_spend, r.total_budget});
    const double label_w = widest(rows, [](const QueueRow& r) { return r.queue; }, 40, 200) + 14;
    const double value_w = widest(rows, [](const QueueRow& r) {
        return grouped(r.total_spend) + " / " + grouped(std::max<int64_t>(r.total_budget, 0)); }, 40, 260) + 14;
    double area = std::max(width - label_w - value_w, 40.0);
    double height = row_h * static_cast<double>(std::max<size_t>(rows.size(), 1)) + 8;
    std::string o = "<svg class=\"chart\" id=\"chart-spend\" role=\"img\" viewBox=\"0 0 " + px(width) + " " +
                    px(height) + "\" width=\"100%\"><title>Spend vs budget</title>";
    double y = 4;
    auto scale = [&](int64_t v) { return area * static_cast<double>(v) / static_cast<double>(max); };
    for (auto& r : rows) {
        o += "<text x=\"" + px(label_w - 8) + "\" y=\"" + px(y + 16) + "\" text-anchor=\"end\">" +
             label_text(r.queue, label_w - 14) + "</text>";
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
    const double cell_h = 30, head_h = 26;
    const double label_w = widest(heat, [](const auto& d) { return d.first; }, 40, 200) + 14;
    const double cell_w = std::max(widest(types, [](const std::string& t) { return t; }, 66, 186),
                                   text_px(grouped(max))) + 14;
    double width = std::max(560.0, label_w + cell_w * static_cast<double>(types.size()) + 10);
    double height = head_h + cell_h * static_cast<double>(std::max<size_t>(heat.size(), 1)) + 8;
    std::string o = "<svg class=\"chart\" id=\"chart-heatmap\" role=\"img\" viewBox=\"0 0 " + px(width) + " " +
                    px(height) + "\" width=\"100%\"><title>URLs added by discovery and " +
                    (heatmap_by_depth(s) ? "depth" : "type") + "</title>";
    double x = label_w;
    for (auto& t : types) {
        o += "<text x=\"" + px(x + cell_w / 2) + "\" y=\"18\" text-anchor=\"middle\">" + label_text(t, cell_w - 14) +
             "</text>";
        x += cell_w;
    }
    double y = head_h;
    for (auto& [d, row] : heat) {
        o += "<text x=\"" + px(label_w - 8) + "\" y=\"" + px(y + 20) + "\" text-anchor=\"end\">" +
             label_text(d, label_w - 14) + "</text>";
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

// Bars per time bucket of `width` seconds: results (errors in red under
// the successful ones), or with `bytes` the bytes; the value axis as wide as
// its largest label, the time axis labelled in UTC at both ends.
std::string timeline_chart(const std::vector<TimelineBucket>& buckets, int64_t bucket, bool bytes) {
    const double width = 1100, height = bytes ? 170 : 230, top = 16;
    const double base = height - 40;
    std::string o = std::string("<svg class=\"chart\" id=\"") + (bytes ? "chart-timeline-bytes" : "chart-timeline") +
                    "\" role=\"img\" viewBox=\"0 0 " + px(width) + " " + px(height) + "\" width=\"100%\"><title>" +
                    (bytes ? "Bytes" : "URL results") + " per " + format_duration(static_cast<double>(bucket)) +
                    " (UTC)</title>";
    if (buckets.empty()) return o + "<text x=\"10\" y=\"20\">no URL result recorded yet</text></svg>";
    double t0 = buckets.front().start, t1 = buckets.back().start + static_cast<double>(bucket);
    int64_t max = 1;
    for (auto& b : buckets) max = std::max(max, bytes ? b.bytes : b.pages);
    const double left_w = std::max(40.0, text_px(grouped(max)) + 12);
    double area = width - left_w - 10;
    double slot = area * static_cast<double>(bucket) / std::max(t1 - t0, 1.0);
    o += "<line x1=\"" + px(left_w) + "\" y1=\"" + px(base) + "\" x2=\"" + px(width - 10) + "\" y2=\"" + px(base) +
         "\" stroke=\"#999\"/>";
    o += "<text x=\"" + px(left_w - 6) + "\" y=\"" + px(top + 4) + "\" text-anchor=\"end\" class=\"num\">" + grouped(max) +
         "</text><text x=\"" + px(left_w - 6) + "\" y=\"" + px(base) + "\" text-anchor=\"end\" class=\"num\">0</text>";
    for (auto& b : buckets) {
        double x = left_w + area * (b.start - t0) / std::max(t1 - t0, 1.0);
        double w = std::clamp(slot * 0.85, 1.0, 40.0);
        std::string tip = "<title>" + format_iso8601(b.start) + ": " + grouped(b.pages) + " results, " + grouped(b.errors) +
                          " errors" + (bytes ? ", " + grouped(b.bytes) + " bytes" : std::string()) + "</title>";
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

}  // namespace frontier::report_html
