// Leases: the first read of a lease transaction, the `served` sequence and
// the count of leases out (the holders are recorded in store_holders.cpp).
#include "store/leases.hpp"
#include "store/partitions.hpp"

#include <string>

#include "core/error.hpp"
#include "store/sql_codes.hpp"

namespace frontier {

namespace {
const std::string kLeaseStart =
    "SELECT 0 AS kind, value AS n, CAST(NULL AS TEXT) AS name FROM meta WHERE key = 'settings_version' "
    "UNION ALL SELECT 1, value, NULL FROM meta WHERE key = 'serve_seq' "
    "UNION ALL SELECT 2, coalesce(sum(n), 0), NULL FROM counters WHERE name IN ('leased', 'robots_leased') "
    "UNION ALL SELECT 3, value, NULL FROM meta WHERE key = 'class_run' "
    "UNION ALL SELECT 5, count(*), NULL FROM (SELECT 1 FROM queues WHERE state = " SQL_QUEUE_INACTIVE
    " LIMIT 1) AS i "
    "UNION ALL SELECT 6, NULL, CAST(min((SELECT min(lease_expires) FROM urls WHERE state = " SQL_URL_LEASED
    "), (SELECT min(robots_lease_expires) FROM hosts WHERE robots_lease_expires IS NOT NULL)) AS TEXT)";
const std::string kLeaseStartWithHeat =
    kLeaseStart + " UNION ALL SELECT 4, n, name FROM counters WHERE name >= 'heat:' AND name < 'heat;' AND n > 0";
}  // namespace

// The first read of a lease transaction on PostgreSQL (Leases::Start):
// one statement, one round trip (with BEGIN and the lock).
int64_t Leases::read_start() {
    const bool heat = !both_classes;
    Stmt& st = statements_.q(heat ? kLeaseStartWithHeat.c_str() : kLeaseStart.c_str());
    int64_t version = 0;
    start = {};
    while (st.step()) {
        int64_t kind = st.i64(0);
        if (kind == 0) version = st.i64(1);
        else if (kind == 1) serve_seq_ = serve_seq_stored_ = st.i64(1);
        else if (kind == 2) out_stored_ = st.i64(1);
        else if (kind == 3 && !st.is_null(1)) start.class_run = st.i64(1);
        else if (kind == 4) start.heat.push_back(st.str(2));
        else if (kind == 5)
            start.inactive = st.i64(1) > 0;
        else if (kind == 6 && !st.is_null(2))
            start.first_expiry = std::stod(st.str(2));
    }
    st.reset();
    start.read = true;
    start.heat_read = heat;
    return version;
}

int64_t Leases::next_served(int64_t queue_id) {
    if (!serve_seq_) {
        Stmt& st = statements_.q("SELECT value FROM meta WHERE key = 'serve_seq'");
        if (!st.step()) throw DbError("missing meta key serve_seq");
        serve_seq_ = serve_seq_stored_ = st.i64(0);
        st.reset();
    }
    if (!in_partitions_) return ++*serve_seq_;
    *serve_seq_ = (*serve_seq_ / kQueuePartitions + 1) * kQueuePartitions + queue_partition(queue_id);
    return *serve_seq_;
}

void Leases::write_served() {
    if (!serve_seq_) return;  // read with the lease's start: written only when it moved
    if (serve_seq_ != serve_seq_stored_)
        // max: writers in partitions store theirs at once (next_served)
        statements_.q("UPDATE meta SET value = max(value, ?) WHERE key = 'serve_seq'").bind(1, *serve_seq_).exec();
    serve_seq_.reset();
}

int64_t Leases::out() {
    int64_t n;
    if (out_stored_) {
        n = *out_stored_;
    } else {
        Stmt& st = statements_.q(SQL_LEASES_OUT);
        n = st.step() ? st.i64(0) : 0;
        st.reset();
        backend_.keep_out_count(out_stored_, n);
    }
    return n + own_out();
}

std::optional<double> Leases::read_first_expiry() {
    Stmt& st = statements_.q(
        "SELECT min(e) FROM (SELECT min(lease_expires) AS e FROM urls WHERE state = " SQL_URL_LEASED
        " UNION ALL SELECT min(robots_lease_expires) FROM hosts WHERE robots_lease_expires IS NOT NULL) AS f");
    std::optional<double> at;
    if (st.step() && !st.is_null(0)) at = st.dbl(0);
    st.reset();
    return at;
}

}  // namespace frontier
