// Store::housekeeping and the lease reclaim: expired leases, due retries
// and revisits go back to their queues set-based; sleeping queues whose
// wake time passed become ready (frontier(7), LEASES).
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "store/store.hpp"
#include "store/sql_codes.hpp"
#include "store/sql_columns.hpp"
#include "store/store_impl.hpp"

namespace frontier {

int64_t Store::reclaim_leases(double now) {
    Impl& m = *impl_;
    begin();
    refresh_settings();  // housekeeping reschedules queues by their politeness
    int64_t n = m.leases.out();
    m.expire_now(now, "");
    housekeeping(now);
    commit();
    return n;
}

// Leases that end now, as if they had expired: every lease out (`holders`
// empty), or those of the holders in `holders` ("3, 7": ids, listed in
// SQL). Housekeeping then puts them back in their queues.
void Store::Impl::expire_now(double now, const std::string& holders) {
    std::string urls = "UPDATE urls SET lease_expires = ? WHERE state = " SQL_URL_LEASED " AND lease_expires > ?";
    std::string hosts = "UPDATE hosts SET robots_lease_expires = ? WHERE robots_lease_expires > ?";
    if (!holders.empty()) {
        urls += " AND holder IN (" + holders + ")";
        hosts += " AND robots_holder IN (" + holders + ")";
    }
    for (const std::string& sql : {urls, hosts}) db.prepare(sql).bind(1, now).bind(2, now).exec();
}

std::optional<double> Store::last_lease_expiry() {
    Impl& m = *impl_;
    std::optional<double> last;
    for (const char* sql : {"SELECT max(lease_expires) FROM urls WHERE state = " SQL_URL_LEASED,
                            "SELECT max(robots_lease_expires) FROM hosts WHERE robots_lease_expires IS NOT NULL"}) {
        Stmt& st = m.q(sql);
        if (st.step() && !st.is_null(0)) last = std::max(last.value_or(st.dbl(0)), st.dbl(0));
        st.reset();
    }
    return last;
}

bool Store::housekeeping(double now) {
    Impl& m = *impl_;
    m.now = now;
    std::unordered_set<int64_t> touched;
    Impl::DueWork w = m.due_work(now);
    // The rows found are changed at the scan's time (w.at), so that the
    // counts match what the scan found.
    m.expire_url_leases(w.at, w.expired, touched);
    m.expire_robots_leases(w.robots, touched);
    m.requeue_due(w.at, w.due, touched);
    for (int64_t qid : touched) {
        m.queues.refresh_best(qid);
        m.queues.reschedule(qid);
    }
    m.wake_queues(now);
    return !w.expired.empty() || !w.robots.empty() || !w.due.empty();
}

// What came due by `now`, in one statement (one round trip on PostgreSQL):
// expired URL leases (kind 0: queue id), expired robots.txt leases (1: host
// id, its queue), and retries and revisits due (2: queue id, state). A
// leased URL has no due time, so no row is in two parts. The time is a
// scalar subquery: a plan made for its value (PostgreSQL plans a prepared
// statement for its parameters while that looks cheaper than its cached
// plan, which it did here at almost every transaction: a tenth of the
// writer lock's time with 16 pipelines) is then no better than the
// cached one, which is used.
namespace {
#define DUE_NOW "(SELECT CAST(?1 AS REAL))"
const char* const kDueWork =
    "SELECT 0, queue_id, 0 FROM urls WHERE " SQL_LEASE_EXPIRED(DUE_NOW) SQL_HELD("queue_id")
    " UNION ALL SELECT 1, id, robots_queue FROM hosts WHERE " SQL_ROBOTS_EXPIRED(DUE_NOW) SQL_HELD("robots_queue")
    " UNION ALL SELECT 2, queue_id, state FROM urls WHERE " SQL_DUE_AT(DUE_NOW) SQL_HELD("queue_id");
#undef DUE_NOW
}  // namespace


// Once per transaction and clock: a lease on PostgreSQL wakes them with
// its first read, then its housekeeping would again at the same time.
void Store::Impl::wake_queues(double now) {
    if (woken_at && *woken_at >= now) return;
    woken_at = now;
    q(held("UPDATE queues SET sched = " SQL_SCHED_READY " WHERE " SQL_TO_WAKE("?") SQL_HELD("id")))
        .bind(1, now)
        .exec();
}

void Store::Impl::send_due_work(double now) {
    due_sent = &q(held(kDueWork));
    due_sent_now = now;
    due_sent->bind(1, now).send();
}

Store::Impl::DueWork Store::Impl::due_work(double now) {
    DueWork w;
    Stmt* sent = std::exchange(due_sent, nullptr);
    // Sent for a later time: read again. Sent earlier (a --follow lease
    // whose clock was read again under the lock): what it found.
    const bool use_sent = sent && due_sent_now <= now;
    Stmt& st = use_sent ? *sent : q(held(kDueWork));  // q resets it: a result sent for a later time is dropped
    if (!use_sent) st.bind(1, now);
    w.at = use_sent ? due_sent_now : now;
    while (st.step()) {
        enum class C { kind, a, b };
        SqlRow<C> row(st);
        int64_t kind = row.i64(C::kind), a = row.i64(C::a), b = row.i64(C::b);
        if (kind == 0) ++w.expired[a];  // counted here: no sorter
        else if (kind == 1) w.robots.emplace_back(a, b);
        else ++w.due[{a, b}];
    }
    st.reset();
    return w;
}

// The URL rows that go back to their queues (parameter 1: the time), each
// condition written once: their lease order entries go in for exactly the
// rows the update then changes.
#define EXPIRED_ROWS SQL_LEASE_EXPIRED("?1") SQL_HELD("queue_id")
#define DUE_ROWS SQL_DUE_AT("?1") SQL_HELD("queue_id")

// Expired URL leases go back to their queues set-based: a crawl resumed
// after a stop may find every lease of the last run expired (hundreds of
// thousands), and per-row statements made that first call stall.
void Store::Impl::expire_url_leases(double now, const std::unordered_map<int64_t, int64_t>& expired,
                                    std::unordered_set<int64_t>& touched) {
    if (expired.empty()) return;
    queues.enter_lease_order_where(EXPIRED_ROWS, now);
    statements.update_all(held("UPDATE urls SET state = " SQL_URL_QUEUED " WHERE " EXPIRED_ROWS),
               "UPDATE OR FAIL urls SET state = " SQL_URL_QUEUED
               " WHERE id IN "
               "(SELECT id FROM urls WHERE " EXPIRED_ROWS " LIMIT ?2)",
               now);
    int64_t n = 0;
    for (auto [qid, k] : expired) {
        q("UPDATE queues SET in_flight = max(in_flight - ?, 0), queued = queued + ? WHERE id = ?")
            .bind(1, k).bind(2, k).bind(3, qid).exec();
        n += k;
        touched.insert(qid);
    }
    count("leased", -n);
    count("queued", n);
    count("leases_expired", n);
}

// Expired robots.txt leases free their queue's in-flight slot.
void Store::Impl::expire_robots_leases(const std::vector<std::pair<int64_t, int64_t>>& rows,
                                       std::unordered_set<int64_t>& touched) {
    for (auto [hid, qid] : rows) {
        q("UPDATE hosts SET robots_lease_expires = NULL WHERE id = ?").bind(1, hid).exec();
        q("UPDATE queues SET in_flight = max(in_flight - 1, 0) WHERE id = ?").bind(1, qid).exec();
        count("robots_leased", -1);
        count("leases_expired", 1);
        touched.insert(qid);
    }
}

// Retries and revisits that came due, set-based too (a revisit interval
// can pass for a whole site at once).
void Store::Impl::requeue_due(double now, const std::map<std::pair<int64_t, int64_t>, int64_t>& due,
                              std::unordered_set<int64_t>& touched) {
    if (!due.empty()) {
        queues.enter_lease_order_where(DUE_ROWS, now);
        statements.update_all(held("UPDATE urls SET due_at = NULL, state = " SQL_URL_QUEUED " WHERE " DUE_ROWS),
                   "UPDATE OR FAIL urls SET due_at = NULL, state = " SQL_URL_QUEUED
                   " WHERE id IN "
                   "(SELECT id FROM urls WHERE " DUE_ROWS " LIMIT ?2)",
                   now);
    }
    for (auto& [key, n] : due) {
        auto [qid, state] = key;
        touched.insert(qid);
        if (state == static_cast<int>(UrlState::queued)) continue;
        count(url_state_name(static_cast<UrlState>(state)), -n);
        count("queued", n);
        if (state == static_cast<int>(UrlState::done))
            q("UPDATE queues SET queued = queued + ?, done = done - ? WHERE id = ?").bind(1, n).bind(2, n).bind(3, qid).exec();
        else if (state == static_cast<int>(UrlState::failed))
            q("UPDATE queues SET queued = queued + ?, failed = failed - ? WHERE id = ?").bind(1, n).bind(2, n).bind(3, qid).exec();
        else
            q("UPDATE queues SET queued = queued + ? WHERE id = ?").bind(1, n).bind(2, qid).exec();
    }
}

#undef EXPIRED_ROWS
#undef DUE_ROWS

int64_t Store::leases_out() {
    if (!in_tx_) impl_->leases.forget_out();  // others commit between transactions
    return impl_->leases.out();
}

}  // namespace frontier
