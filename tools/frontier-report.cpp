// frontier-report: summary, per-queue table, JSON and an HTML page (frontier-report(1)).
#include "cmd/report.hpp"

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
