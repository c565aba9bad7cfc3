// Private to lib/store/: one lease call (Store::lease), its state and
// steps. Taking URLs is in store_lease.cpp; budgets, queue rotation and why
// nothing was leased in store_lease_queues.cpp.
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "policy/lease_order.hpp"
#include "policy/lease_policy.hpp"
#include "store/sql_codes.hpp"
#include "store/store.hpp"
#include "store/store_impl.hpp"

namespace frontier {

// A page of ready queues: the keyset over the queues_ready index after
// (best, served) = (?, ?), in pages of ? rows (LeaseOrder::page_size).
#define SQL_READY_PAGE                                                                                       \
    "FROM" SQL_HELD_READY " WHERE sched = " SQL_SCHED_READY " AND (best, served) > (?, ?)"                 \
    " ORDER BY best, served LIMIT ?"

// A queue's next URL as read for leasing.
struct LeaseHead {
    int64_t id = 0, hid = 0, seq = 0, tier = 0;
    double rank = 0, tier_key = 0;
    LeaseItem it;
};

// A head's place in its queue's order.
inline HeadKey key_of(const LeaseHead& h) { return HeadKey{h.rank, h.tier_key, h.tier, h.it.cost, h.id}; }

// A host's robots.txt row, as a lease reads it.
struct LeaseRobotsRow {
    std::string host, rules;
    RobotsState state = RobotsState::unknown;
    double at = 0, retry_at = 0;
    bool outstanding = false;  // a robots.txt lease is out
    int64_t next_seq = 0;
    bool rules_read = false;  // `rules` holds the stored rules (else see LeaseRun::rules_for)
};

// One lease call: the batch's order (LeaseOrder), the queues' prefetched
// heads, and the rows it reads and writes.
struct Store::LeaseRun {
    LeaseRun(Store& store, const LeaseRequest& r, const Settings& settings)
        : st(store),
          m(*store.impl_),
          req(r),
          s(settings),
          now(r.now),
          order(r.per_queue, r.host_discount, r.taken ? *r.taken : taken_here,
                LeaseOrder::page_size_for(r.n)) {}

    Store& st;
    Impl& m;
    const LeaseRequest& req;
    const Settings& s;
    const double now;
    std::unordered_map<int64_t, int64_t> taken_here;
    LeaseOrder order;
    LeaseOutcome out;
    // Prefetched heads per queue (batched reads, below); a head leaves its
    // list once its URL is leased or ended.
    std::unordered_map<int64_t, std::deque<LeaseHead>> heads;
    // Per queue, the key of the last head taken from the front of its list;
    // none once a URL of the queue was taken otherwise. A refill reads the
    // heads after it, so the held lease writes need not be written first.
    std::unordered_map<int64_t, HeadKey> taken_key;
    // Queues a URL was taken from other than at the front of their list
    // (LeaseOrder's alternation): their refills write the held leases first.
    std::unordered_set<int64_t> taken_aside;
    // Queues whose lists hold every due URL they have left: read shorter
    // than asked (under the writer lock no one else adds to them).
    std::unordered_set<int64_t> complete;
    bool class_missing = false;  // set by take(): no URL of the wanted class
    // Where the backend keeps them (StoreBackend::keep_queue_row): queue
    // rows as this call last read or wrote them, so that a queue taken from
    // again is not read again (under the writer lock only this call changes
    // them). A step that changes a row in SQL alone forgets it.
    std::unordered_map<int64_t, QueueInfo> queue_rows;
    // Where the backend reads them ahead (keep_host_row; PostgreSQL: with
    // a page, lib/store/pg/pg_lease_heads.cpp): host rows as this call
    // changed them.
    std::unordered_map<int64_t, LeaseRobotsRow> hosts_ahead;
    QueueInfo queue_row(int64_t qid);
    void keep_row(const QueueInfo& qi);
    void forget_row(int64_t qid) { queue_rows.erase(qid); }

    void run();
    void load_page();
    void load_page_ahead();
    // Sends a first page's statements (load_page_ahead); Store::lease sends
    // them with the transaction's first read.
    static Impl::PageSent send_page_ahead(Impl& m, const LeaseRequest& req, bool robots);
    static Impl::PageSent send_ahead(Impl& m, const LeaseRequest& req, bool robots, int64_t inactive);
    // Where the backend reads them ahead (StoreBackend::next_inactive): the
    // inactive FIFO's first queues, in order; inactive_all: that is the
    // whole FIFO (a queue this call rotates out is added at the back).
    std::deque<QueueInfo> inactive_ahead;
    // None inactive at the transaction's start (Leases::read_start): the
    // FIFO is known empty without reading it.
    bool inactive_all = m.leases.start.read && !m.leases.start.inactive;
    static constexpr int64_t kInactiveAhead = 256;
    void read_inactive_ahead();
    bool paged = false;  // the call's first page was read
    bool contended = false;  // in partitions: every ready queue was another writer's
    // A heads query sent (q), and the queues it asks for with the heads
    // asked of each.
    struct HeadsRead {
        Stmt* q = nullptr;
        std::unordered_map<int64_t, int64_t> limits;
    };
    void prefetch(const std::vector<int64_t>& qids, int64_t per_queue);
    HeadsRead send_heads(const std::vector<int64_t>& qids, int64_t per_queue);
    void read_heads(const HeadsRead& r);
    // A refill reads, with the queue that ran out (up to kRefillMax heads),
    // up to kRefillQueues - 1 other queues taken from whose lists are down
    // to kRefillLow heads (up to kRefillOthers each).
    static constexpr size_t kRefillQueues = 256, kRefillLow = 2;
    static constexpr int64_t kRefillMax = 1024, kRefillOthers = 64;
    void refill(int64_t qid);
    // The heads read per queue of a page: --per-queue, at most 8, +1.
    static int64_t page_head_limit(const LeaseRequest& req);
    // The heads a refill reads: what this call may still take, at most `cap`, + 1.
    int64_t refill_limit(int64_t cap = kRefillOthers) const;
    int64_t left_to_take() const { return req.n - static_cast<int64_t>(out.items.size()); }  // URLs, by -n
    bool activate_one();
    void retire(int64_t qid);
    void spent(QueueInfo& qi);
    bool retire_over_total(const QueueInfo& qi);
    void end_url(int64_t id, QueueInfo& qi, UrlState state, const char* reason);
    bool take(QueueInfo& qi, const Politeness& p, int cls);
    std::optional<LeaseHead> next_head(QueueInfo& qi, int cls, bool& from_pre, bool settle = true);
    void lease_url(QueueInfo& qi, LeaseHead head, const RobotsRules* rules);
    void end_disallowed_next(QueueInfo& qi, int64_t hid, const RobotsRules& rules);
    void consume(int64_t qid, int64_t url_id, bool from_pre);
    LeaseRobotsRow robots_row(int64_t hid);
    static const std::string& robots_columns();  // of a host row robots_row reads (id first)
    // Such a row at a statement's current step (with its rules after those
    // columns), its host id and seed flag.
    static LeaseRobotsRow read_robots_row(const Stmt& st, bool with_rules);
    static int64_t robots_row_host(const Stmt& st);
    static bool robots_row_seed(const Stmt& st);
    void read_hosts_ahead(Stmt& st);
    void prefetch_hosts(const std::vector<int64_t>& host_ids);  // those not read yet, in one statement
    static bool robots_anywhere(const Settings& s);             // robots.enabled, or some domain's
    const bool robots = robots_anywhere(s);                     // host rows are read with pages only then
    const RobotsRules& rules_for(int64_t hid, const LeaseRobotsRow& r);
    void lease_robots(QueueInfo& qi, const LeaseRobotsRow& r, int64_t hid);
    bool classes_added();
    void stamp(LeaseItem& it, const QueueInfo& qi, int64_t hid);
    void explain_nothing();
    std::optional<double> min_of(Stmt& q);
};

}  // namespace frontier
