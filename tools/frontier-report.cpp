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
                           "with --queues: only queues in these states (comma-separated: active, in-process, ready, "
                           "snoozed, inactive, retired, exhausted)");
            app.add_option("--sort", o.sort, "with --queues: order by KEY[:asc|:desc] (a JSON key of the row)");
            app.add_option("--limit", o.limit, "with --queues: at most N rows");
            app.add_option("--top", o.top, "rows in the summary's longest / most expensive queue tables (default 10)");
            app.add_option("--html", o.html, "write a self-contained HTML page with charts to FILE");
            app.add_option("--watch", o.watch, "redraw the text report every SECONDS until interrupted");
            app.add_flag("--check", o.check,
                         "verify the file's invariants (integrity, counters against a recount, leases, states); "
                         "exit 1 on any violation");
        },
        [&] { return frontier::run_report(o); },
        "Report on the frontier: queue states, URL counts, results, heatmap, per-queue budgets and fetch health.",
        "  # summary; the ten most expensive queues; an HTML page\n"
        "  frontier-report -f crawl.db\n"
        "  frontier-report -f crawl.db --queues --sort total_spend:desc --limit 10\n"
        "  frontier-report -f crawl.db --html report.html\n"
        "  # queues retired by their budget, as JSON lines for jq\n"
        "  frontier-report -f crawl.db --queues --json --state retired");
}
