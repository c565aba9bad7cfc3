// frontier-done: take fetch results back into the frontier.
#include "commands.hpp"

int main(int argc, char** argv) {
    frontier::DoneOptions o;
    return frontier::run_tool(
        "frontier-done", argc, argv,
        [&](CLI::App& app) {
            frontier::add_common_options(app, o.common);
            app.add_option("--batch", o.batch, "results per transaction at most (default 500)")->check(CLI::PositiveNumber);
            app.add_option("inputs", o.inputs, "fetch result files (default: stdin; - = stdin)");
        },
        [&] { return frontier::run_done(o); },
        "End leases and record fetch results: retries, politeness, robots.txt, revisits, discovered links.",
        "  frontier-lease -f crawl.db --follow | fetch --links | frontier-done -f crawl.db");
}
