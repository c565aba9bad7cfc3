// Rendering of frontier-report data (lib/report/report_data.hpp) as text, JSON and
// HTML. Pure functions of their arguments: no SQL, no I/O, thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "report/report_data.hpp"

namespace frontier {

// --- text (lib/report/report_text.cpp) -----------------------------------------

// Heritrix's summary line: "N queues: A active (I in-process; R ready;
// S snoozed); X inactive; Z retired; E exhausted".
std::string queue_summary_line(const QueueCounts& q);

// A time relative to `now` for text reports: "-" when unset (<= 0),
// "now", "in 30s", "5m ago", "2h05m ago", "3d04h ago".
std::string format_relative(double t, double now);

// The text table of queues: a header line and one line per row, fixed
// column widths so rows can be printed as they are read. Long queue keys
// are cut with "~"; the URL columns come last. `wide` adds the
// fetch-health columns (frontier-report --queues). `width` > 0 fits each
// line in that many columns: the two URL columns share what the fixed ones
// leave (each cut with "~"), are dropped when that is under 8 columns each,
// and a line still too long is cut with "~"; 0 keeps whole lines.
std::string queue_table_header(bool wide, size_t width = 0);
std::string queue_table_row(const QueueRow& r, double now, bool wide, size_t width = 0);

// Cuts `line` to `width` columns (the last one "~"); 0 keeps it whole.
// Columns are bytes: the report's text is ASCII but for URLs, which are
// percent-encoded.
std::string fit_line(std::string line, size_t width);

// The revisit section of the text report (three lines): URLs marked for
// revisiting, due now, next due, disabled; visits by outcome; intervals.
std::string revisit_text(const RevisitSummary& r, double now);

// The default text report: title, summary line, URL counts, results,
// depth, heatmap, then the longest and the most expensive queues.
std::string render_report_text(const Summary& s, const std::vector<QueueRow>& longest,
                               const std::vector<QueueRow>& costly, const std::string& title, size_t width = 0);

// --- JSON (lib/report/report_text.cpp) -------------------------------------------

// The --json summary object (one line): queues, urls, results, heatmap,
// depth, and revisits when URLs are marked for revisiting.
std::string render_summary_json(const Summary& s);

// One --queues --json line for `r`.
std::string queue_row_json(const QueueRow& r);

// --- HTML (lib/report/report_html.cpp) -------------------------------------------

// One self-contained HTML page (inline CSS and SVG, no scripts, no network):
// summary, charts of queue states, URL states, spend vs budget of `costly`,
// results by class, depth and the heatmap, and the two queue tables.
std::string render_report_html(const Summary& s, const std::vector<QueueRow>& longest,
                               const std::vector<QueueRow>& costly, const std::string& title);

// Escapes &, <, >, " and ' for HTML text and attribute values.
std::string html_escape(std::string_view s);

}  // namespace frontier
