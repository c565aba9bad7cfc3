// Private to the storage module (lib/store/): what a transaction knows of
// the leases out (frontier(7), LEASES): the holder a lease is to record,
// what a lease transaction read first, the `served` sequence, and the
// count of leases out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/process_group.hpp"
#include "store/statements.hpp"
#include "store/store_backend.hpp"
#include "store/totals.hpp"

namespace frontier {

// The stored count of leases out (URLs and robots.txt).
#define SQL_LEASES_OUT "SELECT coalesce(sum(n), 0) FROM counters WHERE name IN ('leased', 'robots_leased')"

class Leases {
public:
    // `totals`: this transaction's counter deltas, added to the leases out.
    Leases(Statements& statements, Totals& totals, StoreBackend& backend)
        : statements_(statements), totals_(totals), backend_(backend) {}

    // A lease holder that Store::start_holder left to the next lease to
    // record (`me`, and the time of its start); recorded inside that
    // lease's transaction.
    std::optional<std::pair<GroupRecord, double>> pending_holder;
    // Sends the insert of the pending holder (its id read by
    // pending_holder_id once the next read brought it; store_holders.cpp).
    void send_pending_holder();
    int64_t pending_holder_id();

    // What a lease transaction reads first, on PostgreSQL in one statement
    // with the settings version (read_start): the serve_seq mark and the
    // leases out, the heat counters' names (until both classes were seen),
    // meta 'class_run', whether any queue is inactive and when the first
    // lease out expires. Valid in that transaction only.
    struct Start {
        bool read = false;
        bool heat_read = false;
        std::vector<std::string> heat;
        std::optional<int64_t> class_run;
        bool inactive = true;  // some queue is inactive (read false: none)
        std::optional<double> first_expiry;  // of the URL and robots.txt leases out
    } start;
    // Reads them; returns the stored settings version.
    int64_t read_start();
    // Both URL classes were ever added (LeaseRun::classes_added); once true, stays so.
    bool both_classes = false;

    // The next `served` mark (meta serve_seq): counted in memory during a
    // transaction (the write lock is held) and stored by write_served;
    // `queue_id`: the queue served. In a transaction of partitions,
    // writers run at once from the same stored mark: each mark is then the
    // next multiple of kQueuePartitions plus the queue's partition, which
    // no other writer holds, so no two queues get the same one.
    int64_t next_served(int64_t queue_id);
    void write_served();  // only when it moved

    // Leases out now (counters leased + robots_leased), in one read. In a
    // write transaction the backend may keep the stored sum it read
    // (StoreBackend::keep_out_count: no other writer can change it while
    // the lock is held), the transaction's own deltas added to it.
    int64_t out();
    // When the first URL or robots.txt lease out expires (none: nullopt),
    // in one read (Start::first_expiry comes with the first read instead).
    std::optional<double> read_first_expiry();
    // This transaction's own change of the leases out.
    int64_t own_out() const { return totals_.delta("leased") + totals_.delta("robots_leased"); }
    // Forgets that stored sum (a new transaction, a flush of the counters).
    void forget_out() { out_stored_.reset(); }

    // A new transaction: nothing read yet.
    void begin(bool in_partitions = false) {
        in_partitions_ = in_partitions;
        out_stored_.reset();
        start = {};
    }
    // A rollback: nothing read, nothing counted.
    void clear() {
        begin();
        serve_seq_.reset();
    }

private:
    Statements& statements_;
    Totals& totals_;
    bool in_partitions_ = false;  // this transaction runs in partitions (next_served)
    Stmt* holder_insert_ = nullptr;  // sent by send_pending_holder (q() would reset it)
    StoreBackend& backend_;
    std::optional<int64_t> out_stored_;
    std::optional<int64_t> serve_seq_;
    std::optional<int64_t> serve_seq_stored_;  // as read: write_served writes serve_seq only when it moved
};

}  // namespace frontier
