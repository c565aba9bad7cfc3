// Store::lease's robots.txt part (frontier(7), ROBOTS.TXT): the host's
// robots.txt state, and the lease of its robots.txt, the prerequisite of
// the host's URLs (the decision is lib/policy/lease_policy).
#include "policy/lease_id.hpp"
#include "store/lease_run.hpp"
#include "store/sql_columns.hpp"
#include "store/store_impl.hpp"

namespace frontier {

namespace {

// A host's robots.txt row as a lease reads it (its rules apart: see
// rules_for), with its seed flag (the address kinds of the leased URL
// need it, and this row is read anyway).
#define ROBOTS_ROW_COLUMNS(X)                                                  \
    X(id, "id")                                                                \
    X(name, "name")                                                            \
    X(state, "robots_state") X(at, "robots_at") X(retry_at, "robots_retry_at") \
        X(lease_expires, "robots_lease_expires") X(lease_seq, "robots_lease_seq") X(seed, "seed")
enum class RobotsCol { ROBOTS_ROW_COLUMNS(SQL_COLUMN_NAME) rules };
const std::string kRobotsColumns = sql_column_list({ROBOTS_ROW_COLUMNS(SQL_COLUMN_EXPR)});
#undef ROBOTS_ROW_COLUMNS
const std::string kRobotsRow = "SELECT " + kRobotsColumns + ", robots_rules FROM hosts WHERE id = ?";

}  // namespace

LeaseRobotsRow Store::LeaseRun::read_robots_row(const Stmt& st, bool with_rules) {
    using C = RobotsCol;
    SqlRow<C> row(st);
    LeaseRobotsRow r;
    r.host = row.str(C::name);
    r.state = static_cast<RobotsState>(row.i64(C::state));
    if (with_rules) r.rules = row.str(C::rules);
    r.rules_read = with_rules;
    r.at = row.opt_dbl(C::at).value_or(0);
    r.retry_at = row.opt_dbl(C::retry_at).value_or(0);
    r.outstanding = !row.is_null(C::lease_expires);
    r.next_seq = row.i64(C::lease_seq) + 1;
    return r;
}

int64_t Store::LeaseRun::robots_row_host(const Stmt& st) { return st.i64(static_cast<int>(RobotsCol::id)); }
bool Store::LeaseRun::robots_row_seed(const Stmt& st) { return !st.is_null(static_cast<int>(RobotsCol::seed)); }

const std::string& Store::LeaseRun::robots_columns() { return kRobotsColumns; }

// The host's robots.txt row: read with its page (PostgreSQL,
// read_hosts_ahead) or now, with its rules.
LeaseRobotsRow Store::LeaseRun::robots_row(int64_t hid) {
    if (auto a = hosts_ahead.find(hid); a != hosts_ahead.end()) return a->second;
    Stmt& h = m.q_unflushed(kRobotsRow.c_str());  // hosts: no held lease write changes them
    h.bind(1, hid);
    h.step();
    LeaseRobotsRow r = read_robots_row(h, true);
    m.note_seed_host(hid, !h.is_null(static_cast<int>(RobotsCol::seed)));
    h.reset();
    m.backend->keep_host_row(*this, hid, r);  // read once per call where the backend reads ahead
    return r;
}

bool Store::LeaseRun::robots_anywhere(const Settings& s) {
    if (s.politeness.robots_enabled) return true;
    for (const auto& [domain, p] : s.domain_politeness)
        if (p.robots_enabled) return true;
    return false;
}

// The rules a host's URLs are matched against: parsed from the row's text,
// or cached for the row's robots_at (a row read ahead without its text and
// no longer cached is read again).
const RobotsRules& Store::LeaseRun::rules_for(int64_t hid, const LeaseRobotsRow& r) {
    if (r.rules_read || m.robots_cached(hid, r.at)) return m.robots_rules(hid, r.at, r.rules);
    hosts_ahead.erase(hid);
    LeaseRobotsRow full = robots_row(hid);
    return m.robots_rules(hid, full.at, full.rules);
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
    qi.served = m.leases.next_served(qi.id);
    qi.in_flight += 1;
    m.q("UPDATE queues SET in_flight = in_flight + 1, served = ?, last_dequeue_at = ?, sched = ? WHERE id = ?")
        .bind(1, qi.served).bind(2, now).bind(3, static_cast<int>(m.queues.sched_for(qi))).bind(4, qi.id).exec();
    m.count("robots_leased", 1);
    if (auto a = hosts_ahead.find(hid); a != hosts_ahead.end()) {  // as the row now is
        a->second.outstanding = true;
        a->second.next_seq = r.next_seq + 1;
    }
    out.items.push_back(std::move(it));
}

}  // namespace frontier
