// What frontier-report prints (frontier-report(1), OUTPUT), read from a
// frontier through lib/report/report_data.hpp and rendered by
// lib/report/report_render.hpp: the text report, the HTML page, the queue
// rows and the crawl reports. Each call reads in short snapshots and leaves
// no statement open; errors are the store's (DbError) and the line sink's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "report/report_data.hpp"

namespace frontier {

// Receives one output line (no newline).
using LineSink = std::function<void(const std::string&)>;

// The width text tables are fitted to (frontier-report(1), OUTPUT): $COLUMNS
// when set (20 to 100000), else the terminal's when `fd` (standard output;
// -1 for a file) is one, else 0 (whole lines, for files, pipes and grep).
size_t report_text_width(int fd = 1);

// Rows in each queue table of the summary (frontier-report --top).
constexpr int64_t kReportTop = 10;

// The default text report at `now` titled `title`, with `top` rows in each
// queue table, fitted to `width` (0: whole lines); no trailing newline.
std::string text_report(Store& store, double now, int64_t top, const std::string& title, size_t width);

// The HTML page at `now`: the summary, its queue tables and the crawl
// tables with at least 20 rows (`top` when more), and for a short crawl the
// results chart in seconds (wants_visit_timeline, read_visit_seconds).
std::string html_report(Store& store, double now, int64_t top, const std::string& title);

// --queues: the rows matching `q`, as JSON lines or a text table (a header,
// then a line per row, fitted to `width`).
void write_queue_rows(Store& store, const QueueQuery& q, bool json, size_t width, double now,
                      const LineSink& line);

// One of the crawl reports: --hosts (rows matching `query`, by URLs done
// unless it sorts), --mimetypes (at most `limit` types, -1: all), --codes,
// --seeds (at most `limit`), --failed (`limit` URLs and hosts, -1: 20).
struct CrawlReportRequest {
    enum class Kind { hosts, mimetypes, codes, seeds, failed };
    Kind kind = Kind::hosts;
    bool json = false;
    int64_t limit = -1;
    QueueQuery query;
};
void write_crawl_report(Store& store, const CrawlReportRequest& r, double now, const LineSink& line);

}  // namespace frontier
