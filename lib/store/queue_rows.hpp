// Private to the storage module (lib/store/): queue rows as the store reads
// and reschedules them, and the lease order of their URL rows (frontier(7),
// FILE FORMAT).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "policy/lease_order.hpp"
#include "store/settings_cache.hpp"
#include "store/statements.hpp"
#include "store/store_backend.hpp"

namespace frontier {

// A URL's place in its queue's lease order (the urls_next index: rank,
// tier, tier_key, cost, id).
struct HeadKey {
    double rank = 0, tier_key = 0;
    int64_t tier = 0, cost = 0, id = 0;
};

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
    QueueRows(Statements& statements, const SettingsCache& settings, const double& now, StoreBackend& backend)
        : statements_(statements), settings_(settings), now_(now), backend_(backend) {}

    QueueInfo row(int64_t id);
    // The rows of many queues (StoreBackend::read_queues).
    std::vector<QueueInfo> read(const std::vector<int64_t>& ids) { return backend_.read_queues(*this, ids); }
    // The columns of a queue row as row() reads them (id first), and such
    // a row.
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

    // The lease order where it is kept apart from urls (frontier(7), FILE
    // FORMAT; StoreBackend::leave_lease_order, enter_lease_order): the
    // entry of URL row `id` leaves before a statement that may change its
    // state, due time or order, and enters after it if the row is queued
    // and due.
    void leave_lease_order(int64_t id) { backend_.leave_lease_order(id); }
    // The same for a URL whose place is known (a lease's head: no read of its row).
    void leave_lease_order(int64_t queue_id, const HeadKey& key) { backend_.leave_lease_order(queue_id, key); }
    void enter_lease_order(int64_t id) { backend_.enter_lease_order(id); }
    // Before a set-based update that makes queued and due every URL row
    // `rows_where` selects (a condition on urls, parameter 1: a time):
    // their entries, in one statement.
    void enter_lease_order_where(const char* rows_where, double t) {
        backend_.enter_lease_order_where(rows_where, t);
    }

private:
    Statements& statements_;
    const SettingsCache& settings_;
    const double& now_;
    StoreBackend& backend_;
};

}  // namespace frontier
