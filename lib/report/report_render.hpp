// Rendering of frontier-report data (lib/report/report_data.hpp) as text, JSON and
// HTML. Pure functions of their arguments: no SQL, no I/O, thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "report/report_data.hpp"

namespace frontier {
class JsonWriter;
}

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

// True when the discovery x type heatmap says nothing (every added URL's
// type is unknown, "other") and the discovery x depth one is shown instead.
bool heatmap_by_depth(const Summary& s);

// --- JSON (lib/report/report_text.cpp) -------------------------------------------

// The --json summary object (one line): queues, urls, results, heatmap,
// depth, and revisits when URLs are marked for revisiting.
std::string render_summary_json(const Summary& s);

// One --queues --json line for `r`.
std::string queue_row_json(const QueueRow& r);

// --- crawl sections (lib/report/report_crawl.cpp; frontier-report(1)) ----------

// "45s", "12m05s", "3h04m", "2d05h".
std::string format_duration(double seconds);
// The summary's crawl lines: "Crawl: START to LAST (DURATION): ...", "Rate:
// ...", and "Revisit capacity: ..." when URLs are marked for revisiting.
std::string crawl_text(const Summary& s);
std::string calibration_text(const Calibration& k);
// The summary JSON's "crawl" and "timeline" members.
void crawl_json(JsonWriter& w, const Summary& s);
// --hosts: a table (header, one line per queue) or JSON lines.
std::string host_table_header();
std::string host_table_row(const QueueRow& r);
std::string host_row_json(const QueueRow& r);
// --mimetypes and --codes: whole tables, or JSON lines (one per row).
std::vector<std::pair<std::string, MimeCount>> mime_rows(const Summary& s);  // by count, descending
std::string mime_text(const Summary& s, int64_t limit);
std::string mime_json(const Summary& s, int64_t limit);
std::string codes_text(const Summary& s);
std::string codes_json(const Summary& s);
// --seeds.
bool seed_redirected(const SeedRow& r);  // its last result was a 3xx
std::string seed_reason(const SeedRow& r);  // its error class, else its stored reason, else "-"
std::string seed_table_header();
std::string seed_table_row(const SeedRow& r);
std::string seed_row_json(const SeedRow& r);
// --failed: failed URLs (latest first) and failing hosts (most errors first).
std::string failed_reason(const FailedUrl& r);
std::string failed_url_row(const FailedUrl& r);
std::string failed_url_json(const FailedUrl& r);
std::string failing_host_row(const QueueRow& r);
std::string failing_host_json(const QueueRow& r);

// --- HTML (lib/report/report_html.cpp) -------------------------------------------

// One self-contained HTML page (inline CSS and SVG, no scripts, no network):
// summary, charts of queue states, URL states, spend vs budget of `costly`,
// results by class, depth and the heatmap, and the two queue tables.
// The crawl sections' rows for the HTML page (read by html_report, lib/report/report_pages.hpp).
struct CrawlTables {
    std::vector<QueueRow> hosts;          // by URLs done
    std::vector<QueueRow> failing_hosts;  // by errors
    std::vector<SeedRow> seeds;
    std::vector<FailedUrl> failed;
};
std::string render_report_html(const Summary& s, const std::vector<QueueRow>& longest,
                               const std::vector<QueueRow>& costly, const std::string& title,
                               const CrawlTables& crawl = {});

// Escapes &, <, >, " and ' for HTML text and attribute values.
std::string html_escape(std::string_view s);

}  // namespace frontier
