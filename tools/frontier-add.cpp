// frontier-add: enqueue URLs (seeds, lister output, discovered links).
//
// frontier-add: records in, one result line per record out, committed in
// transactions of --batch records (or one second of work, or whatever has
// arrived when the input pauses). No transaction is open while it waits for
// input.
//
// Two stages overlap: while the main thread stores one chunk of records
// (SQLite) and prints its results, a helper thread reads, parses,
// canonicalises, scopes and scores the next (Enqueuer::prepare touches no
// database). Storing and output stay in input order.

#include <future>
#include <map>

#include "core/clock.hpp"
#include "frontier/enqueue.hpp"
#include "json/json.hpp"
#include "core/output.hpp"
#include "core/signals.hpp"
#include "store/store.hpp"
#include "core/tool.hpp"

namespace frontier {

struct AddOptions {
    CommonOptions common;
    std::vector<std::string> inputs;  // files, "-" = stdin (default)
    int64_t batch = 100000;           // records per transaction (at most; also one per second)
};
int run_add(const AddOptions& o);

namespace {

constexpr size_t kChunk = 512;  // records prepared together (2 blocks in memory: ~1 MiB)

struct Item {
    uint64_t line_no = 0;
    EnqueueResult e;  // the record, read, prepared, then stored, in place
};

struct Chunk {
    std::vector<Item> items;
    size_t n = 0;         // items in use (the vector keeps its capacity)
    bool pause = false;   // the input paused (or ended) after this chunk
};

// One run of frontier-add over its inputs.
class Adder {
public:
    explicit Adder(const AddOptions& o)
        : o_(o),
          store_(frontier_path(o.common), Store::Mode::create),
          enq_(store_),
          settings_(store_.settings()),  // frontier-add reads them once
          reader_(o.inputs.empty() ? std::vector<std::string>{"-"} : o.inputs),
          pacer_(o.batch) {
        // 29 MiB of page cache instead of 32: the 1 GiB WAL's wal-index
        // (FILE-shm, ~2 MiB mapped) and the bounded queue and id caches keep
        // the peak RSS under 64 MiB at 10M URLs (frontier(7), FILE FORMAT;
        // tests/bench/README.md, issue #27).
        store_.set_page_cache_mib(29);
    }

    int run() {
        Chunk a, b;
        Chunk* ready = nullptr;  // prepared, not yet stored
        Chunk* next = &a;
        while (!eof_ && !stop_requested()) {
            // Read and prepare this chunk on a helper thread while the
            // previous one is stored. The reader, `line_` and `eof_` belong
            // to the helper while a job runs; job.get() hands them back.
            auto job = std::async(std::launch::async, [this, c = next] { read_and_prepare(*c); });
            if (ready) store_chunk(*ready);
            ready = nullptr;
            job.get();
            if (next->n == 0) break;
            // A chunk the input paused after is stored at once, not held back
            // until more input arrives.
            if (next->pause) store_chunk(*next);
            else ready = next;
            next = next == &a ? &b : &a;
        }
        if (ready) store_chunk(*ready);
        commit();
        return summarise();
    }

private:
    void read_and_prepare(Chunk& c) {
        read_chunk(c);
        prepare_chunk(c);
    }

    // Reads up to kChunk records; stops early when the input pauses, so
    // that a slow producer's records are committed and answered at once.
    void read_chunk(Chunk& c) {
        c.n = 0;
        c.pause = false;
        const double now = frontier::now();  // for the last_modified check
        while (c.n < kChunk) {
            if (stop_requested() || !reader_.next(line_)) {
                eof_ = true;
                break;
            }
            if (c.items.size() <= c.n) c.items.emplace_back();
            Item& it = c.items[c.n++];
            it.line_no = line_.line_no;
            it.e = EnqueueResult{};
            if (!line_.error.empty())  // LineReader's reasons are AddReason words
                it.e.outcome.reason = add_reason_from_name(line_.error).value_or(AddReason::bad_json);
            else
                Enqueuer::read_fields(line_.record, it.e, now);
            if (reader_.idle()) break;
        }
        // A full chunk the input paused after is a pause too: it is stored
        // at once, not held back until the next record arrives.
        c.pause = eof_ || c.n < kChunk || reader_.idle();
    }

    void prepare_chunk(Chunk& c) {
        for (size_t i = 0; i < c.n; ++i) enq_.prepare(c.items[i].e, settings_);
    }

    // The write lock is taken when records are in hand and released at each
    // commit, before any wait for input: a slow producer never holds other
    // writers out (frontier-add(1)).
    void commit() {
        if (store_.in_transaction()) store_.commit();
        out().flush();
    }

    // The chunk's fingerprints from record `from` on, read in one statement,
    // then the host and queue rows of its new URLs, found or made together
    // (PostgreSQL: a few round trips instead of a few per record or host).
    // Only records nothing but their being stored can reject: a non-seed
    // under scope.seed-domains waits for the seeds before it in the chunk.
    void prefetch(Chunk& c, size_t from) {
        fps_.clear();
        reqs_.clear();
        for (size_t i = from; i < c.n; ++i) {
            const EnqueueResult& e = c.items[i].e;
            if (!e.scoped) continue;
            fps_.push_back(e.req.fp);
            if (e.outcome.reason == AddReason::none && (e.seed || !settings_.seed_domains))
                reqs_.push_back(&e.req);
        }
        store_.prefetch_for_add(fps_, reqs_);
    }

    void store_chunk(Chunk& c) {
        for (size_t i = 0; i < c.n; ++i) {  // every record read is answered, even after SIGTERM
            if (!store_.in_transaction()) {
                store_.begin();
                now_ = frontier::now();
                pacer_.restart();
                prefetch(c, i);
            } else if (i == 0) {
                prefetch(c, 0);
            }
            Item& it = c.items[i];
            enq_.finish(it.e, now_);
            const AddResult& r = it.e.outcome;
            const char* status = add_status_name(r.status);
            ++summary_[status];
            if (r.status == AddStatus::rejected) {
                // Bad input exits 1; scope decisions are data.
                if (r.reason != AddReason::out_of_scope && r.reason != AddReason::max_depth &&
                    r.reason != AddReason::queue_full)
                    ++rejected_;
                if (r.reason == AddReason::out_of_scope) ++out_of_scope_;
            }
            if (!o_.common.quiet) print_result(it.line_no, it.e, status);
            if (pacer_.record()) commit();
        }
        if (c.pause && pacer_.in_batch() > 0) commit();
    }

    // The record's result line.
    void print_result(uint64_t line_no, const EnqueueResult& r, const char* status) {
        w_.begin();
        w_.field("line", static_cast<int64_t>(line_no));
        if (!r.req.url.url.empty()) w_.field("url", r.req.url.url);
        w_.field("status", status);
        if (r.outcome.status == AddStatus::rejected) {
            w_.field("reason", add_reason_name(r.outcome.reason));
            if (!r.field.empty()) w_.field("field", r.field);
        }
        if (r.outcome.status == AddStatus::added) {
            w_.field("queue", r.req.queue_key);
            w_.field("priority", r.req.priority);
            // How a computed priority came about, when anything but the
            // base made it (the seed's prioritySource, bonusApplied).
            if (!r.priority_source.empty() && r.priority_source != "base") {
                w_.field("priority_source", r.priority_source);
                w_.field("bonus_applied", r.bonus_applied);
            }
            w_.field("cost", r.req.cost);
        }
        w_.end();
        out().write_line(w_.str());
    }

    // The summary on standard error, and the exit code.
    int summarise() {
        if (!o_.common.quiet) {
            std::string line_s = "";
            for (const char* k : {"added", "duplicate", "updated", "rejected"})
                line_s += (line_s.empty() ? "" : ", ") + std::to_string(summary_[k]) + " " + k;
            diag(line_s);
        }
        // Records came and none was accepted (added, updated or already known):
        // an error, not a silent nothing (frontier-add(1), EXIT STATUS), saying
        // why when scope is to blame.
        bool none_accepted = summary_["rejected"] > 0 && summary_["added"] == 0 && summary_["updated"] == 0 &&
                             summary_["duplicate"] == 0;
        if (none_accepted && !o_.common.quiet && out_of_scope_ > 0)
            diag("nothing added: " + std::to_string(out_of_scope_) + " record" +
                 (out_of_scope_ == 1 ? " was" : "s were") +
                 " out of scope (scope.include / scope.exclude, or scope.seed-domains: a URL with a discovery "
                 "must be in the registered domain of a seed; add seeds without \"discovery\" first)");
        else if (none_accepted && !o_.common.quiet)
            diag("nothing added: every record was rejected");
        return rejected_ > 0 || none_accepted ? 1 : 0;
    }

    const AddOptions& o_;
    Store store_;
    Enqueuer enq_;
    const Settings& settings_;
    LineReader reader_;
    std::map<std::string, int64_t> summary_;
    int64_t rejected_ = 0;
    TxPacer pacer_;
    bool eof_ = false;
    InputLine line_;
    JsonWriter w_;
    HeldOutput held_;  // a record is printed only once it is committed
    double now_ = 0;
    int64_t out_of_scope_ = 0;
    std::vector<uint64_t> fps_;
    std::vector<const AddRequest*> reqs_;
};

}  // namespace

int run_add(const AddOptions& o) { return Adder(o).run(); }

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
