// What frontier-report prints (lib/report/report_pages.hpp).
#include "report/report_pages.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "report/report_render.hpp"

namespace frontier {

namespace {

std::string without_final_newline(std::string s) {
    if (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
}

void write_text(const std::string& text, const LineSink& line) {
    std::string t = without_final_newline(text);
    if (!t.empty()) line(t);
}

void write_failed(Store& store, const CrawlReportRequest& r, double now, const LineSink& line) {
    int64_t n = r.limit < 0 ? 20 : r.limit;
    if (!r.json) line("Failed URLs (latest first):");
    for_each_failed_url(store, n,
                        [&](const FailedUrl& f) { line(r.json ? failed_url_json(f) : failed_url_row(f)); });
    if (!r.json) line("Hosts with errors (most first):");
    QueueQuery q;
    q.limit = n;
    q.sort = parse_queue_sort("error_count");
    for_each_queue(store, q, now, [&](const QueueRow& h) {
        if (h.error_count + h.failed > 0) line(r.json ? failing_host_json(h) : failing_host_row(h));
    });
}

}  // namespace

size_t report_text_width(int fd) {
    if (const char* c = std::getenv("COLUMNS"); c && *c) {
        char* end = nullptr;
        long v = std::strtol(c, &end, 10);
        if (end && *end == '\0' && v >= 20 && v <= 100000) return static_cast<size_t>(v);
    }
    struct winsize ws;
    if (fd >= 0 && ::isatty(fd) && ::ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
    return 0;
}

std::string text_report(Store& store, double now, int64_t top, const std::string& title, size_t width) {
    QueueTops t;
    t.top = top;
    Summary s = read_summary(store, now, t);
    return without_final_newline(render_report_text(s, t.longest, t.costly, title, width));
}

std::string html_report(Store& store, double now, int64_t top, const std::string& title) {
    QueueTops t;
    t.top = std::max<int64_t>(top, 20);
    t.with_robots = true;
    t.crawl_tables = true;
    Summary s = read_summary(store, now, t);
    if (wants_visit_timeline(s)) set_visit_timeline(s, read_visit_seconds(store));
    CrawlTables c;
    c.hosts = std::move(t.hosts);
    c.failing_hosts = std::move(t.failing_hosts);
    for_each_seed(store, t.top, [&](const SeedRow& r) { c.seeds.push_back(r); });
    for_each_failed_url(store, t.top, [&](const FailedUrl& r) { c.failed.push_back(r); });
    return render_report_html(s, t.longest, t.costly, title, c);
}

void write_queue_rows(Store& store, const QueueQuery& q, bool json, size_t width, double now,
                      const LineSink& line) {
    if (!json) line(queue_table_header(true, width));
    for_each_queue(store, q, now, [&](const QueueRow& r) {
        line(json ? queue_row_json(r) : queue_table_row(r, now, true, width));
    });
}

void write_crawl_report(Store& store, const CrawlReportRequest& r, double now, const LineSink& line) {
    using K = CrawlReportRequest::Kind;
    switch (r.kind) {
        case K::hosts: {
            QueueQuery q = r.query;
            if (q.sort.key.empty()) q.sort = parse_queue_sort("done");
            if (!r.json) line(host_table_header());
            for_each_queue(store, q, now,
                           [&](const QueueRow& h) { line(r.json ? host_row_json(h) : host_table_row(h)); });
            return;
        }
        case K::mimetypes: {
            Summary s = read_summary(store, now);
            return write_text(r.json ? mime_json(s, r.limit) : mime_text(s, r.limit), line);
        }
        case K::codes: {
            Summary s = read_summary(store, now);
            return write_text(r.json ? codes_json(s) : codes_text(s), line);
        }
        case K::seeds:
            if (!r.json) line(seed_table_header());
            for_each_seed(store, r.limit,
                          [&](const SeedRow& s) { line(r.json ? seed_row_json(s) : seed_table_row(s)); });
            return;
        case K::failed:
            return write_failed(store, r, now, line);
    }
}

}  // namespace frontier
