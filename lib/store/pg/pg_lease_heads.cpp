// The PostgreSQL lease's reads (frontier(7), POSTGRESQL): a page of
// ready queues sent with its heads and hosts in one round trip, the heads
// of many queues prefetched and refilled together, the inactive FIFO read
// ahead, and the hosts of the heads read at once. The lease's steps that
// both backends share are in lib/store/store_lease*.cpp.
#include <algorithm>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "policy/priority.hpp"
#include "store/pg/pg_array.hpp"
#include "store/pg/pg_partitions.hpp"
#include "store/pg/pg_sql.hpp"
#include "store/pg/pg_store.hpp"

namespace frontier {

// Where a statement is a round trip (PostgreSQL), the heads of every queue
// of a loaded page are read in one set-based query instead of one per URL
// (per_queue of them: --per-queue + 1, at most 9), and queues whose lists
// run out are read again the same way (refill). Under the writer lock only
// this lease changes these queues' URLs, so a prefetched list stays exact,
// and a list read shorter than asked holds every due URL its queue has
// left (`complete`): once it runs out, nothing is read again.
void Store::LeaseRun::prefetch(const std::vector<int64_t>& qids, int64_t per_queue) {
    HeadsRead r = send_heads(qids, per_queue);
    if (r.q) read_heads(r);
}

// prefetch's query, sent (Stmt::send: on PostgreSQL it goes with the next
// read, load_page's queue rows); none (q null) when there is none to send.
Store::LeaseRun::HeadsRead Store::LeaseRun::send_heads(const std::vector<int64_t>& qids, int64_t per_queue) {
    if (qids.empty()) return {};
    PgArray arr;
    for (int64_t id : qids) arr.add(id);
    Stmt& q = m.q((req.url_class.empty() ? kHeadsAll : kHeadsOfClass).c_str());
    q.bind(1, arr);
    if (req.url_class.empty()) {
        q.bind(2, per_queue);
    } else {
        q.bind(2, class_code(req.url_class));
        q.bind(3, per_queue);
    }
    q.send();
    HeadsRead r{&q, {}};
    for (int64_t id : qids) r.limits.emplace(id, per_queue);
    return r;
}

// Appends a heads query's rows (of the queues asked; a page's query has
// others) to their queues' lists; a queue given fewer than the limit has
// its list complete.
void Store::LeaseRun::read_heads(const HeadsRead& r) {
    std::vector<int64_t> hosts;
    std::unordered_map<int64_t, int64_t> got;
    Stmt& q = *r.q;
    while (q.step()) {
        const int64_t qid = q.i64(0);
        if (!r.limits.count(qid)) continue;
        LeaseHead h = read_head(q, 1);
        hosts.push_back(h.hid);
        heads[qid].push_back(std::move(h));
        ++got[qid];
    }
    q.reset();
    for (const auto& [qid, limit] : r.limits) {
        heads.try_emplace(qid);
        if (got[qid] < limit) complete.insert(qid);
    }
    prefetch_hosts(hosts);  // robots_row and stamp() read them
}

// Where a read is a round trip (PostgreSQL): a page of ready queues' rows,
// their heads (as prefetch reads them, for a whole page) and their heads'
// host rows (robots_row, with the seed flags), sent together: one round
// trip. The heads and hosts statements select the page again, with the
// same rows: this call's held writes are written before the page
// statement (Statements::q), and under the writer lock no one else writes.
// Queues of the page loaded before (LeaseOrder::from_index) keep what
// this call read of them.
Store::Impl::PageSent Store::LeaseRun::send_page_ahead(Impl& m, const LeaseRequest& req, bool robots) {
    return send_ahead(m, req, robots, 0);
}

// The statements of send_page_ahead (inactive 0), or the same for the first
// `inactive` queues of the inactive FIFO (read_inactive_ahead).
Store::Impl::PageSent Store::LeaseRun::send_ahead(Impl& m, const LeaseRequest& req, bool robots,
                                                  int64_t inactive) {
    static const AheadSql page_sql(QueueRows::info_columns(), SQL_READY_PAGE, kPageQueues, robots_columns());
    static const AheadSql fifo_sql(QueueRows::info_columns(), SQL_INACTIVE_AHEAD, kInactiveQueues,
                                   robots_columns());
    const AheadSql& sql = inactive ? fifo_sql : page_sql;
    const bool of_class = !req.url_class.empty();
    const int64_t per_queue = page_head_limit(req);
    // Binds the queues' selection; the next parameter's index.
    auto select = [&](Stmt& st) {
        if (inactive) {
            st.bind(1, inactive);
            return 2;
        }
        st.bind(1, LeaseOrder::kFirstBest)
            .bind(2, LeaseOrder::kFirstServed)
            .bind(3, LeaseOrder::page_size_for(req.n));
        return 4;
    };
    Stmt& page = m.q(m.held(sql.rows.c_str()));
    select(page);
    page.send();
    // The hosts only with robots.txt on somewhere: their robots.txt state is
    // needed for every URL; the seed flags alone are read after the heads,
    // only those not known yet (prefetch_hosts).
    Stmt* sent[2] = {&m.q_unflushed(m.held((of_class ? sql.heads_of_class : sql.heads).c_str())),
                     robots ? &m.q_unflushed(m.held((of_class ? sql.hosts_of_class : sql.hosts).c_str())) : nullptr};
    for (Stmt* st : sent) {
        if (!st) continue;
        // The hosts: of each queue's first head (its other heads' hosts,
        // where a queue has several, are read by read_heads).
        const int64_t limit = st == sent[0] ? per_queue : 1;
        int i = select(*st);
        if (of_class) st->bind(i++, class_code(req.url_class));
        st->bind(i, limit);
        st->send();
    }
    return {&page, sent[0], sent[1]};
}

#undef SQL_INACTIVE_AHEAD

// Where a read is a round trip: the first queues of the inactive FIFO, as
// many as this call may still lease URLs (at most kInactiveAhead), with
// their heads and hosts, in one round trip, for activate_one to take in
// order. Under the writer lock only this call changes the FIFO: it takes
// from its front, and a queue it rotates out goes to its back.
void Store::LeaseRun::read_inactive_ahead() {
    const int64_t want = std::clamp<int64_t>(left_to_take(), 1, kInactiveAhead);
    Impl::PageSent sent = send_ahead(m, req, robots, want);
    HeadsRead r{sent.heads, {}};
    int64_t n = 0;
    while (sent.page->step()) {
        ++n;
        inactive_ahead.push_back(QueueRows::read_info(*sent.page));
        // A queue rotated out earlier in this call keeps its list.
        if (!heads.count(inactive_ahead.back().id))
            r.limits.emplace(inactive_ahead.back().id, page_head_limit(req));
    }
    sent.page->reset();
    inactive_all = n < want;
    if (sent.hosts) read_hosts_ahead(*sent.hosts);
    read_heads(r);
}

// The call's first page: sent with the transaction's first read, or now.
void Store::LeaseRun::load_page_ahead() {
    Impl::PageSent sent = m.page_sent ? *m.page_sent : send_page_ahead(m, req, robots);
    m.page_sent.reset();
    Stmt& page = *sent.page;
    std::unordered_set<int64_t> loaded;
    int n = 0;
    while (page.step()) {
        ++n;
        QueueInfo qi = QueueRows::read_info(page);
        if (!order.from_index(qi.id, qi.best.value_or(0), qi.served)) continue;
        loaded.insert(qi.id);
        queue_rows.try_emplace(qi.id, std::move(qi));
    }
    page.reset();
    order.page_read(n);
    if (sent.hosts) read_hosts_ahead(*sent.hosts);  // first: read_heads then knows their seed flags
    HeadsRead r{sent.heads, {}};
    for (int64_t id : loaded) r.limits.emplace(id, page_head_limit(req));
    read_heads(r);
}

// A queue's prefetched list ran out: its next heads, up to what this call
// may still take from it (--per-queue, -n; at most kRefillMax) + 1, read
// in one statement with those of other queues likely to run out next
// (below). Only lists of every class are refilled, and none that is
// complete.
void Store::LeaseRun::refill(int64_t qid) {
    if (!req.url_class.empty() || complete.count(qid)) return;
    auto k = taken_key.find(qid);
    if (k == taken_key.end()) return prefetch({qid}, refill_limit());
    PgArray qids, ranks, tiers, tier_keys, costs, ids, limits;
    HeadsRead r;
    auto ask = [&](int64_t q, const HeadKey& key, int64_t limit) {
        r.limits.emplace(q, limit);
        limits.add(limit);
        qids.add(q);
        ranks.add(key.rank);
        tiers.add(key.tier);
        tier_keys.add(key.tier_key);
        costs.add(key.cost);
        ids.add(key.id);
    };
    ask(qid, k->second, refill_limit(kRefillMax));
    const int64_t others = refill_limit();
    // The others: queues this call took from the front of (so it may take
    // more), whose lists are short, not complete, and none taken aside
    // (whose held leases would have to be written first). A list's next
    // heads come after its last one, which this call has not taken.
    for (const auto& [q, list] : heads) {
        if (r.limits.size() >= kRefillQueues) break;
        if (q == qid || list.size() > kRefillLow || complete.count(q) || taken_aside.count(q)) continue;
        auto t = taken_key.find(q);
        if (t == taken_key.end()) continue;
        ask(q, list.empty() ? t->second : key_of(list.back()), others);
    }
    // Then the queues next in the inactive FIFO, read ahead, in order (a
    // lease that drains each queue it activates takes them next), until
    // what the asked queues hold (their queued counts) covers what this
    // call may still take.
    const int64_t left = left_to_take();
    auto row = queue_rows.find(qid);
    int64_t expect = row == queue_rows.end() ? left : row->second.queued;
    for (const QueueInfo& f : inactive_ahead) {
        if (r.limits.size() >= kRefillQueues || expect >= left) break;
        auto l = heads.find(f.id);
        if (l == heads.end() || l->second.empty() || complete.count(f.id) || taken_aside.count(f.id))
            continue;
        ask(f.id, key_of(l->second.back()), others);
        expect += std::min<int64_t>(others - 1, f.queued - static_cast<int64_t>(l->second.size()));
    }
    // A URL of this queue taken aside (alternation) may lie after the key,
    // its lease still held: written first, it is not read again.
    Stmt& q = taken_aside.count(qid) ? m.q(kHeadsAfter.c_str()) : m.q_unflushed(kHeadsAfter.c_str());
    q.bind(1, qids).bind(2, ranks).bind(3, tiers).bind(4, tier_keys).bind(5, costs).bind(6, ids);
    q.bind(7, limits);
    r.q = &q;
    read_heads(r);
}

// The host rows of a page's heads, read with the page (robots_columns, one
// round trip for the page): their seed flags, robots.txt states, and the
// rules of those whose rules are not parsed here yet (one more statement,
// only then).
void Store::LeaseRun::read_hosts_ahead(Stmt& st) {
    PgArray missing;
    while (st.step()) {
        int64_t hid = robots_row_host(st);
        LeaseRobotsRow r = read_robots_row(st, false);
        m.note_seed_host(hid, robots_row_seed(st));
        if (r.state == RobotsState::known && !m.robots_cached(hid, r.at)) missing.add(hid);
        hosts_ahead.insert_or_assign(hid, std::move(r));
    }
    st.reset();
    if (!missing.size()) return;
    static const std::string rules_of = probe_each_sql("hosts", "id", "id, robots_rules");
    Stmt& q = m.q_unflushed(rules_of.c_str());
    q.bind(1, missing);
    while (q.step()) {
        int64_t hid = q.i64(0);
        if (auto a = hosts_ahead.find(hid); a != hosts_ahead.end())
            m.robots_rules(hid, a->second.at, q.text(1));
    }
    q.reset();
}

// Round-trip backends: the rows of the heads' hosts not read in this call
// yet, in one statement (with the rules of those not parsed here); with
// robots.txt off everywhere, only the seed flags not known yet
// (Impl::prefetch_seed_hosts, which keeps those of seed hosts across calls).
void Store::LeaseRun::prefetch_hosts(const std::vector<int64_t>& host_ids) {
    if (!robots) {
        if (s.net_seed_hosts) m.prefetch_seed_hosts(host_ids);
        return;
    }
    static const std::string sql = probe_each_sql("hosts", "id", robots_columns());
    PgArray ids;
    std::unordered_set<int64_t> asked;
    for (int64_t h : host_ids)
        if (!hosts_ahead.count(h) && asked.insert(h).second) ids.add(h);
    if (!ids.size()) return;
    Stmt& st = m.q_unflushed(sql.c_str());
    st.bind(1, ids);
    read_hosts_ahead(st);
}

// The scan for expired leases and due URLs goes with the transaction's
// first read, at the clock read before the lock: with --follow, which
// reads the clock again once the lock is held, too (one round trip fewer
// while the lock is held; what comes due in between is found by the next
// call). With the settings known, the first page goes with it, after the
// wake of sleeping queues at that clock: the lock is then held for two
// round trips (this one and the commit's). A housekeeping that changes
// rows, or new settings, make it stale: it is read again.
// In partitions, a lease locks those of as many ready queues as it may
// take from (its URLs over --per-queue), and these more (queues it cannot
// take from: politeness, robots.txt): leases at once then each find queues
// of their own, and leave the others to the results coming back.
constexpr int64_t kLeaseSpareQueues = 8;

void PgStoreBackend::begin_lease(Store& store, Store::Impl& m, const LeaseRequest& req) {
    // In partitions: those with work due and of the first ready queues
    // locked first (pg_partitions.hpp), then read.
    if (m.in_partitions) {
        const int64_t per_queue = std::max<int64_t>(req.per_queue, 1);
        const int64_t queues = (req.n + per_queue - 1) / per_queue + kLeaseSpareQueues;
        m.parts_sent = &m.q(kLockLeaseParts.c_str());
        m.parts_sent->bind(1, req.now)
            .bind(2, std::min<int64_t>(LeaseOrder::page_size_for(req.n), queues))
            .send();
    }
    m.send_due_work(req.now);
    if (!m.settings.loaded) {
        store.refresh_settings();
        return;
    }
    m.wake_queues(req.now);
    m.page_sent = Store::LeaseRun::send_page_ahead(m, req, Store::LeaseRun::robots_anywhere(*m.settings.loaded));
    if (store.refresh_settings(m.leases.read_start())) m.drop_page_sent();
}

// The call's first page comes with its rows, heads and hosts (one round
// trip); a later page, which holds queues loaded before (those leased from
// moved on in the index), reads the rows and heads of its new queues only,
// then their hosts' (read_heads).
bool PgStoreBackend::load_page(Store::LeaseRun& run) {
    if (run.paged) {
        // In partitions: those of the next page's queues locked first.
        if (run.m.in_partitions)
            run.m.q(kLockPageParts.c_str())
                .bind(1, run.order.cursor_best())
                .bind(2, run.order.cursor_served())
                .bind(3, run.order.page_size())
                .exec();
        return false;
    }
    run.paged = true;
    run.load_page_ahead();
    // In partitions: no ready queue locked, while some were ready: other
    // leases held them all (LeaseOutcome::contended).
    if (Stmt* lock = std::exchange(run.m.parts_sent, nullptr)) {
        if (lock->step()) run.contended = lock->i64(1) == 0 && lock->i64(2) != 0;
        lock->reset();
    }
    return true;
}

void PgStoreBackend::page_read(Store::LeaseRun& run, const std::vector<int64_t>& page) {
    Store::LeaseRun::HeadsRead heads_q = run.send_heads(page, Store::LeaseRun::page_head_limit(run.req));
    for (QueueInfo& qi : run.m.queues.read(page)) run.queue_rows.try_emplace(qi.id, std::move(qi));
    if (heads_q.q) run.read_heads(heads_q);
}

// The FIFO's first queues read ahead with their heads (read_inactive_ahead).
std::optional<QueueInfo> PgStoreBackend::next_inactive(Store::LeaseRun& run) {
    if (run.inactive_ahead.empty() && !run.inactive_all) {
        // In partitions: those of the FIFO's next queues locked first.
        if (run.m.in_partitions)
            run.m.q(kLockFifoParts.c_str())
                .bind(1, std::clamp<int64_t>(run.left_to_take(), 1, Store::LeaseRun::kInactiveAhead))
                .exec();
        run.read_inactive_ahead();
    }
    if (run.inactive_ahead.empty()) return std::nullopt;
    QueueInfo ahead = std::move(run.inactive_ahead.front());
    run.inactive_ahead.pop_front();
    return ahead;
}

// The row as read ahead (with its heads), now active.
QueueInfo PgStoreBackend::activated(Store::LeaseRun&, QueueInfo ahead, int64_t balance) {
    ahead.state = static_cast<int>(QueueState::active);
    ahead.session_balance = balance;
    return ahead;
}

void PgStoreBackend::keep_queue_row(Store::LeaseRun& run, const QueueInfo& qi) {
    run.queue_rows.insert_or_assign(qi.id, qi);
}

void PgStoreBackend::keep_host_row(Store::LeaseRun& run, int64_t host_id, const LeaseRobotsRow& r) {
    run.hosts_ahead.insert_or_assign(host_id, r);
}

}  // namespace frontier
