// frontier-done: take fetch results back into the frontier.

#include <cstdio>

#include "core/clock.hpp"
#include "frontier/done.hpp"
#include "core/output.hpp"
#include "core/signals.hpp"
#include "core/tool.hpp"

namespace frontier {

struct DoneOptions {
    CommonOptions common;
    std::vector<std::string> inputs;
    int64_t batch = 100000;  // results per transaction (at most; also one per second)
};
int run_done(const DoneOptions& o);

int run_done(const DoneOptions& o) {
    Store store(frontier_path(o.common), Store::Mode::write);
    // URL-row updates are held until commit (lib/store/url_updates.hpp), up to
    // ~28 MiB, and so are the result lines, up to kHeldLines: a transaction
    // ended by its lines (~150 bytes each) at 4 MiB held ~28k results,
    // and at 12 MiB ~80k, when each page the transaction changes costs a
    // WAL frame and a checkpoint copy. The page cache gives up 24 MiB for
    // them. Measured on 1M results: as fast as with 32 MiB, since the rows
    // are met in random order and then written in row order either way.
    store.set_page_cache_mib(8);
    DoneProcessor proc(store);
    LineReader reader(o.inputs.empty() ? std::vector<std::string>{"-"} : o.inputs);
    // Where a read is a round trip (PostgreSQL), results already read in
    // are applied together, up to kLookahead lines or kLookaheadBytes, and
    // the rows of their leases read in one statement; a batch never waits
    // for more input. On SQLite one line at a time.
    const size_t lookahead = store.reads_are_round_trips() ? 256 : 1;
    constexpr size_t kLookaheadBytes = 1 << 20;
    std::vector<InputLine> batch(lookahead);
    int64_t rejected = 0, total = 0;
    bool open = false, due = false;
    constexpr size_t kHeldLines = 12u << 20;
    TxPacer pacer(o.batch, kHeldLines);
    HeldOutput held;  // a result is printed only once it is committed
    // Progress (a terminal, or --progress): a line every 2 s with the rate
    // since the last line, and a summary at the end.
    const bool progress = show_progress(o.common);
    const double started = monotonic_seconds();
    double last_report = started;
    int64_t last_results = 0;
    while (!stop_requested()) {
        // Commit and flush before waiting for input, so the pipeline never stalls.
        if (open && (due || reader.idle())) {
            store.commit();
            open = false;
            due = false;
        }
        if (!open) out().flush();
        if (!reader.next(batch[0])) break;
        size_t n = 1, bytes = record_bytes(batch[0].record);
        while (n < lookahead && bytes < kLookaheadBytes && !reader.idle() && reader.next(batch[n]))
            bytes += record_bytes(batch[n++].record);
        if (!open) {
            store.refresh_settings();
            store.begin();
            store.housekeeping(frontier::now());
            open = true;
            pacer.restart();
        }
        proc.prefetch(batch.data(), n);
        for (size_t i = 0; i < n && !stop_requested(); ++i) {
            bool bad = false;
            std::string res = proc.process(batch[i], frontier::now(), bad);
            if (bad) ++rejected;
            ++total;
            if (!o.common.quiet) out().write_line(res);
            if (pacer.record()) due = true;
        }
        // A slot that held a large line gives its memory back (each keeps
        // its capacity for the next line otherwise).
        for (size_t i = 1; i < n; ++i)
            if (record_bytes(batch[i].record) > (64u << 10)) batch[i] = InputLine();
        if (progress) {
            double t = monotonic_seconds();
            if (t - last_report >= 2) {
                const DoneTally& k = proc.tally();
                diag(std::to_string(k.results) + " results (" + per_second(k.results - last_results, t - last_report) +
                     "): " + k.text());
                last_report = t;
                last_results = k.results;
            }
        }
    }
    if (open) store.commit();
    out().flush();
    if (progress || o.common.verbose) {
        double secs = monotonic_seconds() - started;
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f", secs);
        diag(std::string(stop_requested() ? "stopped after " : "") + std::to_string(total) + " results in " + buf +
             " s (" + per_second(total, secs) + "): " + proc.tally().text());
    }
    return rejected > 0 ? 1 : 0;
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
