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

namespace {

// The lines applied together: where a read is a round trip (PostgreSQL),
// those already read in, up to `max` lines or kBytes, so that the rows of
// their leases are read in one statement (DoneProcessor::prefetch); one
// line at a time on SQLite. Reading a batch never waits for more input
// than its first line.
struct Batch {
    static constexpr size_t kBytes = 1 << 20;
    explicit Batch(size_t max) : lines(max) {}
    std::vector<InputLine> lines;
    size_t n = 0;

    bool read(LineReader& reader) {
        n = 0;
        if (!reader.next(lines[0])) return false;
        n = 1;
        size_t bytes = record_bytes(lines[0].record);
        while (n < lines.size() && bytes < kBytes && !reader.idle() && reader.next(lines[n]))
            bytes += record_bytes(lines[n++].record);
        return true;
    }
    // A slot that held a large line gives its memory back (each keeps its
    // capacity for the next line otherwise).
    void release_large() {
        for (size_t i = 1; i < n; ++i)
            if (record_bytes(lines[i].record) > (64u << 10)) lines[i] = InputLine();
    }
};

}  // namespace

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
    store.settings();  // loaded before the first transaction (send_settings_version)
    LineReader reader(o.inputs.empty() ? std::vector<std::string>{"-"} : o.inputs);
    const bool round_trips = store.reads_are_round_trips();
    Batch batch(round_trips ? 256 : 1);
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
        if (!batch.read(reader)) break;
        const bool first = !open;
        if (first) {
            // Where a read is a round trip (PostgreSQL) the settings
            // version and the housekeeping scan go with the first batch's
            // reads (two round trips fewer, one under the writer lock);
            // when the scan found work, the rows it changed are read again.
            if (!round_trips) store.refresh_settings();
            store.begin();
            if (round_trips) {
                store.send_settings_version();
                store.send_housekeeping(frontier::now());
            } else {
                store.housekeeping(frontier::now());
            }
            open = true;
            pacer.restart();
        }
        proc.prefetch(batch.lines.data(), batch.n);
        if (first && round_trips) {
            store.refresh_sent_settings();
            if (store.housekeeping(frontier::now())) {
                store.drop_prefetched_leases();
                proc.prefetch(batch.lines.data(), batch.n);
            }
        }
        for (size_t i = 0; i < batch.n && !stop_requested(); ++i) {
            bool bad = false;
            std::string res = proc.process(batch.lines[i], frontier::now(), bad);
            if (bad) ++rejected;
            ++total;
            if (!o.common.quiet) out().write_line(res);
            if (pacer.record()) due = true;
        }
        batch.release_large();
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
