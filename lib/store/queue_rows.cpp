// QueueRows: queue rows read and rescheduled, and the moves between queue
// states after a settings change.
#include "store/queue_rows.hpp"

#include "policy/lease_ahead.hpp"
#include "store/sql_codes.hpp"
#include "store/sql_columns.hpp"

namespace frontier {

namespace {

// The queue columns a reschedule reads, and the row read from them.
#define QUEUE_INFO_COLUMNS(X)                                                                                  \
    X(id, "id") X(key, "key") X(state, "state") X(best, "best") X(wake_at, "wake_at") X(served, "served")    \
    X(in_flight, "in_flight") X(queued, "queued") X(session_balance, "session_balance")                    \
    X(total_spend, "total_spend") X(n429, "n429")
enum class QueueInfoCol { QUEUE_INFO_COLUMNS(SQL_COLUMN_NAME) };
const std::string kQueueInfo = sql_column_list({QUEUE_INFO_COLUMNS(SQL_COLUMN_EXPR)});
#undef QUEUE_INFO_COLUMNS
const std::string kQueueRow = "SELECT " + kQueueInfo + " FROM queues WHERE id = ?";

QueueInfo queue_info(const Stmt& st) {
    using C = QueueInfoCol;
    SqlRow<C> row(st);
    QueueInfo qi;
    qi.id = row.i64(C::id);
    qi.key = row.str(C::key);
    qi.state = row.i64(C::state);
    qi.best = row.opt_dbl(C::best);
    qi.wake_at = row.dbl(C::wake_at);
    qi.served = row.i64(C::served);
    qi.in_flight = row.i64(C::in_flight);
    qi.queued = row.i64(C::queued);
    qi.session_balance = row.i64(C::session_balance);
    qi.total_spend = row.i64(C::total_spend);
    qi.n429 = row.i64(C::n429);
    return qi;
}

}  // namespace

const std::string& QueueRows::info_columns() { return kQueueInfo; }
QueueInfo QueueRows::read_info(const Stmt& st) { return queue_info(st); }

// ---------------------------------------------------------------- queues

QueueInfo QueueRows::row(int64_t id) {
    Stmt& st = statements_.q(kQueueRow.c_str());
    st.bind(1, id);
    QueueInfo qi;
    if (st.step()) qi = read_info(st);
    st.reset();
    return qi;
}

QueueSched QueueRows::sched_for(const QueueInfo& qi) const {
    return queue_sched(qi.state == static_cast<int>(QueueState::active), qi.best.has_value(), qi.in_flight,
                       lease_cap(settings_.loaded->politeness_for(qi.key)), qi.wake_at, now_);
}

QueueSched QueueRows::reschedule(int64_t id) { return reschedule(row(id)); }

void QueueRows::reschedule_each(const std::vector<int64_t>& ids) {
    for (const QueueInfo& qi : read(ids)) reschedule(qi);
}

QueueSched QueueRows::reschedule(const QueueInfo& qi) {
    QueueSched s = sched_for(qi);
    statements_.q("UPDATE queues SET sched = ? WHERE id = ? AND sched != ?")
        .bind(1, static_cast<int>(s)).bind(2, qi.id).bind(3, static_cast<int>(s)).exec();
    return s;
}

std::optional<double> QueueRows::best_rank(int64_t id) {
    Stmt& st = statements_.q(backend_.best_rank_sql());
    st.bind(1, id);
    std::optional<double> best;
    if (st.step()) best = st.dbl(0);
    st.reset();
    return best;
}

void QueueRows::refresh_best(int64_t id) {
    statements_.q("UPDATE queues SET best = ? WHERE id = ?").bind(1, best_rank(id)).bind(2, id).exec();
}

void QueueRows::requeue_capped() {
    // A politeness change may lift an in-flight cap: queues parked at their
    // old cap go back to the ready / wake indexes, and the next lease
    // decision re-checks them against the new values.
    statements_.q("UPDATE queues SET sched = CASE WHEN wake_at > ? THEN 1 ELSE 0 END "
      "WHERE state = " SQL_QUEUE_ACTIVE " AND best IS NOT NULL AND sched = " SQL_SCHED_IDLE " AND in_flight > 0")
        .bind(1, now_).exec();
}

void QueueRows::retire_all_to_inactive() {
    // frontier(7), BUDGETS: any settings change moves retired queues (not those retired
    // by hand) to the back of the inactive FIFO, in the order they retired.
    std::vector<int64_t> ids;
    Stmt& st = statements_.q("SELECT id FROM queues WHERE state = " SQL_QUEUE_RETIRED " ORDER BY retired_seq");
    while (st.step()) ids.push_back(st.i64(0));
    for (int64_t id : ids) {
        int64_t seq = statements_.meta_next("fifo_seq");
        statements_.q("UPDATE queues SET state = " SQL_QUEUE_INACTIVE ", inactive_seq = ?, retired_seq = NULL, sched = " SQL_SCHED_IDLE " WHERE id = ?")
            .bind(1, seq).bind(2, id).exec();
    }
}

}  // namespace frontier
