// frontier-done: take fetch results back into the frontier.
#include "cmd/commands.hpp"

int main(int argc, char** argv) {
    frontier::DoneOptions o;
    return frontier::run_tool(
        "frontier-done", argc, argv,
        [&](CLI::App& app) {
            frontier::add_common_options(app, o.common);
            app.add_option("--batch", o.batch, "results per transaction at most (default 100000)")->check(CLI::PositiveNumber);
            app.add_option("inputs", o.inputs, "fetch result files (default: stdin; - = stdin)");
        },
        [&] { return frontier::run_done(o); },
        "End leases and record fetch results: retries, politeness, robots.txt, revisits, discovered links.",
        "  # the crawl loop, with progress lines and a summary on stderr\n"
        "  frontier-lease -f crawl.db --follow | fetch --links | frontier-done -f crawl.db --progress > results.jsonl\n"
        "  # record a result by hand\n"
        "  echo '{\"lease\":\"1-1\",\"status\":200,\"duration_ms\":120}' | frontier-done -f crawl.db");
}
