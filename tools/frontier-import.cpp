// frontier-import: a frontier-export stream into a new frontier file.
#include "cmd/commands.hpp"

int main(int argc, char** argv) {
    frontier::ImportOptions o;
    return frontier::run_tool(
        "frontier-import", argc, argv,
        [&](CLI::App& app) {
            frontier::add_common_options(app, o.common);
            app.add_option("--batch", o.batch, "rows per transaction (default 100000)")
                ->check(CLI::PositiveNumber);
            app.add_option("input", o.inputs, "the frontier-export stream (default: stdin; - = stdin)");
        },
        [&] { return frontier::run_import(o); },
        "Read a frontier-export stream into a new, empty frontier file, then check its invariants.",
        "  # copy a frontier\n"
        "  frontier-export -f crawl.db | frontier-import -f copy.db\n"
        "  # restore a compressed backup\n"
        "  gunzip -c crawl.jsonl.gz | frontier-import -f crawl.db");
}
