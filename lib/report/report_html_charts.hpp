// The SVG charts of frontier-report's HTML page (private to
// lib/report/report_html.cpp and report_html_charts.cpp).
#pragma once

#include <cstdint>
#include <string>
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

// A horizontal bar chart: one row per bar, label left, value right of the bar.
std::string hbar_chart(const std::string& id, const std::string& title, const std::vector<Bar>& bars);
// Vertical bars (depth buckets).
std::string vbar_chart(const std::string& id, const std::string& title, const std::vector<Bar>& bars);
// Spend against budget per queue: a grey track for the budget (none: no
// track, "no limit"), the spend bar on it, red once spend reaches the budget.
std::string spend_chart(const std::vector<QueueRow>& rows);
// Discovery x type grid (discovery x depth when no type is known,
// heatmap_by_depth), cells shaded by count (square-root scale).
std::string heatmap_chart(const Summary& s);
// Results per time bucket (errors in red under the successful ones), or
// with `bytes` the bytes per bucket; time axis labelled in UTC at the first
// and last bucket.
std::string timeline_chart(const Summary& s, bool bytes);

}  // namespace frontier::report_html
