// Store::finish: one fetch result applied to the frontier (frontier-done(1); frontier(7), RECRAWL).
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "policy/lease_id.hpp"
#include "policy/lease_policy.hpp"
#include "policy/outcome.hpp"
#include "policy/recrawl.hpp"
#include "report/crawl_stats.hpp"
#include "store/store.hpp"
#include "store/sql_codes.hpp"
#include "store/sql_columns.hpp"
#include "store/store_impl.hpp"

namespace frontier {

namespace {

std::string result_class(const FetchFacts& f) {
    if (!f.error_class.empty()) return "result:err:" + f.error_class;
    if (f.status >= 100 && f.status < 600) return "result:" + std::to_string(f.status / 100) + "xx";
    return "result:err:other";
}

}  // namespace

namespace {

// A lease id that matches no lease: rejected when malformed, stale when
// well formed but unknown (frontier-done(1), RESULTS).
bool unmatched_lease(LeaseId how, const FetchFacts& f, DoneOutcome& o) {
    if (how == LeaseId::bad) {
        o.result = "rejected";
        o.reason = "bad-lease";
        return true;
    }
    if (how == LeaseId::unknown) {
        o.url = f.url;
        return true;
    }
    return false;
}

// The columns of a URL row a result needs.
#define LEASED_COLUMNS(X)                                                                                     \
    X(url, "url") X(queue_id, "queue_id") X(host_id, "host_id") X(state, "state") X(lease_seq, "lease_seq") \
    X(lease_expires, "lease_expires") X(due_at, "due_at") X(depth, "depth") X(recrawl, "recrawl")         \
    X(retries, "retries") X(failures, "failures") X(content_hash, "content_hash") X(interval, "interval") \
    X(visits, "visits") X(successes, "successes") X(changes, "changes") X(last_modified, "last_modified") \
    X(last_success, "last_success") X(next_visit, "next_visit") X(etag, "etag")                           \
    X(http_last_modified, "http_last_modified") X(first_success, "first_success") X(tier, "tier")          \
    X(tier_key, "tier_key") X(id, "id")
enum class LeasedCol { LEASED_COLUMNS(SQL_COLUMN_NAME) };
const std::string kLeased = sql_column_list({LEASED_COLUMNS(SQL_COLUMN_EXPR)});
#undef LEASED_COLUMNS
const std::string kLeasedRow = "SELECT " + kLeased + " FROM urls WHERE id = ?";

}  // namespace

const std::string& leased_row_columns() { return kLeased; }

LeasedRow read_leased_row(const Stmt& st) {
    using C = LeasedCol;
    SqlRow<C> row(st);
    LeasedRow r;
    r.url = row.str(C::url);
    r.queue_id = row.i64(C::queue_id);
    r.host_id = row.i64(C::host_id);
    r.state = row.i64(C::state);
    r.lease_seq = row.i64(C::lease_seq);
    r.expiry_set = !row.is_null(C::lease_expires);
    r.due_set = !row.is_null(C::due_at);
    r.depth = row.i64(C::depth);
    UrlHistory& h = r.history;
    h.recrawl = row.i64(C::recrawl) != 0;
    h.retries = row.i64(C::retries);
    h.failures = row.i64(C::failures);
    if (!row.is_null(C::content_hash)) h.content_hash = row.str(C::content_hash);
    h.interval = row.opt_dbl(C::interval);
    h.visits = row.i64(C::visits);
    h.successes = row.i64(C::successes);
    h.changes = row.i64(C::changes);
    h.last_modified = row.opt_dbl(C::last_modified);
    h.last_success = row.opt_dbl(C::last_success);
    h.next_visit = row.opt_dbl(C::next_visit);
    if (!row.is_null(C::etag)) h.etag = row.str(C::etag);
    if (!row.is_null(C::http_last_modified)) h.http_last_modified = row.str(C::http_last_modified);
    h.first_success = row.opt_dbl(C::first_success);
    h.fork = fork_tier(static_cast<int>(row.i64(C::tier)), row.dbl(C::tier_key));
    return r;
}

int64_t leased_row_id(const Stmt& st) { return SqlRow<LeasedCol>(st).i64(LeasedCol::id); }

namespace {

// The URL row after a result: what url_outcome decided, and the fetch's facts.
UrlUpdate url_update(int64_t id, const UrlOutcome& uo, const FetchFacts& f, double now) {
    const UrlHistory& a = uo.after;
    UrlUpdate u;
    u.id = id;
    u.state = static_cast<int>(uo.state);
    u.due = uo.due;
    if (!uo.reason.empty()) u.reason = uo.reason;
    if (f.has_status) u.status = f.status;
    if (!f.error_class.empty()) u.error_class = f.error_class;
    u.fetched_at = f.fetched_at.value_or(now);
    u.etag = a.etag;
    u.http_last_modified = a.http_last_modified;
    u.content_hash = a.content_hash;
    u.retries = a.retries;
    u.failures = a.failures;
    u.last_visit = now;
    u.last_success = a.last_success;
    u.visits = a.visits;
    u.successes = a.successes;
    u.changes = a.changes;
    u.interval = a.interval;
    u.next_visit = a.next_visit;
    u.tier = uo.tier.tier;
    u.tier_key = uo.tier.key;
    u.first_success = uo.first_success;
    return u;
}

}  // namespace

DoneOutcome Store::finish(const FetchFacts& f, double now) {
    Impl& m = *impl_;
    m.now = now;
    const Settings& s = settings();
    DoneOutcome o;
    o.result = "stale";
    if (!f.lease.empty() && f.lease[0] == 'r') {  // a robots.txt prerequisite
        m.finish_robots(s, f, now, o);
        return o;
    }
    // A URL lease, or a lease-less result matched by URL while leased.
    int64_t id = -1, seq = -1;
    if (!f.lease.empty()) {
        if (unmatched_lease(parse_lease(f.lease, id, seq), f, o)) return o;
    } else if (!m.leased_by_url(s, f, o, id, seq)) {
        return o;
    }
    std::optional<LeasedRow> row = m.leased_row(id);
    if (!row) {
        o.url = f.url;
        return o;
    }
    o.url = row->url;
    if (!row->leased(seq) && !row->late(seq)) return o;
    o.depth = row->depth;
    m.finish_url(s, f, now, id, *row, o);
    return o;
}

// The row of a URL lease: prefetched (Store::prefetch_leases), or read now.
std::optional<LeasedRow> Store::Impl::leased_row(int64_t id) {
    if (auto pre = urls.prefetched_leases.find(id); pre != urls.prefetched_leases.end()) {
        // Used once: a repeated result in this transaction reads the row as updated.
        std::optional<LeasedRow> row = std::move(pre->second);
        urls.prefetched_leases.erase(pre);
        return row;
    }
    urls.settle(id);  // a repeated result in this transaction reads the row as updated
    Stmt& st = q(kLeasedRow.c_str());
    st.bind(1, id);
    std::optional<LeasedRow> row;
    if (st.step()) row = read_leased_row(st);
    st.reset();
    return row;
}

void Store::prefetch_leases(const std::vector<int64_t>& url_ids) {
    impl_->backend->read_leased_ahead(*impl_, url_ids);
}

void Store::Impl::drop_prefetched_leases() {
    urls.prefetched_leases.clear();
    prefetched_queues.clear();
}

// A result without a lease id: the URL's row while it is leased, found by
// its canonical URL (frontier-done(1), INPUT). False: rejected or stale (o
// says which).
bool Store::Impl::leased_by_url(const Settings& s, const FetchFacts& f, DoneOutcome& o, int64_t& id, int64_t& seq) {
    CanonResult c = canonicalize_url(f.url, s.canon);
    if (!c.ok) {
        o.result = "rejected";
        o.reason = c.reason;
        return false;
    }
    o.url = c.url.url;
    enum class C { id, url, lease_seq };
    // Its ids are in url_fps or url_fps_new (frontier(7), FILE FORMAT).
    Stmt& st = q("SELECT u.id, u.url, u.lease_seq FROM url_fps f JOIN urls u ON u.id = f.id WHERE f.fp = ?1 "
                 "AND u.state = " SQL_URL_LEASED " UNION ALL SELECT u.id, u.url, u.lease_seq FROM url_fps_new f "
                 "JOIN urls u ON u.id = f.id WHERE f.fp = ?1 AND u.state = " SQL_URL_LEASED);
    st.bind(1, static_cast<int64_t>(url_fingerprint(c.url.url)));
    while (st.step()) {
        SqlRow<C> row(st);
        if (row.text(C::url) == c.url.url) {
            id = row.i64(C::id);
            seq = row.i64(C::lease_seq);
        }
    }
    st.reset();
    return id >= 0;
}

// A robots.txt result: the host's rules, retry or give-up (frontier(7),
// ROBOTS.TXT), then the queue's politeness.
void Store::Impl::finish_robots(const Settings& s, const FetchFacts& f, double now, DoneOutcome& o) {
    int64_t hid, seq;
    if (unmatched_lease(parse_lease(std::string_view(f.lease).substr(1), hid, seq), f, o)) return;
#define ROBOTS_LEASE_COLUMNS(X)                                                                 \
    X(name, "name") X(lease_seq, "robots_lease_seq") X(lease_expires, "robots_lease_expires") \
    X(queue, "robots_queue") X(retries, "robots_retries")
    enum class C { ROBOTS_LEASE_COLUMNS(SQL_COLUMN_NAME) };
    static const std::string sql =
        "SELECT " + sql_column_list({ROBOTS_LEASE_COLUMNS(SQL_COLUMN_EXPR)}) + " FROM hosts WHERE id = ?";
#undef ROBOTS_LEASE_COLUMNS
    Stmt& h = q(sql.c_str());
    h.bind(1, hid);
    bool found = h.step();
    SqlRow<C> row(h);
    if (!found || row.i64(C::lease_seq) != seq || row.is_null(C::lease_expires)) {
        o.url = found ? row.str(C::name) + "/robots.txt" : f.url;
        h.reset();
        return;
    }
    std::string host = row.str(C::name);
    int64_t qid = row.i64(C::queue), retries = row.i64(C::retries);
    h.reset();
    o.url = host + "/robots.txt";
    o.robots = true;
    count("robots_leased", -1);
    count(result_class(f), 1);
    robots_cache.erase(hid);
    RobotsOutcome ro = robots_outcome(f, retries, s, now);
    std::optional<double> delay;
    if (ro.state == RobotsOutcome::HostState::known) {
        std::string text;
        if (ro.parse_body) {
            std::string ua = s.politeness_for(host.substr(host.find("://") + 3)).robots_user_agent;
            RobotsRules rules = RobotsRules::parse(f.body.value_or(""), ua);
            text = rules.serialize();
            delay = rules.crawl_delay();
            o.sitemaps = rules.sitemaps();
        }
        q("UPDATE hosts SET robots_state = ?6, robots_rules = ?1, robots_at = ?2, robots_status = ?3, "
          "robots_retries = 0, robots_retry_at = NULL, robots_lease_expires = NULL, crawl_delay = ?4 WHERE id = ?5")
            .bind(1, text).bind(2, now).bind(3, f.status).bind(4, delay).bind(5, hid)
            .bind(6, static_cast<int64_t>(RobotsState::known)).exec();
    } else if (ro.state == RobotsOutcome::HostState::retry) {
        q("UPDATE hosts SET robots_state = ?4, robots_retries = robots_retries + 1, robots_retry_at = ?1, "
          "robots_status = ?2, robots_lease_expires = NULL WHERE id = ?3")
            .bind(1, *ro.retry_at).bind(2, f.status).bind(3, hid)
            .bind(4, static_cast<int64_t>(RobotsState::unreachable)).exec();
        o.next_visit = ro.retry_at;
    } else {
        q("UPDATE hosts SET robots_state = ?3, robots_status = ?1, robots_lease_expires = NULL WHERE id = ?2")
            .bind(1, f.status).bind(2, hid).bind(3, static_cast<int64_t>(RobotsState::given_up)).exec();
    }
    o.result = ro.result;
    o.reason = ro.reason;
    crawl_delays.erase(hid);
    // The robots.txt lease changes no URL count (UrlState::leased: none).
    after_fetch(s, qid, f, delay, ro.unsuccessful, now, UrlState::leased);
}

// A URL result on its leased (or late) row: what it means (url_outcome,
// lib/policy/outcome.hpp), the row, counters and the queue's politeness.
void Store::Impl::finish_url(const Settings& s, const FetchFacts& f, double now, int64_t id, const LeasedRow& row,
                             DoneOutcome& o) {
    const UrlHistory& h = row.history;
    const bool leased = row.state == static_cast<int>(UrlState::leased);
    if (leased) {
        count("leased", -1);
    } else {  // the expired lease had put it back in the queue
        count("queued", -1);
        q("UPDATE queues SET queued = queued - 1, in_flight = in_flight + 1 WHERE id = ?").bind(1, row.queue_id).exec();
    }
    count(result_class(f), 1);
    totals.note_result(f, !f.error_class.empty() || f.status >= 400, h.successes, now);
    UrlOutcome uo = url_outcome(h, f, s, now, static_cast<uint64_t>(id) * 1000003u + static_cast<uint64_t>(h.visits + 1));
    for (auto& [name, d] : uo.counters) count(name, d);
    o.result = uo.result;
    o.reason = uo.reason;
    o.follow_links = uo.follow_links;
    o.next_visit = uo.next_visit;
    UrlUpdate u = url_update(id, uo, f, now);
    // A leased row leaves no index a lease or report in this transaction
    // reads, so its update is held and written in row-id order at commit
    // (url_updates.hpp; PostgreSQL: many rows per UPDATE, UrlRows::flush_updates);
    // a late result's row is back in the next-URL index, so it is written now.
    if (leased) {
        urls.updates.add(u);
        if (urls.updates.full()) urls.flush_updates();
    } else {
        queues.leave_lease_order(id);
        urls.write_update(u);
    }
    count(url_state_name(uo.state), 1);
    // Per-queue counts (a disabled URL is counted by the URL counters only).
    after_fetch(s, row.queue_id, f, crawl_delay(row.host_id), !uo.follow_links, now, uo.state);
}

}  // namespace frontier
