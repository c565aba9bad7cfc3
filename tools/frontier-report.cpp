// frontier-report: summary, per-queue table, JSON and an HTML page (frontier-report(1)).
//
// Option checks and the output loop.
// What it prints comes from lib/report/report_pages.hpp.

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "json/json.hpp"
#include "core/output.hpp"
#include "report/report_pages.hpp"
#include "report/report_render.hpp"
#include "core/signals.hpp"
#include "store/store.hpp"
#include "frontier/check_json.hpp"
#include "store/store_check.hpp"
#include "core/tool.hpp"

namespace frontier {

struct ReportOptions {
    CommonOptions common;
    bool json = false;          // --json: the summary object, or JSON-lines with --queues
    bool queues = false;        // --queues: one row per queue
    std::string state;          // --state S[,S...]: filter for --queues
    std::string sort;           // --sort KEY[:asc|:desc]
    int64_t limit = -1;         // --limit N (--queues; default 10 for the summary's tables)
    std::string html;           // --html FILE: write the HTML page there
    double watch = 0;           // --watch SECONDS: redraw the text report until SIGINT
    int64_t top = kReportTop;   // --top N: rows in the summary's queue tables
    bool check = false;         // --check: verify the file's invariants (lib/store/store_check.hpp)
    // The crawl's reports (frontier-report(1)): one of them, as a text table
    // or JSON lines with --json.
    bool hosts = false;         // --hosts: per queue (host) URLs done, bytes, errors, latency, robots, budget
    bool mimetypes = false;     // --mimetypes: count and bytes per MIME type
    bool codes = false;         // --codes: count per HTTP status and per error class
    bool seeds = false;         // --seeds: each seed's state, status, redirect, pages of its queue
    bool failed = false;        // --failed: latest failed URLs and the hosts with most errors
};

// Validates option combinations (UsageError), then reports. Returns the exit
// code: 0, or 1 for an I/O or database error (thrown, mapped by the runner).
// Read-only: a missing frontier file is an error.
int run_report(const ReportOptions& o);

namespace {

int watch(Store& store, const ReportOptions& o, const std::string& path) {
    bool tty = ::isatty(1) == 1;
    while (!stop_requested()) {
        store.refresh_settings();
        std::string text = text_report(store, frontier::now(), o.top, "frontier-report: " + path, report_text_width());
        // Home, clear screen, redraw; a log file gets separated snapshots instead.
        out().write_line((tty ? "\x1b[H\x1b[2J" : "") + text + (tty ? "" : "\n"));
        out().flush();
        sleep_for(o.watch);
    }
    return 0;
}

// --check: one line per check ("ok NAME" / "FAIL NAME: N violations" and
// their details), or one JSON object with --json; exit 1 on any violation.
int check(Store& store, const ReportOptions& o, const std::string& path) {
    CheckResult r = check_frontier(store, frontier::now());
    if (o.json) {
        JsonWriter w;
        w.begin();
        w.field("urls", r.urls);
        w.field("queues", r.queues);
        w.field("hosts", r.hosts);
        write_check_fields(w, r);
        w.end();
        out().write_line(w.str());
    } else {
        out().write_line("frontier-report --check: " + path + ": " + std::to_string(r.urls) + " URLs, " +
                         std::to_string(r.queues) + " queues, " + std::to_string(r.hosts) + " hosts");
        for (auto& [name, n] : r.checks) {
            if (!n) {
                out().write_line("ok   " + name);
                continue;
            }
            out().write_line("FAIL " + name + ": " + std::to_string(n) + " violation" + (n == 1 ? "" : "s"));
            for (auto& v : r.violations)
                if (v.check == name) out().write_line("     " + v.detail);
        }
    }
    out().flush();
    if (r.ok()) return 0;
    int64_t n = 0;
    for (auto& c : r.checks) n += c.second;
    diag(path + " violates " + std::to_string(n) + " invariant" + (n == 1 ? "" : "s"));
    return 1;
}

}  // namespace

int run_report(const ReportOptions& o) {
    int selected = o.queues + o.hosts + o.mimetypes + o.codes + o.seeds + o.failed;
    if (selected > 1)
        throw UsageError("choose one of --queues, --hosts, --mimetypes, --codes, --seeds and --failed");
    if ((!o.state.empty() || !o.sort.empty()) && !o.queues && !o.hosts)
        throw UsageError("--state and --sort go with --queues or --hosts");
    if (o.limit != -1 && (selected == 0 || o.codes))
        throw UsageError("--limit goes with --queues, --hosts, --mimetypes, --seeds or --failed");
    if (o.limit < -1) throw UsageError("--limit must be 0 or more");
    if (o.top < 0) throw UsageError("--top must be 0 or more");
    if (o.watch < 0) throw UsageError("--watch needs a positive number of seconds");
    if (o.watch > 0 && (o.json || o.queues || !o.html.empty()))
        throw UsageError("--watch shows the text report; it does not combine with --json, --queues or --html");
    if (o.watch > 0 && selected) throw UsageError("--watch shows the text report; it does not combine with a report option");
    if (o.check && (selected || !o.html.empty() || o.watch > 0))
        throw UsageError("--check does not combine with --queues, --html or --watch");
    QueueQuery q;
    if (!o.state.empty()) q.states = parse_state_filter(o.state);
    if (!o.sort.empty()) q.sort = parse_queue_sort(o.sort);
    q.limit = o.limit;

    Store store(frontier_path(o.common), Store::Mode::read);
    const std::string path = frontier_display_name(frontier_path(o.common));
    if (o.check) return check(store, o, path);
    if (o.watch > 0) return watch(store, o, path);

    const double now = frontier::now();
    const std::string title = "frontier-report: " + path;
    if (!o.html.empty()) {
        if (o.html == "-")
            out().write_line(html_report(store, now, o.top, title));
        else
            write_file_replacing(o.html, html_report(store, now, o.top, title));
        if (!o.json && !selected) return 0;
    }
    auto line = [](const std::string& l) { out().write_line(l); };
    if (selected && !o.queues) {
        using K = CrawlReportRequest::Kind;
        K kind = o.hosts ? K::hosts : o.mimetypes ? K::mimetypes : o.codes ? K::codes : o.seeds ? K::seeds : K::failed;
        write_crawl_report(store, {kind, o.json, o.limit, q}, now, line);
    } else if (o.queues) {
        write_queue_rows(store, q, o.json, report_text_width(), now, line);
    } else {
        out().write_line(o.json ? render_summary_json(read_summary(store, now))
                                : text_report(store, now, o.top, title, report_text_width()));
    }
    return 0;
}

}  // namespace frontier

int main(int argc, char** argv) {
    frontier::ReportOptions o;
    return frontier::run_tool(
        "frontier-report", argc, argv,
        [&](CLI::App& app) {
            frontier::add_common_options(app, o.common);
            app.add_flag("--json", o.json, "print JSON: the summary object, or JSON-lines with --queues");
            app.add_flag("--queues", o.queues, "print one row per queue (text table, or JSON-lines with --json)");
            app.add_option("--state", o.state,
                           "with --queues or --hosts: only queues in these states (comma-separated: active, in-process, ready, "
                           "snoozed, inactive, retired, exhausted)");
            app.add_option("--sort", o.sort, "with --queues or --hosts: order by KEY[:asc|:desc] (a JSON key of the --queues row)");
            app.add_option("--limit", o.limit, "with --queues, --hosts, --mimetypes, --seeds or --failed: at most N rows");
            app.add_option("--top", o.top, "rows in the summary's longest / most expensive queue tables (default 10)");
            app.add_option("--html", o.html, "write a self-contained HTML page with charts to FILE");
            app.add_option("--watch", o.watch, "redraw the text report every SECONDS until interrupted");
            app.add_flag("--hosts", o.hosts,
                         "print one row per queue (host): URLs done, failed, blocked, errors, bytes, latency, robots.txt, "
                         "spend and budget (--sort, --state, --limit apply)");
            app.add_flag("--mimetypes", o.mimetypes, "print the count and bytes of successful results per MIME type");
            app.add_flag("--codes", o.codes, "print the count of results per HTTP status and per error class");
            app.add_flag("--seeds", o.seeds,
                         "print each seed: its state, last status, whether it redirected, and the pages its queue reached");
            app.add_flag("--failed", o.failed,
                         "print the latest failed URLs with their reason, then the hosts with most errors (--limit N, "
                         "default 20)");
            app.add_flag("--check", o.check,
                         "verify the file's invariants (integrity, counters against a recount, leases, states); "
                         "exit 1 on any violation");
        },
        [&] { return frontier::run_report(o); },
        "Report on the frontier and the crawl: queue states, URL counts, results, crawl summary and rates, "
        "heatmap, per-queue budgets and fetch health; hosts, MIME types, codes, seeds and failures.",
        "  # summary; the ten most expensive queues; an HTML page\n"
        "  frontier-report -f crawl.db\n"
        "  frontier-report -f crawl.db --queues --sort total_spend:desc --limit 10\n"
        "  frontier-report -f crawl.db --html report.html\n"
        "  # queues retired by their budget, as JSON lines for jq\n"
        "  frontier-report -f crawl.db --queues --json --state retired\n"
        "  # the crawl: hosts by pages done, failures with their reason\n"
        "  frontier-report -f crawl.db --hosts --limit 20\n"
        "  frontier-report -f crawl.db --failed --json");
}
