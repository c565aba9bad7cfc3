// frontier-add's run loop (add_session.hpp).

#include "frontier/add_session.hpp"

#include <future>

#include "core/clock.hpp"

namespace frontier {

StoreAddBackend::StoreAddBackend(Store& store)
    : store_(store), enq_(store), settings_(store.settings()) {  // frontier-add reads them once
    // A little less page cache than the default: the WAL's index and the
    // bounded queue and id caches then keep the peak memory of a large add
    // within the documented bound (frontier(7), FILE FORMAT).
    store_.set_page_cache_mib(29);
}

AddSession::AddSession(AddBackend& backend, RecordSource& input, SessionSink& sink, AddSessionOptions o)
    : backend_(backend),
      input_(input),
      sink_(sink),
      o_(std::move(o)),
      settings_(backend.settings()),
      pacer_(o_.batch) {}

int run_add_session(Store& store, RecordSource& input, SessionSink& sink, AddSessionOptions o) {
    StoreAddBackend backend(store);
    return AddSession(backend, input, sink, std::move(o)).run();
}

int AddSession::run() {
    Chunk a, b;
    Chunk* ready = nullptr;  // prepared, not yet stored
    Chunk* next = &a;
    while (!eof_ && !o_.stop()) {
        // Read and prepare this chunk on a helper thread while the previous
        // one is stored. The input, `line_` and `eof_` belong to the helper
        // while a job runs; job.get() hands them back.
        auto job = std::async(std::launch::async, [this, c = next] { read_and_prepare(*c); });
        if (ready) store_chunk(*ready);
        ready = nullptr;
        job.get();
        if (next->n == 0) break;
        // A chunk the input paused after is stored at once, not held back
        // until more input arrives.
        if (next->pause)
            store_chunk(*next);
        else
            ready = next;
        next = next == &a ? &b : &a;
    }
    if (ready) store_chunk(*ready);
    commit();
    return summarise();
}

void AddSession::read_and_prepare(Chunk& c) {
    read_chunk(c);
    for (size_t i = 0; i < c.n; ++i) backend_.prepare(c.items[i].e, settings_);
}

// Reads up to kChunk records; stops early when the input pauses, so that a
// slow producer's records are committed and answered at once.
void AddSession::read_chunk(Chunk& c) {
    c.n = 0;
    c.pause = false;
    const double now = frontier::now();  // for the last_modified check
    while (c.n < kChunk) {
        if (o_.stop() || !input_.next(line_)) {
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
        if (input_.idle()) break;
    }
    // A full chunk the input paused after is a pause too: it is stored at
    // once, not held back until the next record arrives.
    c.pause = eof_ || c.n < kChunk || input_.idle();
}

// The write lock is taken when records are in hand and released at each
// commit, before any wait for input: a slow producer never holds other
// writers out (frontier-add(1)).
void AddSession::commit() {
    if (open_) backend_.commit();
    open_ = false;
    sink_.flush();
}

// The chunk's fingerprints from record `from` on, read together, then the
// host and queue rows of its new URLs, found or made together. Only records
// nothing but their being stored can reject: a non-seed under
// scope.seed-domains waits for the seeds before it in the chunk.
void AddSession::prefetch(const Chunk& c, size_t from) {
    fps_.clear();
    reqs_.clear();
    for (size_t i = from; i < c.n; ++i) {
        const EnqueueResult& e = c.items[i].e;
        if (!e.scoped) continue;
        fps_.push_back(e.req.fp);
        if (e.outcome.reason == AddReason::none && (e.seed || !settings_.seed_domains))
            reqs_.push_back(&e.req);
    }
    backend_.prefetch(fps_, reqs_);
}

void AddSession::store_chunk(Chunk& c) {
    for (size_t i = 0; i < c.n; ++i) {  // every record read is answered, even after a stop
        if (!open_) {
            backend_.begin();
            open_ = true;
            now_ = frontier::now();
            pacer_.restart();
            prefetch(c, i);
        } else if (i == 0) {
            prefetch(c, 0);
        }
        Item& it = c.items[i];
        backend_.store(it.e, now_);
        const char* status = add_status_name(it.e.outcome.status);
        count(it.e.outcome, status);
        if (!o_.quiet) print_result(it.line_no, it.e, status);
        if (pacer_.record(sink_.held())) commit();
    }
    if (c.pause && pacer_.in_batch() > 0) commit();
}

void AddSession::count(const AddResult& r, const char* status) {
    ++summary_[status];
    if (r.status != AddStatus::rejected) return;
    // Bad input exits 1; scope decisions are data.
    if (r.reason != AddReason::out_of_scope && r.reason != AddReason::max_depth &&
        r.reason != AddReason::queue_full)
        ++rejected_;
    if (r.reason == AddReason::out_of_scope) ++out_of_scope_;
}

// The record's result line.
void AddSession::print_result(uint64_t line_no, const EnqueueResult& r, const char* status) {
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
        // How a computed priority came about, when anything but the base
        // made it (the seed's prioritySource, bonusApplied).
        if (!r.priority_source.empty() && r.priority_source != "base") {
            w_.field("priority_source", r.priority_source);
            w_.field("bonus_applied", r.bonus_applied);
        }
        w_.field("cost", r.req.cost);
    }
    w_.end();
    sink_.line(w_.str());
}

// The summary message, and the exit code.
int AddSession::summarise() {
    if (!o_.quiet) {
        std::string line;
        for (const char* k : {"added", "duplicate", "updated", "rejected"})
            line += (line.empty() ? "" : ", ") + std::to_string(summary_[k]) + " " + k;
        sink_.message(line);
    }
    // Records came and none was accepted (added, updated or already known):
    // an error, not a silent nothing (frontier-add(1), EXIT STATUS), saying
    // why when scope is to blame.
    bool none_accepted = summary_["rejected"] > 0 && summary_["added"] == 0 && summary_["updated"] == 0 &&
                         summary_["duplicate"] == 0;
    if (none_accepted && !o_.quiet && out_of_scope_ > 0)
        sink_.message(
            "nothing added: " + std::to_string(out_of_scope_) + " record" +
            (out_of_scope_ == 1 ? " was" : "s were") +
            " out of scope (scope.include / scope.exclude, or scope.seed-domains: a URL with a discovery "
            "must be in the registered domain of a seed; add seeds without \"discovery\" first)");
    else if (none_accepted && !o_.quiet)
        sink_.message("nothing added: every record was rejected");
    return rejected_ > 0 || none_accepted ? 1 : 0;
}

}  // namespace frontier
