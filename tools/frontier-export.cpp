// frontier-export: the whole frontier as JSON lines, for frontier-import.
#include "cmd/commands.hpp"

int main(int argc, char** argv) {
    frontier::ExportOptions o;
    return frontier::run_tool(
        "frontier-export", argc, argv,
        [&](CLI::App& app) {
            frontier::add_common_options(app, o.common);
            app.add_option("-o,--output", o.output,
                           "write to FILE (created beside it and renamed when complete) instead of stdout");
            app.add_flag("--urls", o.urls,
                         "one line per URL for analysis (url, state, reason, queue, depth, status, ...) instead of "
                         "the whole frontier");
            app.add_flag("--csv", o.csv, "with --urls: CSV with a header line instead of JSON lines");
        },
        [&] { return frontier::run_export(o); },
        "Write the whole frontier (settings, budgets, queues, hosts, URLs with their leases) as JSON lines, "
        "from one consistent snapshot.",
        "  # copy a frontier, even while a crawl runs on it\n"
        "  frontier-export -f crawl.db | frontier-import -f copy.db\n"
        "  # a compressed backup\n"
        "  frontier-export -f crawl.db | gzip > crawl.jsonl.gz");
}
