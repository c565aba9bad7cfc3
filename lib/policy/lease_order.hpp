// The order frontier-lease takes queues in (frontier-lease(1), ORDER;
// frontier(7), URL STATES): plain code over queue ids and their
// (best rank, served) positions, so that the choice can be tested without
// a database. Store::lease reads the ready index page by page into it,
// asks it which queue comes next, and tells it what each queue gave.
//
// - Queues come in order of their best URL's rank plus the host discount
//   (--host-discount times the URLs already taken from the queue in this
//   batch), then of when they were last served, then of id.
// - A queue gives at most --per-queue URLs per batch (`taken` counts them
//   across the transactions of one batch).
// - Alternation (lease.class-burst): after `burst` leases of one URL class
//   in a row, queues are asked for the other class; a queue without one
//   waits (deferred) until such a URL is leased, or until kClassScan queues
//   had none or no queue is left; then the batch goes on in rank order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <queue>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "policy/lease_policy.hpp"
#include "policy/model.hpp"

namespace frontier {

struct QueueCandidate {
    double eff;      // best rank + host discount
    int64_t served;  // queues.served: the last time it was served
    int64_t qid;
    bool operator>(const QueueCandidate& o) const {
        return eff != o.eff ? eff > o.eff : (served != o.served ? served > o.served : qid > o.qid);
    }
};

class LeaseOrder {
public:
    // Queues whose other-class search found nothing before alternation is
    // given up for the batch (the seed scans 64 items, MAX_SCAN).
    static constexpr int64_t kClassScan = 64;
    // Rows per page of the ready index at most.
    static constexpr int kPageSize = 256;
    // Rows per page for a call of `n` URLs: twice n, at least 32, at most
    // kPageSize. A small call (a pipeline's) reads the rows and heads of
    // the few queues it can take from, not of 256; one that needs more
    // queues reads the next page (next() says when).
    static int page_size_for(int64_t n) {
        return static_cast<int>(std::clamp<int64_t>(2 * n, 32, kPageSize));
    }

    LeaseOrder(int64_t per_queue, double host_discount, std::unordered_map<int64_t, int64_t>& taken,
               int page_size = kPageSize)
        : per_queue_(per_queue), discount_(host_discount), taken_(taken), page_size_(page_size) {}

    // Turns alternation on, starting from the stored run.
    void alternate(ClassRun run, int64_t burst) {
        alternate_ = true;
        run_ = run;
        burst_ = burst;
    }
    // The class the next lease must be of (kClassDiscovery or
    // kClassAcquisition), or -1: any, in rank order.
    int wanted_class() const { return alternate_ && !force_off_ ? forced_class(run_, burst_) : -1; }
    ClassRun run() const { return run_; }
    bool run_changed() const { return run_changed_; }

    // The ready index is read in pages of page_size() rows, in (best,
    // served) order, from the cursor on; a shorter page is its end.
    int page_size() const { return page_size_; }
    double cursor_best() const { return cur_best_; }
    int64_t cursor_served() const { return cur_served_; }
    // The cursor before the first page.
    static constexpr double kFirstBest = -1e300;
    static constexpr int64_t kFirstServed = std::numeric_limits<int64_t>::min();
    // A row of the ready index; true when the queue is new to this batch
    // (and now a candidate).
    bool from_index(int64_t qid, double best, int64_t served);
    void page_read(int rows) {
        if (rows < page_size_) index_done_ = true;
    }
    // A queue made active (from the inactive FIFO) and ready.
    void activated(int64_t qid, double best, int64_t served);

    enum class Step {
        load_page,  // read the next page of the ready index first
        empty,      // no candidate: activate an inactive queue, or stop
        skip,       // the popped queue gave its --per-queue URLs already
        take,       // try the popped queue
    };
    Step next(QueueCandidate& c);

    // The popped queue had no URL of the wanted class among its first due ones.
    void class_missing(const QueueCandidate& c);
    // When no candidate is left: gives up alternation if queues wait for
    // the other class (they compete again); false when there was nothing
    // to give up (the batch ends).
    bool stop_forcing();
    // The popped queue gave a URL of class `cls` (-1: a robots.txt).
    // `more`: the queue may give another now (still active, with URLs, a
    // free in-flight slot and no wait); then it competes again at its new
    // best rank and served mark.
    void leased(const QueueCandidate& c, int cls, bool more, double best, int64_t served);
    // A queue gave its --per-queue URLs in this batch while it could have
    // given more: another batch at once may take them.
    bool capped_with_more() const { return capped_with_more_; }

private:
    void push_back_deferred();

    int64_t per_queue_;
    double discount_;
    std::unordered_map<int64_t, int64_t>& taken_;
    int page_size_;
    bool capped_with_more_ = false;
    std::priority_queue<QueueCandidate, std::vector<QueueCandidate>, std::greater<QueueCandidate>> heap_;
    std::unordered_set<int64_t> loaded_;
    bool index_done_ = false;
    double cur_best_ = kFirstBest;
    int64_t cur_served_ = kFirstServed;
    bool alternate_ = false;
    int64_t burst_ = 0;
    ClassRun run_;
    bool run_changed_ = false;
    bool force_off_ = false;
    int64_t force_misses_ = 0;
    std::vector<QueueCandidate> deferred_;
};

// May a queue give a URL now: a free in-flight slot (politeness
// max-in-flight) and no wait (wake time passed)?
inline bool may_lease_now(int64_t in_flight, int64_t max_in_flight, double wake_at, double now) {
    return in_flight < max_in_flight && wake_at <= now;
}

// A queue's place in the schedule (frontier(7), LEASES): idle when it is
// not active, has no due URL (`has_best`) or is at its in-flight cap;
// sleeping until its wake time; else ready (in the ready index).
inline QueueSched queue_sched(bool active, bool has_best, int64_t in_flight, int64_t max_in_flight,
                              double wake_at, double now) {
    if (!active || !has_best || in_flight >= max_in_flight) return QueueSched::idle;
    if (wake_at > now) return QueueSched::sleeping;
    return QueueSched::ready;
}

// What a lease call that leased nothing says (frontier-lease(1), EXIT
// STATUS): URLs queued in non-retired queues or leases out: not ready yet;
// else URLs held in retired queues: paused (a budget stops them); else
// finished.
LeaseStatus empty_lease_status(int64_t workable, int64_t retired_queued);

}  // namespace frontier
