// frontier-crawl: a one-off crawl in one command (frontier-crawl(1)).
// Options here; the work is in lib/cmd/cmd_crawl.cpp.
#include "cmd/commands.hpp"

int main(int argc, char** argv) {
    frontier::CrawlOptions o;
    return frontier::run_tool(
        "frontier-crawl", argc, argv,
        [&](CLI::App& app) {
            frontier::add_common_options(app, o.common);
            app.add_option("seeds", o.seeds, "seed URLs");
            app.add_option("-i,--input", o.input, "more seeds from FILE: URLs or JSON lines ('-' = stdin)");
            app.add_option("-o,--out", o.out,
                           "directory for the crawl: crawl.db (unless -f), results.jsonl, seeds.jsonl, reports, "
                           "warc/ (default ./crawl)");
            app.add_option_function<int64_t>(
                "--depth", [&](int64_t v) { o.depth = v; },
                "follow links this many hops from the seeds (scope.max-depth; default 5 for a new frontier)");
            app.add_option_function<int64_t>(
                "--per-site", [&](int64_t v) { o.per_site = v; },
                "fetch at most N URLs per site (budget.total); the crawl then pauses at finish (exit 4)");
            app.add_option("-c,--concurrency", o.concurrency, "fetches at once over all sites (default 16)");
            app.add_flag("--warc", o.warc, "write WARC files to OUT/warc/");
            app.add_option("--set", o.set, "a frontier setting KEY=VALUE (repeatable; the keys: frontier-config with no argument)")
                ->allow_extra_args(false);
            app.add_flag("--reclaim", o.reclaim,
                         "first end every lease out (frontier-lease --reclaim), when a dead run is not recognised as one");
        },
        [&] { return frontier::run_crawl(o); },
        "Crawl from seeds until nothing is left: frontier-lease --follow | fetch --links | frontier-done, then "
        "the reports.",
        "  # crawl a site 3 links deep, at most 500 pages per site, WARC out\n"
        "  frontier-crawl -o out --depth 3 --per-site 500 --warc https://example.org/\n"
        "  # run again to resume (after ^C, or a crash: a dead run's leases are reclaimed)\n"
        "  frontier-crawl -o out");
}
