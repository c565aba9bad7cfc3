// frontier-done's run loop (frontier-done(1)): reads result lines, applies
// them in write transactions paced by --batch, held output and time, and
// prints each result once it is committed. The session owns when a
// transaction begins and ends; what a batch asks of the frontier goes
// through DoneBackend, so tests can run it over a stand-in.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontier/done.hpp"
#include "frontier/session_io.hpp"
#include "store/store.hpp"

namespace frontier {

// What a done session needs of the frontier, in the order it calls it.
class DoneBackend {
public:
    virtual ~DoneBackend() = default;
    // Input lines gathered before they are applied (Store::records_read_together).
    virtual size_t records_read_together() = 0;
    // Opens the transaction of a batch at `now` (Store::begin_result_batch).
    virtual void begin_batch(double now) = 0;
    // begin_batch for these lines, in partitions where they allow it
    // (DoneProcessor::runs_in_partitions) and the batch is not `full` (as
    // many lines or bytes as a batch holds): true when the transaction may
    // hold only this batch (it is committed after it).
    virtual bool begin_batch_of(double now, const InputLine*, size_t, bool /*full*/) {
        begin_batch(now);
        return false;
    }
    // Reads ahead what applying these lines will read (DoneProcessor::prefetch).
    virtual void prefetch(const InputLine* lines, size_t n) = 0;
    // After the first prefetch of a transaction, with the lines that began
    // it: true when they must be read again (Store::settle_result_batch).
    virtual bool settle_batch(double now, const InputLine* lines, size_t n) = 0;
    // Applies one line; its output record's JSON text (DoneProcessor::process).
    virtual std::string apply(const InputLine& line, double now, bool& rejected) = 0;
    virtual void commit() = 0;
    virtual const DoneTally& tally() const = 0;
};

// DoneBackend over a Store, through a DoneProcessor.
class StoreDoneBackend : public DoneBackend {
public:
    explicit StoreDoneBackend(Store& store);
    size_t records_read_together() override { return store_.records_read_together(); }
    void begin_batch(double now) override { store_.begin_result_batch(now); }
    bool begin_batch_of(double now, const InputLine* lines, size_t n, bool full) override {
        BatchLocks locks;
        // A full batch is a backlog (a file, or a pipeline far behind): it
        // is applied under the writers' lock, in one transaction with the
        // batches after it, as the lock mode does: a batch in partitions
        // commits on its own, which costs more than it saves there.
        parts_ = store_.results_in_partitions() && !full &&
                 proc_.runs_in_partitions(lines, n, now, &locks);
        parts_settings_ = store_.settings_generation();
        took_locks_ = !locks.link_queues.empty() || !locks.robots_hosts.empty();
        store_.begin_result_batch(now, parts_, std::move(locks));
        return parts_;
    }
    void prefetch(const InputLine* lines, size_t n) override { proc_.prefetch(lines, n); }
    bool settle_batch(double now, const InputLine* lines, size_t n) override;
    std::string apply(const InputLine& line, double now, bool& rejected) override {
        return proc_.process(line, now, rejected);
    }
    void commit() override { store_.commit(); }
    const DoneTally& tally() const override { return proc_.tally(); }

private:
    Store& store_;
    DoneProcessor proc_;
    // The batch began in partitions, under these settings (their
    // generation): checked again if its transaction read others (settle_batch).
    bool parts_ = false;
    uint64_t parts_settings_ = 0;
    // It locked more than its leases' partitions: its links' queues (by
    // key) or its robots.txt leases' hosts.
    bool took_locks_ = false;
};

struct DoneSessionOptions {
    int64_t batch = 100000;  // results per transaction at most
    bool quiet = false;      // no result lines
    bool progress = false;   // a line every 2 s, and a summary
    bool verbose = false;    // the summary
    StopCheck stop = signal_stop();
};

class DoneSession {
public:
    DoneSession(DoneBackend& backend, RecordSource& input, SessionSink& sink, DoneSessionOptions o)
        : backend_(backend), input_(input), sink_(sink), o_(std::move(o)) {}

    // Applies every input line; commits and flushes before each wait for
    // input. Returns the exit code: 1 when a line was rejected, else 0.
    int run();

private:
    void progress_line(double& last_report, int64_t& last_results);

    DoneBackend& backend_;
    RecordSource& input_;
    SessionSink& sink_;
    DoneSessionOptions o_;
};

// A DoneSession over `store` (StoreDoneBackend): frontier-done's run.
int run_done_session(Store& store, RecordSource& input, SessionSink& sink, DoneSessionOptions o);

}  // namespace frontier
