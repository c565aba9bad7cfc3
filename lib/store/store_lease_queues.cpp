// Store::lease's queue bookkeeping: budgets and rotation (frontier(7),
// BUDGETS; the decisions are lib/policy/lease_policy), URLs ended while
// leasing, the class alternation's inputs, and what a lease call that
// leased nothing says (frontier-lease(1), EXIT STATUS).
#include <iterator>

#include "policy/priority.hpp"
#include "store/lease_run.hpp"
#include "store/sql_codes.hpp"
#include "store/sql_columns.hpp"

namespace frontier {

void Store::LeaseRun::retire(int64_t qid) {
    forget_row(qid);
    int64_t seq = m.statements.meta_next("fifo_seq");
    m.q("UPDATE queues SET state = " SQL_QUEUE_RETIRED ", retired_seq = ?, inactive_seq = NULL, sched = " SQL_SCHED_IDLE " WHERE id = ?")
        .bind(1, seq).bind(2, qid).exec();
    m.count("queues_retired", 1);
}

// The next queue of the inactive FIFO becomes active (or retires, over its
// budget); false when none is inactive.
bool Store::LeaseRun::activate_one() {
    std::optional<QueueInfo> ahead = m.backend->next_inactive(*this);
    if (!ahead) return false;
    const int64_t qid = ahead->id;
    BudgetLimits b = m.settings.budget_for(ahead->key);
    if (activation(ahead->total_spend, b.replenish, b.total) == Activation::retire) {
        retire(qid);
        return true;
    }
    m.q("UPDATE queues SET state = " SQL_QUEUE_ACTIVE ", inactive_seq = NULL, session_balance = ? WHERE id = ?")
        .bind(1, b.replenish).bind(2, qid).exec();
    QueueInfo qi = m.backend->activated(*this, std::move(*ahead), b.replenish);
    keep_row(qi);
    if (m.queues.reschedule(qi) == QueueSched::ready && qi.best) order.activated(qid, *qi.best, qi.served);
    return true;
}

// After spending on a queue: retire over total budget, rotate out when the
// session balance is spent (frontier(7), BUDGETS).
void Store::LeaseRun::spent(QueueInfo& qi) {
    BudgetLimits b = m.settings.budget_for(qi.key);
    bool others = false;
    if (rotation_asks_others(qi.total_spend, qi.session_balance, b.total)) {
        // Another inactive queue: one read ahead (qi is active), or none
        // when those read were the whole FIFO; else asked.
        if (!inactive_ahead.empty() || inactive_all) {
            others = !inactive_ahead.empty();
        } else {
            Stmt& q = m.q("SELECT 1 FROM queues WHERE state = " SQL_QUEUE_INACTIVE " AND id != ? LIMIT 1");
            q.bind(1, qi.id);
            others = q.step();
            q.reset();
        }
    }
    switch (after_spend(qi.total_spend, qi.session_balance, b.replenish, b.total, others)) {
        case AfterSpend::keep: break;
        case AfterSpend::retire:
            retire(qi.id);
            qi.state = static_cast<int>(QueueState::retired);
            break;
        case AfterSpend::rotate_out: {
            int64_t seq = m.statements.meta_next("fifo_seq");
            m.q("UPDATE queues SET state = " SQL_QUEUE_INACTIVE ", inactive_seq = ?, sched = " SQL_SCHED_IDLE " WHERE id = ?")
                .bind(1, seq).bind(2, qi.id).exec();
            qi.state = static_cast<int>(QueueState::inactive);
            if (inactive_all) inactive_ahead.push_back(qi);  // the FIFO's back
            break;
        }
        case AfterSpend::refill:
            m.q("UPDATE queues SET session_balance = ? WHERE id = ?").bind(1, b.replenish).bind(2, qi.id).exec();
            qi.session_balance = b.replenish;
            break;
    }
}

// Checked at the front of the ready list, before leasing: a total budget
// lowered mid-crawl, or reached through error penalties, retires the queue
// before it spends more (frontier(7), BUDGETS).
bool Store::LeaseRun::retire_over_total(const QueueInfo& qi) {
    if (!over_total(qi.total_spend, m.settings.budget_for(qi.key).total)) return false;
    retire(qi.id);
    return true;
}

void Store::LeaseRun::end_url(int64_t id, QueueInfo& qi, UrlState state, const char* reason) {
    const int64_t qid = qi.id;
    qi.queued -= 1;
    m.queues.leave_lease_order(id);
    m.q("UPDATE urls SET state = ?, reason = ? WHERE id = ?")
        .bind(1, static_cast<int>(state)).bind(2, reason).bind(3, id).exec();
    if (state == UrlState::blocked)
        m.q("UPDATE queues SET queued = queued - 1, blocked = blocked + 1 WHERE id = ?").bind(1, qid).exec();
    else
        m.q("UPDATE queues SET queued = queued - 1, failed = failed + 1 WHERE id = ?").bind(1, qid).exec();
    m.count("queued", -1);
    m.count(url_state_name(state), 1);
}

// The heatmap counters (heat:DISCOVERY<TAB>TYPE) say which types were ever
// added: a crawl of one class neither keeps the run nor looks for the
// other class.
bool Store::LeaseRun::classes_added() {
    if (m.leases.both_classes) return true;  // counters only grow: no need to read them again
    bool seen[2] = {false, false};
    auto see = [&](std::string_view name) {
        auto tab = name.find('\t');
        std::string_view type = tab == std::string_view::npos ? std::string_view() : name.substr(tab + 1);
        seen[class_code(url_class(type))] = true;
    };
    if (m.leases.start.heat_read) {  // read with the transaction's start (PostgreSQL)
        for (const std::string& name : m.leases.start.heat) see(name);
    } else {
        Stmt& q = m.q("SELECT name FROM counters WHERE name >= 'heat:' AND name < 'heat;' AND n > 0");
        while (q.step()) see(q.text(0));
        q.reset();
    }
    m.leases.both_classes = seen[0] && seen[1];
    return m.leases.both_classes;
}

std::optional<double> Store::LeaseRun::min_of(Stmt& q) {
    std::optional<double> v;
    if (q.step() && !q.is_null(0)) v = q.dbl(0);
    q.reset();
    return v;
}

// Nothing leased: why (frontier-lease(1), EXIT STATUS), and when the next
// URL comes due. The counts that decide between "not ready" and "finished"
// (queued, leases out, queued in retired queues) are one statement, so one
// snapshot: in partitions other writers commit between statements, and a
// lease taking the last queued URLs between a read of the leases out and a
// read of the queued count would look like the end of the crawl. Every read
// is sent first (Stmt::send) and then read from the statement it was sent
// by (Impl::q would reset it and lose its result): on PostgreSQL they cost
// one round trip instead of up to six. SQLite runs each when it is stepped,
// the four times only when they are wanted.
void Store::LeaseRun::explain_nothing() {
    static const char* const kNext[] = {
        "SELECT min(wake_at) FROM queues WHERE sched = " SQL_SCHED_SLEEPING,
        "SELECT min(due_at) FROM urls WHERE due_at IS NOT NULL AND state = " SQL_URL_QUEUED,
        "SELECT min(lease_expires) FROM urls WHERE state = " SQL_URL_LEASED,
        "SELECT min(robots_lease_expires) FROM hosts WHERE robots_lease_expires IS NOT NULL"};
    Stmt& counts = m.q(
        "SELECT (SELECT coalesce(sum(queued), 0) FROM queues WHERE state >= " SQL_QUEUE_RETIRED "), "
        "(SELECT coalesce(sum(n), 0) FROM counters WHERE name = 'queued'), (" SQL_LEASES_OUT ")");
    counts.send();
    Stmt* next[std::size(kNext)];
    for (size_t i = 0; i < std::size(kNext); ++i) {
        next[i] = &m.q(kNext[i]);
        next[i]->send();
    }
    Stmt& any_due = m.q("SELECT min(due_at) FROM urls WHERE due_at IS NOT NULL");
    any_due.send();
    int64_t retired_queued = 0, queued = 0, leased = 0;
    if (counts.step()) {
        retired_queued = counts.i64(0);
        queued = counts.i64(1);
        leased = counts.i64(2);
    }
    counts.reset();
    // This transaction's own deltas (leases reclaimed by its scan).
    queued += m.totals.own("queued");
    leased += m.leases.own_out();
    out.status = empty_lease_status(queued - retired_queued + leased, retired_queued);
    std::optional<double> due;
    if (out.status != LeaseStatus::not_ready) {
        out.retired_urls = retired_queued;
        due = min_of(any_due);
    } else {
        for (Stmt* q : next) {
            std::optional<double> v = min_of(*q);
            if (v && (!due || *v < *due)) due = v;
        }
    }
    // The reads sent and not read: their results are dropped.
    for (Stmt* q : next) q->reset();
    any_due.reset();
    out.next_due = due;
}

}  // namespace frontier
