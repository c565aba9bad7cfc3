// The SVG charts of frontier-report's HTML page (private to
// lib/report/report_html.cpp and report_html_charts.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "report/report_render.hpp"

namespace frontier::report_html {

// 1234567 -> "1,234,567".
std::string grouped(int64_t v);

struct Bar {
    std::string label;
    int64_t value = 0;
    std::string color;
};

// The charts' font size (svg.chart in the page's style), in px.
inline constexpr double kChartFontPx = 13;

// An estimate, on the generous side, of the width in px of `s` in the
// charts' font: labels are laid out with it so none is cut at a chart's edge.
double text_px(std::string_view s);

// A horizontal bar chart: one row per bar, label left, value right of the
// bar; the label column as wide as the widest label (up to 220 px, longer
// ones cut in the middle, whole on hover).
std::string hbar_chart(const std::string& id, const std::string& title, const std::vector<Bar>& bars);
// Vertical bars (depth buckets), the texts kept inside the chart.
std::string vbar_chart(const std::string& id, const std::string& title, const std::vector<Bar>& bars);
// Spend against budget per queue: a grey track for the budget (none: no
// track, "no limit"), the spend bar on it, red once spend reaches the budget.
std::string spend_chart(const std::vector<QueueRow>& rows);
// Discovery x type grid (discovery x depth when no type is known,
// heatmap_by_depth), cells shaded by count (square-root scale).
std::string heatmap_chart(const Summary& s);
// Bars per time bucket of `bucket` seconds: results (errors in red under
// the successful ones), or with `bytes` the bytes; the time axis labelled in
// UTC at the first and last bucket.
std::string timeline_chart(const std::vector<TimelineBucket>& buckets, int64_t bucket, bool bytes);

}  // namespace frontier::report_html
