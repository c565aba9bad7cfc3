// frontier-add: enqueue URLs (seeds, lister output, discovered links).
#include "cmd/commands.hpp"

int main(int argc, char** argv) {
    frontier::AddOptions o;
    return frontier::run_tool(
        "frontier-add", argc, argv,
        [&](CLI::App& app) {
            frontier::add_common_options(app, o.common);
            app.add_option("--batch", o.batch, "records per transaction at most (default 100000)")->check(CLI::PositiveNumber);
            app.add_option("inputs", o.inputs, "JSON-lines or bare-URL files (default: stdin; - = stdin)");
        },
        [&] { return frontier::run_add(o); },
        "Enqueue URLs: canonicalise, dedup, scope, score and cost them.",
        "  # seeds from a file (bare URLs or JSON lines), then one more by hand\n"
        "  frontier-add -f crawl.db seeds.txt\n"
        "  echo http://example.com/ | frontier-add -f crawl.db\n"
        "  # a lister's daily list: revisit each URL, changed ones first\n"
        "  jq -c '{url, last_modified, recrawl: true}' list.jsonl | frontier-add -f visits.db -q");
}
