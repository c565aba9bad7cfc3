// frontier-add: enqueue URLs (seeds, lister output, discovered links).
// Options here; the run loop is lib/frontier/add_session.hpp.

#include "core/tool.hpp"
#include "frontier/add_session.hpp"

namespace frontier {

struct AddOptions {
    CommonOptions common;
    std::vector<std::string> inputs;  // files, "-" = stdin (default)
    int64_t batch = 100000;           // records per transaction (at most; also one per second)
};
int run_add(const AddOptions& o) {
    Store store(frontier_path(o.common), Store::Mode::create);
    ReaderSource input(o.inputs);
    StdoutSink sink(true);  // a record is printed only once it is committed
    AddSessionOptions so;
    so.batch = o.batch;
    so.quiet = o.common.quiet;
    return run_add_session(store, input, sink, so);
}

}  // namespace frontier

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
