// Store::lease and Store::housekeeping: expired leases, due retries and
// revisits, waking queues, then picking URLs across queues in the order of
// frontier-lease(1), with politeness, robots.txt prerequisites and budgets (frontier(7)).
//
// Queue selection never scans all queues: ready queues sit in a partial
// index ordered by (best rank, last served), sleeping ones in an index by
// wake time, inactive ones in a FIFO index.
#include <deque>
#include <limits>
#include <map>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "core/error.hpp"
#include "net/address_guard.hpp"
#include "policy/lease_id.hpp"
#include "policy/lease_policy.hpp"
#include "policy/priority.hpp"
#include "web/robots.hpp"
#include "store/store.hpp"
#include "store/sql_codes.hpp"
#include "store/store_impl.hpp"

namespace frontier {

namespace {


std::string_view path_of(std::string_view url) {
    auto scheme = url.find("://");
    if (scheme == std::string_view::npos) return "/";
    auto slash = url.find('/', scheme + 3);
    return slash == std::string_view::npos ? std::string_view("/") : url.substr(slash);
}

}  // namespace

int64_t Store::reclaim_leases(double now) {
    Impl& m = *impl_;
    begin();
    refresh_settings();  // housekeeping reschedules queues by their politeness
    int64_t n = count("leased") + count("robots_leased");
    m.q("UPDATE urls SET lease_expires = ? WHERE state = " SQL_URL_LEASED " AND lease_expires > ?").bind(1, now).bind(2, now).exec();
    m.q("UPDATE hosts SET robots_lease_expires = ? WHERE robots_lease_expires > ?").bind(1, now).bind(2, now).exec();
    housekeeping(now);
    commit();
    return n;
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

void Store::housekeeping(double now) {
    Impl& m = *impl_;
    m.now = now;
    std::unordered_set<int64_t> touched;
    // Expired URL leases go back to their queues set-based: a crawl resumed
    // after a stop may find every lease of the last run expired (hundreds
    // of thousands), and per-row statements made that first call stall.
    std::unordered_map<int64_t, int64_t> expired;  // queue id -> URLs (counted here: no sorter)
    {
        Stmt& st = m.q("SELECT queue_id FROM urls WHERE state = " SQL_URL_LEASED " AND lease_expires <= ?");
        st.bind(1, now);
        while (st.step()) ++expired[st.i64(0)];
        st.reset();
    }
    if (!expired.empty()) {
        m.update_all("UPDATE urls SET state = " SQL_URL_QUEUED " WHERE state = " SQL_URL_LEASED " AND lease_expires <= ?",
                     "UPDATE OR FAIL urls SET state = " SQL_URL_QUEUED " WHERE id IN "
                     "(SELECT id FROM urls WHERE state = " SQL_URL_LEASED " AND lease_expires <= ?1 LIMIT ?2)",
                     now);
        int64_t n = 0;
        for (auto [qid, k] : expired) {
            m.q("UPDATE queues SET in_flight = max(in_flight - ?, 0), queued = queued + ? WHERE id = ?")
                .bind(1, k).bind(2, k).bind(3, qid).exec();
            n += k;
            touched.insert(qid);
        }
        m.count("leased", -n);
        m.count("queued", n);
        m.count("leases_expired", n);
    }
    std::vector<std::pair<int64_t, int64_t>> rows;
    {
        Stmt& st = m.q("SELECT id, robots_queue FROM hosts WHERE robots_lease_expires <= ?");
        st.bind(1, now);
        while (st.step()) rows.emplace_back(st.i64(0), st.i64(1));
        st.reset();
    }
    for (auto [hid, qid] : rows) {
        m.q("UPDATE hosts SET robots_lease_expires = NULL WHERE id = ?").bind(1, hid).exec();
        m.q("UPDATE queues SET in_flight = max(in_flight - 1, 0) WHERE id = ?").bind(1, qid).exec();
        m.count("robots_leased", -1);
        m.count("leases_expired", 1);
        touched.insert(qid);
    }
    // Retries and revisits that came due, likewise set-based (a revisit
    // interval can pass for a whole site at once).
    std::map<std::pair<int64_t, int64_t>, int64_t> due;  // (queue id, state) -> URLs
    {
        Stmt& st = m.q("SELECT queue_id, state FROM urls WHERE due_at <= ?");
        st.bind(1, now);
        while (st.step()) ++due[{st.i64(0), st.i64(1)}];
        st.reset();
    }
    if (!due.empty())
        m.update_all("UPDATE urls SET due_at = NULL, state = " SQL_URL_QUEUED " WHERE due_at <= ?",
                     "UPDATE OR FAIL urls SET due_at = NULL, state = " SQL_URL_QUEUED " WHERE id IN "
                     "(SELECT id FROM urls WHERE due_at <= ?1 LIMIT ?2)",
                     now);
    for (auto& [key, n] : due) {
        auto [qid, state] = key;
        if (state != static_cast<int>(UrlState::queued)) {
            m.count(url_state_name(static_cast<UrlState>(state)), -n);
            m.count("queued", n);
            if (state == static_cast<int>(UrlState::done))
                m.q("UPDATE queues SET queued = queued + ?, done = done - ? WHERE id = ?")
                    .bind(1, n).bind(2, n).bind(3, qid).exec();
            else if (state == static_cast<int>(UrlState::failed))
                m.q("UPDATE queues SET queued = queued + ?, failed = failed - ? WHERE id = ?")
                    .bind(1, n).bind(2, n).bind(3, qid).exec();
            else
                m.q("UPDATE queues SET queued = queued + ? WHERE id = ?").bind(1, n).bind(2, qid).exec();
        }
        touched.insert(qid);
    }
    for (int64_t qid : touched) {
        m.refresh_best(qid);
        m.reschedule(qid);
    }
    m.q("UPDATE queues SET sched = " SQL_SCHED_READY " WHERE sched = " SQL_SCHED_SLEEPING " AND wake_at <= ?").bind(1, now).exec();
}

LeaseOutcome Store::lease(const LeaseRequest& req) {
    Impl& m = *impl_;
    // Settings are read inside the write transaction: a budget edit commits
    // its settings version and its queue moves together, so reading them
    // before BEGIN could pair new queue states with old budgets (and
    // re-retire a queue whose budget was just raised).
    begin();
    refresh_settings();
    const Settings& s = settings();
    m.now = req.now;
    const double now = req.now;
    housekeeping(now);
    m.other_hosts.clear();  // a seed added since the last call counts now
    auto addresses_of = [&](int64_t host_id) {
        return url_address_kinds(s.net_allow, s.net_seed_hosts && m.is_seed_host(host_id));
    };
    // The crawler's name for a URL: robots.user-agent for its host, the
    // name frontier-done matches robots.txt groups with (fetch sends it).
    auto crawler_for = [&](std::string_view url) {
        size_t start = url.find("://");
        start = start == std::string_view::npos ? 0 : start + 3;
        std::string_view host = url.substr(start, url.find('/', start) - start);
        return std::string(product_token(s.politeness_for(host).robots_user_agent));
    };

    LeaseOutcome out;
    int64_t in_flight = count("leased") + count("robots_leased");
    int64_t want = req.n;
    if (req.max_in_flight >= 0) want = std::min(want, req.max_in_flight - in_flight);

    struct Cand {
        double eff;
        int64_t served;
        int64_t qid;
        bool operator>(const Cand& o) const {
            return eff != o.eff ? eff > o.eff : (served != o.served ? served > o.served : qid > o.qid);
        }
    };
    std::priority_queue<Cand, std::vector<Cand>, std::greater<Cand>> heap;
    std::unordered_map<int64_t, int64_t> taken_here;
    std::unordered_map<int64_t, int64_t>& taken = req.taken ? *req.taken : taken_here;
    std::unordered_set<int64_t> loaded;
    bool index_done = false;
    double cur_best = -1e300;
    int64_t cur_served = std::numeric_limits<int64_t>::min();

    // The next URL of a queue, in the columns read_head() expects.
#define FRONTIER_HEAD_COLUMNS                                                                         \
    "id, url, host_id, priority, depth, attempts, type, discovery, via, meta, cost, etag, "          \
    "http_last_modified, content_hash, lease_seq, rank"
    const char* next_sql_all =
        "SELECT " FRONTIER_HEAD_COLUMNS " FROM urls WHERE queue_id = ? AND state = " SQL_URL_QUEUED " AND due_at IS NULL "
        "ORDER BY rank, tier, tier_key, cost, id LIMIT 1";
    const char* next_sql_cls =
        "SELECT " FRONTIER_HEAD_COLUMNS " FROM urls WHERE queue_id = ? AND state = " SQL_URL_QUEUED " AND due_at IS NULL "
        "AND cls = ? ORDER BY rank, tier, tier_key, cost, id LIMIT 1";
    // Alternation (lease.class-burst) looks for the other class among a
    // queue's first kClassScan due URLs only, as the seed scans 64 items
    // (MAX_SCAN): a bounded index range, however long the queue.
    const char* next_sql_scan =
        "SELECT " FRONTIER_HEAD_COLUMNS " FROM (SELECT * FROM urls WHERE queue_id = ? AND state = " SQL_URL_QUEUED " "
        "AND due_at IS NULL ORDER BY rank, tier, tier_key, cost, id LIMIT 64) AS h WHERE cls = ? "
        "ORDER BY rank, tier, tier_key, cost, id LIMIT 1";
    constexpr int64_t kClassScan = 64;

    struct Head {
        int64_t id = 0, hid = 0, seq = 0;
        double rank = 0;
        LeaseItem it;
    };
    auto read_head = [](Stmt& st, int c0) {
        Head h;
        h.id = st.i64(c0);
        h.it.url = st.str(c0 + 1);
        h.hid = st.i64(c0 + 2);
        h.it.priority = st.dbl(c0 + 3);
        h.it.depth = st.i64(c0 + 4);
        h.it.attempt = st.i64(c0 + 5) + 1;
        h.it.type = st.str(c0 + 6);
        h.it.discovery = st.str(c0 + 7);
        h.it.via = st.str(c0 + 8);
        h.it.meta = st.str(c0 + 9);
        h.it.cost = st.i64(c0 + 10);
        if (!st.is_null(c0 + 11)) h.it.etag = st.str(c0 + 11);
        if (!st.is_null(c0 + 12)) h.it.http_last_modified = st.str(c0 + 12);
        if (!st.is_null(c0 + 13)) h.it.content_hash = st.str(c0 + 13);
        h.seq = st.i64(c0 + 14) + 1;
        h.rank = st.dbl(c0 + 15);
        return h;
    };

    // PostgreSQL: the heads of every queue of a loaded page of the ready
    // index, in one set-based query (a LATERAL join over the queue ids,
    // each side an index range scan) instead of a round trip per URL. Under
    // the writer lock only this lease changes these queues' URLs, so a
    // prefetched list stays exact; when one runs out, take() asks again.
    std::unordered_map<int64_t, std::deque<Head>> heads;
    const int64_t prefetch_per_queue = std::min<int64_t>(std::max<int64_t>(req.per_queue, 1), 8) + 1;
    auto prefetch = [&](const std::vector<int64_t>& qids) {
        if (!m.db.postgres() || qids.empty()) return;
        std::string arr = "{";
        for (size_t i = 0; i < qids.size(); ++i) arr += (i ? "," : "") + std::to_string(qids[i]);
        arr += "}";
        Stmt& st = m.q(req.url_class.empty()
                           ? "SELECT q.qid, u.* FROM unnest(CAST(? AS bigint[])) AS q(qid) CROSS JOIN LATERAL "
                             "(SELECT " FRONTIER_HEAD_COLUMNS " FROM urls WHERE queue_id = q.qid AND state = " SQL_URL_QUEUED " "
                             "AND due_at IS NULL ORDER BY rank, tier, tier_key, cost, id LIMIT ?) u"
                           : "SELECT q.qid, u.* FROM unnest(CAST(? AS bigint[])) AS q(qid) CROSS JOIN LATERAL "
                             "(SELECT " FRONTIER_HEAD_COLUMNS " FROM urls WHERE queue_id = q.qid AND state = " SQL_URL_QUEUED " "
                             "AND due_at IS NULL AND cls = ? ORDER BY rank, tier, tier_key, cost, id LIMIT ?) u");
        st.bind(1, arr);
        if (req.url_class.empty()) {
            st.bind(2, prefetch_per_queue);
        } else {
            st.bind(2, req.url_class == "acquisition" ? 1 : 0);
            st.bind(3, prefetch_per_queue);
        }
        while (st.step()) heads[st.i64(0)].push_back(read_head(st, 1));
        st.reset();
    };
#undef FRONTIER_HEAD_COLUMNS

    // Keyset pagination over the ready index; (best, served) is unique
    // because every queue's `served` mark is (see Impl::queue_id_for).
    auto load_page = [&] {
        Stmt& st = m.q("SELECT id, best, served FROM queues WHERE sched = " SQL_SCHED_READY " AND (best, served) > (?, ?) "
                       "ORDER BY best, served LIMIT 256");
        st.bind(1, cur_best).bind(2, cur_served);
        int n = 0;
        std::vector<int64_t> page;
        while (st.step()) {
            ++n;
            cur_best = st.dbl(1);
            cur_served = st.i64(2);
            if (loaded.insert(st.i64(0)).second) {
                heap.push({st.dbl(1), st.i64(2), st.i64(0)});
                page.push_back(st.i64(0));
            }
        }
        st.reset();
        if (n < 256) index_done = true;
        prefetch(page);
    };

    auto retire = [&](int64_t qid) {
        int64_t seq = m.meta_next("fifo_seq");
        m.q("UPDATE queues SET state = " SQL_QUEUE_RETIRED ", retired_seq = ?, inactive_seq = NULL, sched = " SQL_SCHED_IDLE " WHERE id = ?")
            .bind(1, seq).bind(2, qid).exec();
        m.count("queues_retired", 1);
    };

    auto activate_one = [&]() -> bool {
        Stmt& st = m.q("SELECT id, key, total_spend FROM queues WHERE state = " SQL_QUEUE_INACTIVE " ORDER BY inactive_seq LIMIT 1");
        if (!st.step()) {
            st.reset();
            return false;
        }
        int64_t qid = st.i64(0);
        std::string key = st.str(1);
        int64_t spend = st.i64(2);
        st.reset();
        BudgetLimits b = m.budget_for(key);
        if (activation(spend, b.replenish, b.total) == Activation::retire) {
            retire(qid);
            return true;
        }
        m.q("UPDATE queues SET state = " SQL_QUEUE_ACTIVE ", inactive_seq = NULL, session_balance = ? WHERE id = ?")
            .bind(1, b.replenish).bind(2, qid).exec();
        QueueInfo qi = m.queue(qid);
        bool ready = m.reschedule(qi) == QueueSched::ready;
        // An inactive queue is never in the heap, so it is pushed even when
        // this call already leased from it before rotating it out: with
        // --per-queue above 1 the rotation goes on within one call.
        if (ready && qi.best) {
            loaded.insert(qid);
            auto k = taken.find(qid);
            double discount = k == taken.end() ? 0 : req.host_discount * static_cast<double>(k->second);
            heap.push({*qi.best + discount, qi.served, qid});
        }
        return true;
    };

    // After spending on a queue: retire over total budget, rotate out when
    // the session balance is spent (frontier(7), BUDGETS).
    auto spent = [&](QueueInfo& qi) {
        BudgetLimits b = m.budget_for(qi.key);
        bool others = false;
        if (qi.session_balance <= 0 && !over_total(qi.total_spend, b.total)) {
            Stmt& st = m.q("SELECT 1 FROM queues WHERE state = " SQL_QUEUE_INACTIVE " AND id != ? LIMIT 1");
            st.bind(1, qi.id);
            others = st.step();
            st.reset();
        }
        switch (after_spend(qi.total_spend, qi.session_balance, b.replenish, b.total, others)) {
            case AfterSpend::keep: break;
            case AfterSpend::retire:
                retire(qi.id);
                qi.state = static_cast<int>(QueueState::retired);
                break;
            case AfterSpend::rotate_out: {
                int64_t seq = m.meta_next("fifo_seq");
                m.q("UPDATE queues SET state = " SQL_QUEUE_INACTIVE ", inactive_seq = ?, sched = " SQL_SCHED_IDLE " WHERE id = ?")
                    .bind(1, seq).bind(2, qi.id).exec();
                qi.state = static_cast<int>(QueueState::inactive);
                break;
            }
            case AfterSpend::refill:
                m.q("UPDATE queues SET session_balance = ? WHERE id = ?").bind(1, b.replenish).bind(2, qi.id).exec();
                qi.session_balance = b.replenish;
                break;
        }
    };

    // Checked at the front of the ready list, before leasing: a total budget
    // lowered mid-crawl, or reached through error penalties, retires the
    // queue before it spends more (frontier(7), BUDGETS).
    auto retire_over_total = [&](const QueueInfo& qi) -> bool {
        if (!over_total(qi.total_spend, m.budget_for(qi.key).total)) return false;
        retire(qi.id);
        return true;
    };

    auto end_url = [&](int64_t id, int64_t qid, UrlState st, const char* reason) {
        m.q("UPDATE urls SET state = ?, reason = ? WHERE id = ?")
            .bind(1, static_cast<int>(st)).bind(2, reason).bind(3, id).exec();
        if (st == UrlState::blocked)
            m.q("UPDATE queues SET queued = queued - 1, blocked = blocked + 1 WHERE id = ?").bind(1, qid).exec();
        else
            m.q("UPDATE queues SET queued = queued - 1, failed = failed + 1 WHERE id = ?").bind(1, qid).exec();
        m.count("queued", -1);
        m.count(url_state_name(st), 1);
    };


    // Takes the next URL (or robots.txt prerequisite) from a queue; false
    // when the queue cannot supply one now.
    // `cls` >= 0: only a URL of that class (alternation); when the queue's
    // first due URLs have none, `class_missing` is set and nothing changes.
    bool class_missing = false;
    auto take = [&](QueueInfo& qi, const Politeness& p, int cls) -> bool {
        class_missing = false;
        for (;;) {
            Head head;
            auto pre = heads.find(qi.id);
            // The prefetched heads are of every class: alternation reads
            // its own and takes the leased URL out of the list.
            bool from_pre = cls < 0 && pre != heads.end() && !pre->second.empty();
            // A prefetched head leaves its list only once its URL is leased
            // or ended; a robots.txt prerequisite or a held host keeps it.
            auto consume = [&] {
                if (from_pre) {
                    pre->second.pop_front();
                } else if (pre != heads.end()) {
                    auto& l = pre->second;
                    for (auto i = l.begin(); i != l.end(); ++i)
                        if (i->id == head.id) {
                            l.erase(i);
                            break;
                        }
                }
            };
            if (from_pre) {
                head = pre->second.front();
            } else {
                Stmt& st = m.q(cls >= 0 ? next_sql_scan : req.url_class.empty() ? next_sql_all : next_sql_cls);
                st.bind(1, qi.id);
                if (cls >= 0) st.bind(2, cls);
                else if (!req.url_class.empty()) st.bind(2, req.url_class == "acquisition" ? 1 : 0);
                if (!st.step()) {
                    st.reset();
                    if (cls >= 0) {
                        class_missing = true;
                        return false;
                    }
                    m.refresh_best(qi.id);
                    m.reschedule(qi.id);
                    return false;
                }
                head = read_head(st, 0);
                st.reset();
            }
            LeaseItem it = std::move(head.it);
            int64_t id = head.id;
            int64_t hid = head.hid;
            int64_t seq = head.seq;

            if (p.robots_enabled) {
                // The host's seed flag comes with its robots.txt state: the
                // address kinds below need it, and this row is read anyway.
                Stmt& h = m.q("SELECT name, robots_state, robots_rules, robots_at, robots_retry_at, "
                              "robots_lease_expires, robots_lease_seq, seed FROM hosts WHERE id = ?");
                h.bind(1, hid);
                h.step();
                std::string host = h.str(0);
                int64_t rstate = h.i64(1);
                std::string rules = h.str(2);
                double rat = h.is_null(3) ? 0 : h.dbl(3);
                double retry_at = h.is_null(4) ? 0 : h.dbl(4);
                bool outstanding = !h.is_null(5);
                int64_t rseq = h.i64(6) + 1;
                m.note_seed_host(hid, !h.is_null(7));
                h.reset();
                RobotsStep step = robots_step(static_cast<RobotsState>(rstate), rat, retry_at, outstanding, now);
                if (step == RobotsStep::wait_lease) return false;
                if (step == RobotsStep::fetch_robots) {
                    LeaseItem r;
                    r.url = host + "/robots.txt";
                    r.robots = true;
                    r.lease = format_lease(hid, rseq, true);
                    r.queue = qi.key;
                    r.attempt = 1;
                    r.expires = now + req.ttl;
                    r.addresses = addresses_of(hid);
                    r.user_agent = crawler_for(r.url);
                    m.q("UPDATE hosts SET robots_lease_seq = ?, robots_lease_expires = ?, robots_queue = ? WHERE id = ?")
                        .bind(1, rseq).bind(2, r.expires).bind(3, qi.id).bind(4, hid).exec();
                    qi.served = m.next_served();
                    qi.in_flight += 1;
                    m.q("UPDATE queues SET in_flight = in_flight + 1, served = ?, last_dequeue_at = ?, sched = ? "
                        "WHERE id = ?")
                        .bind(1, qi.served).bind(2, now).bind(3, static_cast<int>(m.sched_for(qi))).bind(4, qi.id).exec();
                    m.count("robots_leased", 1);
                    out.items.push_back(std::move(r));
                    return true;
                }
                if (step == RobotsStep::hold) {  // unreachable, retry not due
                    m.q("UPDATE queues SET wake_at = max(wake_at, ?) WHERE id = ?").bind(1, retry_at).bind(2, qi.id).exec();
                    m.reschedule(qi.id);
                    return false;
                }
                if (step == RobotsStep::fail_url) {
                    consume();
                    end_url(id, qi.id, UrlState::failed, "robots-unreachable");
                    continue;
                }
                if (!m.robots_rules(hid, rules).allowed(path_of(it.url))) {
                    consume();
                    end_url(id, qi.id, UrlState::blocked, "robots");
                    continue;
                }
            }
            consume();
            it.lease = format_lease(id, seq);
            it.queue = qi.key;
            it.expires = now + req.ttl;
            it.addresses = addresses_of(hid);
            it.user_agent = crawler_for(it.url);
            m.q("UPDATE urls SET state = " SQL_URL_LEASED ", lease_seq = ?, attempts = attempts + 1, lease_expires = ? WHERE id = ?")
                .bind(1, seq).bind(2, it.expires).bind(3, id).exec();
            // The queue row after this lease, written once; after_spend
            // may then rotate or retire the queue (rare, its own write).
            qi.served = m.next_served();
            qi.in_flight += 1;
            qi.queued -= 1;
            qi.session_balance -= it.cost;
            qi.total_spend += it.cost;
            if (pre != heads.end() && !pre->second.empty() && req.url_class.empty())
                qi.best = pre->second.front().rank;  // the prefetched next head
            else
                qi.best = m.best_rank(qi.id);
            m.q("UPDATE queues SET in_flight = in_flight + 1, queued = queued - 1, served = ?1, last_dequeue_at = ?2, "
                "last_peek_url = ?3, session_balance = session_balance - ?4, total_spend = total_spend + ?4, "
                "last_cost = ?4, cost_count = cost_count + 1, best = ?5, sched = ?6 WHERE id = ?7")
                .bind(1, qi.served).bind(2, now).bind(3, it.url).bind(4, it.cost).bind(5, qi.best)
                .bind(6, static_cast<int>(m.sched_for(qi))).bind(7, qi.id).exec();
            m.count("queued", -1);
            m.count("leased", 1);
            m.count("leases", 1);
            spent(qi);
            out.items.push_back(std::move(it));
            return true;
        }
    };

    // Alternation between the URL classes (lease.class-burst; frontier(7),
    // URL STATES): only without --class. The run of one class in a row is
    // frontier-wide, in the meta row 'class_run'. While it is at the burst
    // limit, queues are asked for a URL of the other class; those without
    // one wait in `deferred` until such a URL is leased, or until
    // kClassScan queues had none or none is left, inactive ones included
    // (then the batch goes on in priority order: the other class has no
    // work ready).
    // The heatmap counters (heat:DISCOVERY<TAB>TYPE) say which types were
    // ever added: a crawl of one class neither keeps the run nor looks for
    // the other class.
    auto classes_added = [&] {
        bool seen[2] = {false, false};
        Stmt& st = m.q("SELECT name FROM counters WHERE name >= 'heat:' AND name < 'heat;' AND n > 0");
        while (st.step()) {
            std::string name = st.str(0);
            auto tab = name.find('\t');
            std::string_view type = tab == std::string::npos ? std::string_view() : std::string_view(name).substr(tab + 1);
            seen[url_class(type) == "acquisition" ? 1 : 0] = true;
        }
        st.reset();
        return seen[0] && seen[1];
    };
    const bool alternate = req.url_class.empty() && s.class_burst > 0 && classes_added();
    ClassRun run;
    bool run_changed = false;
    if (alternate) {
        Stmt& st = m.q("SELECT value FROM meta WHERE key = 'class_run'");
        if (st.step() && !st.is_null(0)) run = decode_class_run(st.i64(0));
        st.reset();
    }
    bool force_off = false;
    int64_t force_misses = 0;
    std::vector<Cand> deferred;
    auto give_up_forcing = [&] {
        force_off = true;
        for (const Cand& d : deferred) heap.push(d);
        deferred.clear();
    };

    while (static_cast<int64_t>(out.items.size()) < want) {
        int want_cls = -1;
        if (alternate && !force_off) {
            want_cls = forced_class(run, s.class_burst);
        }
        // Load the next page while an unloaded queue could come first: its
        // (best, served) is past the last loaded one, so compare both.
        if (!index_done && (heap.empty() || heap.top().eff > cur_best ||
                            (heap.top().eff == cur_best && heap.top().served > cur_served))) {
            load_page();
            continue;
        }
        if (heap.empty()) {
            // Inactive queues are asked for the other class too, as the
            // batch would activate them next anyway.
            if (activate_one()) continue;
            if (want_cls >= 0 && !deferred.empty()) {
                give_up_forcing();
                continue;
            }
            break;
        }
        Cand c = heap.top();
        heap.pop();
        int64_t& k = taken[c.qid];
        if (k >= req.per_queue) continue;
        QueueInfo qi = m.queue(c.qid);
        if (qi.state != static_cast<int>(QueueState::active) || !qi.best) continue;
        if (retire_over_total(qi)) continue;
        const Politeness& p = s.politeness_for(qi.key);
        if (qi.in_flight >= p.max_in_flight || qi.wake_at > now) {
            m.reschedule(qi);
            continue;
        }
        size_t before = out.items.size();
        if (!take(qi, p, want_cls)) {
            if (class_missing) {
                deferred.push_back(c);
                if (++force_misses >= kClassScan) give_up_forcing();
            }
            continue;
        }
        if (alternate && !out.items.back().robots && out.items.size() > before) {
            int cls = url_class(out.items.back().type) == "acquisition" ? kClassAcquisition : kClassDiscovery;
            run = after_class_lease(run, cls);
            run_changed = true;
            if (cls == want_cls) {  // the other class had work: the deferred queues compete again
                for (const Cand& d : deferred) heap.push(d);
                deferred.clear();
                force_misses = 0;
            }
        }
        ++k;
        if (k < req.per_queue && qi.state == static_cast<int>(QueueState::active) && qi.best &&
            qi.in_flight < p.max_in_flight && qi.wake_at <= now)
            heap.push({*qi.best + req.host_discount * static_cast<double>(k), qi.served, c.qid});
    }

    if (run_changed)
        m.q("INSERT INTO meta(key, value) VALUES ('class_run', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
            .bind(1, encode_class_run(run)).exec();

    in_flight = count("leased") + count("robots_leased");
    out.in_flight = in_flight;
    if (!out.items.empty()) {
        out.status = LeaseStatus::emitted;
    } else {
        Stmt& rq = m.q("SELECT coalesce(sum(queued), 0) FROM queues WHERE state >= " SQL_QUEUE_RETIRED);
        rq.step();
        int64_t retired_queued = rq.i64(0);
        rq.reset();
        int64_t work = count("queued") - retired_queued + in_flight;
        auto min_of = [&](const char* sql) -> std::optional<double> {
            Stmt& st = m.q(sql);
            std::optional<double> v;
            if (st.step() && !st.is_null(0)) v = st.dbl(0);
            st.reset();
            return v;
        };
        auto earliest = [](std::optional<double> a, std::optional<double> b) {
            if (!a) return b;
            if (!b) return a;
            return std::optional<double>(std::min(*a, *b));
        };
        if (work > 0) {
            out.status = LeaseStatus::not_ready;
            std::optional<double> next = min_of("SELECT min(wake_at) FROM queues WHERE sched = " SQL_SCHED_SLEEPING);
            next = earliest(next, min_of("SELECT min(due_at) FROM urls WHERE due_at IS NOT NULL AND state = " SQL_URL_QUEUED));
            next = earliest(next, min_of("SELECT min(lease_expires) FROM urls WHERE state = " SQL_URL_LEASED));
            next = earliest(next, min_of("SELECT min(robots_lease_expires) FROM hosts WHERE robots_lease_expires IS NOT NULL"));
            out.next_due = next;
        } else {
            out.status = retired_queued > 0 ? LeaseStatus::paused : LeaseStatus::finished;
            out.retired_urls = retired_queued;
            out.next_due = min_of("SELECT min(due_at) FROM urls WHERE due_at IS NOT NULL");
        }
    }
    commit();
    return out;
}

}  // namespace frontier
