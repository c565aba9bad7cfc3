// What the two halves of the storage side of frontier-report share:
// lib/store/store_report.cpp (the summary) and lib/store/store_report_rows.cpp
// (the queue, seed and failed-URL rows). Private to lib/store/.
#pragma once

#include <functional>
#include <set>
#include <unordered_map>
#include <vector>

#include "policy/settings.hpp"
#include "report/report_data.hpp"
#include "store/db.hpp"
#include "store/lease_order_storage.hpp"
#include "store/sql_codes.hpp"

namespace frontier {

// Resets a statement when leaving scope, so no read transaction stays open
// (an open read would pin the WAL of a running crawl).
struct ResetOnExit {
    Stmt& st;
    ~ResetOnExit() { st.reset(); }
};

// Each report part (the summary; the queue rows) is read from one snapshot
// (Db::begin_snapshot).
struct ReadSnapshot {
    Db& db;
    explicit ReadSnapshot(Db& d) : db(d) { db.begin_snapshot(); }
    ~ReadSnapshot() { db.end_snapshot(); }
};

// Queue rows as listed (for_each_queue): what the queues table holds, with
// the effective budget and, when asked, robots.txt (read once, at
// construction: one pass over hosts).
class QueueRowReader {
public:
    QueueRowReader(Store& store, double now, bool with_robots);
    QueueRow read(const Stmt& st) const;
    // The rows of these queues, in this order, read 500 at a time (an id
    // missing, or whose queue is in none of `states` when some are given,
    // is skipped).
    void by_ids(const std::vector<int64_t>& ids, const std::function<void(const QueueRow&)>& row,
                const std::set<ReportState>& states = {}) const;

private:
    Store& store_;
    const Settings& settings_;
    double now_;
    std::unordered_map<int64_t, const char*> robots_;  // queue id -> its worst robots.txt status
};

// SQL conditions selecting exactly the queues of one reported state (the
// same rule as derive_report_state); ?1 is "now".
const char* state_condition(ReportState s);

// The revisited URLs queued and not waiting (the revisit section's "due
// now", with those whose due time has passed), read from the lease order
// alone (tests/unit/test_report.cpp checks its plan).
inline const char* queued_revisits_sql(const Db& db) { return db.lease_order().queued_revisits_sql(); }

}  // namespace frontier
