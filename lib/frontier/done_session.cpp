// frontier-done's run loop (done_session.hpp).

#include "frontier/done_session.hpp"

#include <cstdio>
#include <utility>
#include <vector>

#include "core/clock.hpp"

namespace frontier {

namespace {

// The lines applied together: those already read in, up to `max` lines or
// kBytes, so that the rows of their leases are read at once where the
// backend gathers them. Reading a batch never waits for more input than
// its first line.
struct Batch {
    static constexpr size_t kBytes = 1 << 20;
    explicit Batch(size_t max) : lines(max < 1 ? 1 : max) {}
    std::vector<InputLine> lines;
    size_t n = 0;
    // As many lines as a batch holds, or as many bytes: a backlog.
    bool full = false;

    bool read(RecordSource& input) {
        n = 0;
        full = false;
        if (!input.next(lines[0])) return false;
        n = 1;
        size_t bytes = record_bytes(lines[0].record);
        while (n < lines.size() && bytes < kBytes && !input.idle() && input.next(lines[n]))
            bytes += record_bytes(lines[n++].record);
        full = n == lines.size() || bytes >= kBytes;
        return true;
    }
    // A slot that held a large line gives its memory back (each keeps its
    // capacity for the next line otherwise).
    void release_large() {
        for (size_t i = 1; i < n; ++i)
            if (record_bytes(lines[i].record) > (64u << 10)) lines[i] = InputLine();
    }
};

// Result lines held until commit, besides the URL-row updates the store
// holds: a transaction ends before their text passes this.
constexpr size_t kHeldLines = 12u << 20;

}  // namespace

StoreDoneBackend::StoreDoneBackend(Store& store) : store_(store), proc_(store) {
    // The URL-row updates held until commit and the held result lines take
    // the memory the page cache gives up: the rows are met in random order
    // and written in row order either way, so a larger cache buys little.
    store_.set_page_cache_mib(8);
    store_.settings();  // loaded before the first transaction (Store::begin_result_batch)
}

// A batch begun in partitions: if the settings its transaction read moved
// since (a link may then write, or go to another queue), it is checked
// again, and it may go on only if its links are all known to be in the
// frontier; a queue of its links made by another writer while it took its
// locks may be in a partition it does not hold. Else the transaction
// (which has written nothing yet) is rolled back and the batch begins
// again under the writers' lock.
bool StoreDoneBackend::settle_batch(double now, const InputLine* lines, size_t n) {
    bool again = store_.settle_result_batch(now);
    if (!std::exchange(parts_, false)) return again;
    const bool held = store_.link_queues_held();
    if (held && (store_.settings_generation() == parts_settings_ ||
                 (!took_locks_ && proc_.runs_in_partitions(lines, n, now))))
        return again;
    store_.rollback();
    store_.begin_result_batch(now, false);
    proc_.prefetch(lines, n);
    if (store_.settle_result_batch(now)) proc_.prefetch(lines, n);
    return false;
}

int DoneSession::run() {
    Batch batch(backend_.records_read_together());
    int64_t rejected = 0, total = 0;
    bool open = false, due = false, alone = false;
    TxPacer pacer(o_.batch, kHeldLines);
    const double started = monotonic_seconds();
    double last_report = started;
    int64_t last_results = 0;
    while (!o_.stop()) {
        // Commit and flush before waiting for input, so the pipeline never stalls.
        if (open && (due || input_.idle())) {
            backend_.commit();
            open = false;
            due = false;
        }
        if (!open) sink_.flush();
        if (!batch.read(input_)) break;
        const bool first = !open;
        if (first) {
            alone = backend_.begin_batch_of(frontier::now(), batch.lines.data(), batch.n, batch.full);
            open = true;
            pacer.restart();
        }
        backend_.prefetch(batch.lines.data(), batch.n);
        if (first && backend_.settle_batch(frontier::now(), batch.lines.data(), batch.n))
            backend_.prefetch(batch.lines.data(), batch.n);
        for (size_t i = 0; i < batch.n && !o_.stop(); ++i) {
            bool bad = false;
            std::string res = backend_.apply(batch.lines[i], frontier::now(), bad);
            if (bad) ++rejected;
            ++total;
            if (!o_.quiet) sink_.line(res);
            if (pacer.record(sink_.held())) due = true;
        }
        if (alone) due = true;  // in partitions: this batch's locks only
        batch.release_large();
        if (o_.progress) progress_line(last_report, last_results);
    }
    if (open) backend_.commit();
    sink_.flush();
    if (o_.progress || o_.verbose) {
        double secs = monotonic_seconds() - started;
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f", secs);
        sink_.message(std::string(o_.stop() ? "stopped after " : "") + std::to_string(total) +
                      " results in " + buf + " s (" + per_second(total, secs) +
                      "): " + backend_.tally().text());
    }
    return rejected > 0 ? 1 : 0;
}

int run_done_session(Store& store, RecordSource& input, SessionSink& sink, DoneSessionOptions o) {
    StoreDoneBackend backend(store);
    return DoneSession(backend, input, sink, std::move(o)).run();
}

// A progress line every 2 s with the rate since the last line.
void DoneSession::progress_line(double& last_report, int64_t& last_results) {
    double t = monotonic_seconds();
    if (t - last_report < 2) return;
    const DoneTally& k = backend_.tally();
    sink_.message(std::to_string(k.results) + " results (" +
                  per_second(k.results - last_results, t - last_report) + "): " + k.text());
    last_report = t;
    last_results = k.results;
}

}  // namespace frontier
