// frontier-done: take fetch results back into the frontier.

#include "core/tool.hpp"
#include "frontier/done_session.hpp"

namespace frontier {

struct DoneOptions {
    CommonOptions common;
    std::vector<std::string> inputs;
    int64_t batch = 100000;  // results per transaction (at most; also one per second)
};

int run_done(const DoneOptions& o) {
    Store store(frontier_path(o.common), Store::Mode::write);
    ReaderSource input(o.inputs);
    StdoutSink sink(true);  // a result is printed only once it is committed
    DoneSessionOptions so;
    so.batch = o.batch;
    so.quiet = o.common.quiet;
    so.progress = show_progress(o.common);  // a terminal, or --progress
    so.verbose = o.common.verbose;
    return run_done_session(store, input, sink, so);
}

}  // namespace frontier

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
