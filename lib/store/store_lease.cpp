// Store::lease: picks URLs across queues in the order of frontier-lease(1)
// (lib/policy/lease_order), with politeness, robots.txt prerequisites and
// budgets (frontier(7); the decisions are lib/policy/lease_policy). This
// file reads and writes the rows those decisions need; the queues' next
// URLs are read in store_lease_heads.cpp.
//
// Queue selection never scans all queues: ready queues sit in a partial
// index ordered by (best rank, last served), sleeping ones in an index by
// wake time, inactive ones in a FIFO index.
#include <deque>
#include <unordered_map>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "net/address_guard.hpp"
#include "policy/lease_ahead.hpp"
#include "policy/lease_id.hpp"
#include "policy/lease_order.hpp"
#include "policy/lease_policy.hpp"
#include "policy/priority.hpp"
#include "web/robots.hpp"
#include "store/store.hpp"
#include "store/sql_codes.hpp"
#include "store/sql_columns.hpp"
#include "store/store_impl.hpp"
#include "store/lease_run.hpp"

namespace frontier {

namespace {

std::string_view path_of(std::string_view url) {
    auto scheme = url.find("://");
    if (scheme == std::string_view::npos) return "/";
    auto slash = url.find('/', scheme + 3);
    return slash == std::string_view::npos ? std::string_view("/") : url.substr(slash);
}

std::string_view host_of(std::string_view url) {
    size_t start = url.find("://");
    start = start == std::string_view::npos ? 0 : start + 3;
    return url.substr(start, url.find('/', start) - start);
}

}  // namespace

LeaseOutcome Store::lease(LeaseRequest& req) {
    // Settings are read inside the write transaction: a budget edit commits
    // its settings version and its queue moves together, so reading them
    // before BEGIN could pair new queue states with old budgets (and
    // re-retire a queue whose budget was just raised).
    // A bulk lease (as many URLs as a full batch of results, or more) runs
    // under the writer lock, as a full batch does: in partitions it would
    // lock a partition for each of its many queues, which costs more than
    // running beside the others saves (frontier(7), POSTGRESQL).
    begin(impl_->backend->partitions_on() && req.n < static_cast<int64_t>(records_read_together()));
    // A holder left to this lease (Store::start_holder) is recorded first,
    // in this transaction: before its first lease, and never without one.
    // On PostgreSQL its insert, BEGIN and the lock go with the first read.
    if (impl_->leases.pending_holder) impl_->leases.send_pending_holder();
    // The housekeeping scan and the settings (StoreBackend::begin_lease).
    impl_->backend->begin_lease(*this, *impl_, req);
    if (req.ttl_from_settings) req.ttl = settings().bounded_lease_ttl();
    if (impl_->leases.pending_holder) req.holder = impl_->leases.pending_holder_id();
    // The lock is held once a statement has run (PostgreSQL sends BEGIN and
    // the lock with the first one), so the clock is read again here.
    if (req.now_at_lock) req.now = impl_->now = frontier::now();
    else impl_->now = req.now;
    // A lease only takes URLs: unless its housekeeping put some back (expired
    // leases, due retries), its commit wakes no follower (a follower that
    // leased asks again at once, so what it left is taken; each one's own
    // timer covers what comes due by time: sleeping queues, lease expiries).
    if (!housekeeping(req.now)) {
        db_->commit_unnoticed();
    } else {
        impl_->drop_page_sent();  // the rows it changed may be in the page
    }
    impl_->other_hosts.clear();  // a seed added since the last call counts now
    LeaseRun run(*this, req, settings());
    run.run();
    commit();
    impl_->leases.pending_holder.reset();
    return std::move(run.out);
}

void Store::LeaseRun::run() {
    int64_t want = req.n;
    if (req.max_in_flight >= 0) want = std::min(want, req.max_in_flight - m.leases.out());
    // Alternation (lease.class-burst) only without --class, and only when
    // both classes were ever added (frontier-wide run in meta 'class_run').
    if (req.url_class.empty() && s.class_burst > 0 && classes_added()) {
        ClassRun r;
        if (m.leases.start.read) {
            if (m.leases.start.class_run) r = decode_class_run(*m.leases.start.class_run);
        } else {
            Stmt& q = m.q("SELECT value FROM meta WHERE key = 'class_run'");
            if (q.step() && !q.is_null(0)) r = decode_class_run(q.i64(0));
            q.reset();
        }
        order.alternate(r, s.class_burst);
    }
    QueueCandidate c{};
    while (static_cast<int64_t>(out.items.size()) < want) {
        LeaseOrder::Step step = order.next(c);
        if (step == LeaseOrder::Step::load_page) {
            load_page();
            continue;
        }
        if (step == LeaseOrder::Step::empty) {
            // Inactive queues are asked too (for the other class as well),
            // as the batch would activate them next anyway.
            if (activate_one() || order.stop_forcing()) continue;
            break;
        }
        if (step == LeaseOrder::Step::skip) continue;
        QueueInfo qi = queue_row(c.qid);
        if (qi.state != static_cast<int>(QueueState::active) || !qi.best) continue;
        if (retire_over_total(qi)) continue;
        const Politeness& p = s.politeness_for(qi.key);
        if (!may_lease_now(qi.in_flight, lease_cap(p), qi.wake_at, now)) {
            m.queues.reschedule(qi);
            continue;
        }
        if (!take(qi, p, order.wanted_class())) {
            if (class_missing) order.class_missing(c);
            continue;
        }
        const LeaseItem& it = out.items.back();
        int cls = it.robots ? -1 : class_code(url_class(it.type));
        bool more = qi.state == static_cast<int>(QueueState::active) && qi.best &&
                    may_lease_now(qi.in_flight, lease_cap(p), qi.wake_at, now);
        order.leased(c, cls, more, qi.best.value_or(0), qi.served);
        keep_row(qi);
    }
    if (order.run_changed())
        m.q("INSERT INTO meta(key, value) VALUES ('class_run', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
            .bind(1, encode_class_run(order.run())).exec();
    out.in_flight = m.leases.out();
    if (req.max_in_flight >= 0) out.first_expiry = m.backend->first_lease_expiry(m);
    out.more_ready = order.capped_with_more();
    if (!out.items.empty()) {
        out.status = LeaseStatus::emitted;
    } else if (want <= 0 && m.leases.start.read) {
        // --max-in-flight leases are out (another follower took the last
        // free ones): what frees one is a result, or the first lease out
        // expiring; known from the first read, no round trip more.
        out.status = LeaseStatus::not_ready;
        out.next_due = m.leases.start.first_expiry;
    } else if (contended) {
        out.status = LeaseStatus::not_ready;  // what others hold is taken by them; no reads for why
        out.contended = true;
    } else {
        explain_nothing();
    }
}

QueueInfo Store::LeaseRun::queue_row(int64_t qid) {
    if (auto k = queue_rows.find(qid); k != queue_rows.end()) return k->second;
    QueueInfo qi = m.queues.row(qid);
    keep_row(qi);
    return qi;
}

void Store::LeaseRun::keep_row(const QueueInfo& qi) { m.backend->keep_queue_row(*this, qi); }

// Keyset pagination over the ready index; (best, served) is unique
// because every queue's `served` mark is (see Impl::queue_id_for). The
// backend may read a page itself, with its queues' rows and heads
// (StoreBackend::load_page), and read ahead what a page's new queues need
// (page_read); else each is read as it is needed.
void Store::LeaseRun::load_page() {
    if (m.backend->load_page(*this)) return;
    enum class C { id, best, served };
    Stmt& q = m.q(m.held("SELECT id, best, served " SQL_READY_PAGE));
    q.bind(1, order.cursor_best()).bind(2, order.cursor_served()).bind(3, order.page_size());
    int n = 0;
    std::vector<int64_t> page;
    while (q.step()) {
        ++n;
        SqlRow<C> row(q);
        if (order.from_index(row.i64(C::id), row.dbl(C::best), row.i64(C::served)))
            page.push_back(row.i64(C::id));
    }
    q.reset();
    order.page_read(n);
    if (!page.empty()) m.backend->page_read(*this, page);
}

// The lease's fields that come from where it is leased: its queue, expiry,
// the addresses it may connect to (frontier(7), ADDRESS GUARD) and the
// crawler's name for its host (robots.user-agent: the name frontier-done
// matches robots.txt groups with; fetch sends it).
void Store::LeaseRun::stamp(LeaseItem& it, const QueueInfo& qi, int64_t hid) {
    it.queue = qi.key;
    it.expires = now + req.ttl;
    it.addresses = url_address_kinds(s.net_allow, s.net_seed_hosts && m.is_seed_host(hid));
    it.user_agent = std::string(product_token(s.politeness_for(host_of(it.url)).robots_user_agent));
    it.delay = lease_delay(s.politeness_for(qi.key));
}

// Takes the next URL (or its robots.txt prerequisite) from a queue; false
// when the queue cannot supply one now.
bool Store::LeaseRun::take(QueueInfo& qi, const Politeness& p, int cls) {
    class_missing = false;
    for (;;) {
        bool from_pre = false;
        std::optional<LeaseHead> head = next_head(qi, cls, from_pre);
        if (!head) return false;
        const RobotsRules* known_rules = nullptr;
        if (p.robots_enabled) {
            LeaseRobotsRow r = robots_row(head->hid);
            RobotsStep step = robots_step(r.state, r.at, r.retry_at, r.outstanding, now);
            if (step == RobotsStep::wait_lease) return false;
            if (step == RobotsStep::fetch_robots) {
                lease_robots(qi, r, head->hid);
                return true;
            }
            if (step == RobotsStep::hold) {  // unreachable, retry not due
                m.q("UPDATE queues SET wake_at = max(wake_at, ?) WHERE id = ?").bind(1, r.retry_at).bind(2, qi.id).exec();
                forget_row(qi.id);
                m.queues.reschedule(qi.id);
                return false;
            }
            if (step == RobotsStep::fail_url) {
                consume(qi.id, head->id, from_pre);
                end_url(head->id, qi, UrlState::failed, "robots-unreachable");
                continue;
            }
            const RobotsRules& rules = rules_for(head->hid, r);
            if (!rules.allowed(path_of(head->it.url))) {
                consume(qi.id, head->id, from_pre);
                end_url(head->id, qi, UrlState::blocked, "robots");
                continue;
            }
            // A Crawl-delay: no lease beyond max-in-flight (lib/policy/lease_ahead.hpp).
            if (!ahead_allowed(p, qi.in_flight, rules.crawl_delay())) {
                m.q("UPDATE queues SET sched = " SQL_SCHED_IDLE " WHERE id = ?").bind(1, qi.id).exec();
                forget_row(qi.id);
                return false;
            }
            if (cls < 0) known_rules = &rules;
        }
        consume(qi.id, head->id, from_pre);
        lease_url(qi, std::move(*head), known_rules);
        return true;
    }
}

// The URLs right behind a leased one in its queue that the host's
// robots.txt disallows are ended now: left queued, they would keep the
// queue (and a crawl whose last URLs they are) waiting for min-delay.
void Store::LeaseRun::end_disallowed_next(QueueInfo& qi, int64_t hid, const RobotsRules& rules) {
    for (;;) {
        bool from_pre = false;
        std::optional<LeaseHead> next = next_head(qi, -1, from_pre, false);
        if (!next || next->hid != hid || rules.allowed(path_of(next->it.url))) return;
        consume(qi.id, next->id, from_pre);
        end_url(next->id, qi, UrlState::blocked, "robots");
    }
}

void Store::LeaseRun::lease_url(QueueInfo& qi, LeaseHead head, const RobotsRules* rules) {
    LeaseItem& it = head.it;
    it.lease = format_lease(head.id, head.seq);
    stamp(it, qi, head.hid);
    // Written now, or held until the next statement (StoreBackend::write_lease):
    // the refill below reads this row leased.
    m.backend->write_lease(qi.id, key_of(head), head.seq, it.expires, req.holder);
    if (rules) end_disallowed_next(qi, head.hid, *rules);
    // The queue row after this lease, written once; after_spend may then
    // rotate or retire the queue (rare, its own write).
    qi.served = m.leases.next_served(qi.id);
    qi.in_flight += 1;
    qi.queued -= 1;
    qi.session_balance -= it.cost;
    qi.total_spend += it.cost;
    // Prefetched lists (round-trip backends) of every class give the next
    // rank; a list refilled with nothing means no due URL is left.
    if (auto pre = heads.find(qi.id); pre != heads.end() && req.url_class.empty()) {
        if (pre->second.empty()) refill(qi.id);
        qi.best = pre->second.empty() ? std::nullopt : std::optional<double>(pre->second.front().rank);
    } else {
        qi.best = m.queues.best_rank(qi.id);
    }
    m.backend->write_queue_after_lease(qi, it, now, static_cast<int64_t>(m.queues.sched_for(qi)));
    m.count("queued", -1);
    m.count("leased", 1);
    m.count("leases", 1);
    spent(qi);
    out.items.push_back(std::move(it));
}

}  // namespace frontier
