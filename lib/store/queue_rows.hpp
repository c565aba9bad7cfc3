// Private to the storage module (lib/store/): queue rows as the store reads
// and reschedules them, and the lease order of URL rows where it is kept in
// tables (frontier(7), FILE FORMAT).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "policy/lease_order.hpp"
#include "store/array_param.hpp"
#include "store/settings_cache.hpp"
#include "store/statements.hpp"

namespace frontier {

struct QueueInfo {
    int64_t id = 0;
    std::string key;
    int64_t state = 0;
    std::optional<double> best;
    double wake_at = 0;
    int64_t served = 0;
    int64_t in_flight = 0;
    int64_t queued = 0;
    int64_t session_balance = 0;
    int64_t total_spend = 0;
    int64_t n429 = 0;
};

class QueueRows {
public:
    // `now`: the store's clock for this transaction; `settings`: loaded
    // before any reschedule.
    QueueRows(Statements& statements, const SettingsCache& settings, const double& now)
        : statements_(statements), settings_(settings), now_(now) {}

    QueueInfo row(int64_t id);
    // Round-trip backends: the rows of many queues in one statement.
    std::vector<QueueInfo> read(const std::vector<int64_t>& ids);
    // ... the same sent ahead (Stmt::send), and the rows of the queues of
    // URLs (an array of URL ids) sent ahead; either then read by read_sent.
    Stmt& send(const std::vector<int64_t>& ids);
    Stmt& send_of_urls(const PgArray& url_ids);
    std::vector<QueueInfo> read_sent(Stmt& st);
    // The columns of a queue row as read_sent reads them (id first), and
    // such a row.
    static const std::string& info_columns();
    static QueueInfo read_info(const Stmt& st);

    // Recomputes and stores a queue's scheduling position; returns it. The
    // QueueInfo form takes the row as just read (no second read).
    QueueSched reschedule(int64_t queue_id);
    QueueSched reschedule(const QueueInfo& qi);
    void reschedule_each(const std::vector<int64_t>& ids);  // reschedule(id) of each
    // The scheduling position of a queue in this state (reschedule's rule).
    QueueSched sched_for(const QueueInfo& qi) const;
    // A queue's best (lowest) rank among its leasable URLs, none when empty.
    std::optional<double> best_rank(int64_t queue_id);
    void refresh_best(int64_t queue_id);
    // After a settings change: retired queues to the back of the inactive
    // FIFO; queues parked at an in-flight cap back to the indexes.
    void retire_all_to_inactive();
    void requeue_capped();

    // Where the lease order is kept in tables (SQLite; frontier(7), FILE
    // FORMAT): the entry of URL row `id`, if it has one, leaves before a
    // statement that may change its state, due time or order, and enters
    // after it if the row is queued and due (schema_def.hpp,
    // kLeaseLeaveSql, kLeaseEntrySql). No-ops on PostgreSQL (its index).
    void leave_lease_order(int64_t id);
    // The same for a URL whose entry's key is known (a lease's head: no
    // read of its row; kLeaseLeaveByKeySql).
    void leave_lease_order(int64_t queue_id, double rank, int64_t tier, double tier_key, int64_t cost,
                           int64_t id);
    void enter_lease_order(int64_t id);
    // Before a set-based update that makes queued and due every URL row
    // `rows_where` selects (a condition on urls, parameter 1: a time):
    // their entries, in one statement.
    void enter_lease_order_where(const char* rows_where, double t);

private:
    Statements& statements_;
    const SettingsCache& settings_;
    const double& now_;
};

}  // namespace frontier
