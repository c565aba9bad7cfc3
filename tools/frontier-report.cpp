// frontier-report: summary, per-queue table, JSON and an HTML page (SPEC §10).
#include "report.hpp"

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
        },
        [&] { return frontier::run_report(o); },
        "Report on the frontier: queue states, URL counts, results, heatmap, per-queue budgets and fetch health.",
        "  frontier-report -f crawl.db\n  frontier-report -f crawl.db --queues --json --state retired | jq -c "
        "'{queue, total_budget: (.total_budget + 1000)}' | frontier-budget -f crawl.db --apply\n"
        "  frontier-report -f crawl.db --html report.html");
}
