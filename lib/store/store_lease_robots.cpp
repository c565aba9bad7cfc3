// Store::lease's robots.txt part (frontier(7), ROBOTS.TXT): the host's
// robots.txt state, and the lease of its robots.txt, the prerequisite of
// the host's URLs (the decision is lib/policy/lease_policy).
#include "policy/lease_id.hpp"
#include "store/lease_run.hpp"
#include "store/sql_columns.hpp"
#include "store/store_impl.hpp"

namespace frontier {

// The host's robots.txt state; its seed flag comes with it (the address
// kinds of the leased URL need it, and this row is read anyway).
LeaseRobotsRow Store::LeaseRun::robots_row(int64_t hid) {
#define ROBOTS_ROW_COLUMNS(X)                                                                                 \
    X(name, "name") X(state, "robots_state") X(rules, "robots_rules") X(at, "robots_at")                    \
    X(retry_at, "robots_retry_at") X(lease_expires, "robots_lease_expires") X(lease_seq, "robots_lease_seq") \
    X(seed, "seed")
    enum class C { ROBOTS_ROW_COLUMNS(SQL_COLUMN_NAME) };
    static const std::string sql =
        "SELECT " + sql_column_list({ROBOTS_ROW_COLUMNS(SQL_COLUMN_EXPR)}) + " FROM hosts WHERE id = ?";
#undef ROBOTS_ROW_COLUMNS
    Stmt& h = m.q(sql.c_str());
    h.bind(1, hid);
    h.step();
    SqlRow<C> row(h);
    LeaseRobotsRow r;
    r.host = row.str(C::name);
    r.state = static_cast<RobotsState>(row.i64(C::state));
    r.rules = row.str(C::rules);
    r.at = row.opt_dbl(C::at).value_or(0);
    r.retry_at = row.opt_dbl(C::retry_at).value_or(0);
    r.outstanding = !row.is_null(C::lease_expires);
    r.next_seq = row.i64(C::lease_seq) + 1;
    m.note_seed_host(hid, !row.is_null(C::seed));
    h.reset();
    return r;
}

// Leases the host's robots.txt, the prerequisite of its URLs.
void Store::LeaseRun::lease_robots(QueueInfo& qi, const LeaseRobotsRow& r, int64_t hid) {
    LeaseItem it;
    it.url = r.host + "/robots.txt";
    it.robots = true;
    it.lease = format_lease(hid, r.next_seq, true);
    it.attempt = 1;
    stamp(it, qi, hid);
    m.q("UPDATE hosts SET robots_lease_seq = ?, robots_lease_expires = ?, robots_queue = ?, robots_holder = ? WHERE id = ?")
        .bind(1, r.next_seq).bind(2, it.expires).bind(3, qi.id).bind(4, req.holder).bind(5, hid).exec();
    qi.served = m.next_served();
    qi.in_flight += 1;
    m.q("UPDATE queues SET in_flight = in_flight + 1, served = ?, last_dequeue_at = ?, sched = ? WHERE id = ?")
        .bind(1, qi.served).bind(2, now).bind(3, static_cast<int>(m.sched_for(qi))).bind(4, qi.id).exec();
    m.count("robots_leased", 1);
    out.items.push_back(std::move(it));
}

}  // namespace frontier
