// Set-based reads and writes where a statement is a round trip (PostgreSQL,
// Db::statements_are_round_trips): a lease call's URL and queue rows, and
// frontier-done's URL rows, each written by one UPDATE over arrays (unnest)
// instead of one UPDATE per row, and hosts' seed flags read for many hosts
// at once (frontier(7), POSTGRESQL). SQLite reads and writes each row as it
// goes (its statements cost no round trip); its one-row URL update is made
// from the same column list as the set-based one.
#include <cstdint>
#include <string>
#include <unordered_set>

#include "store/sql_codes.hpp"
#include "store/sql_columns.hpp"
#include "store/store.hpp"
#include "store/store_impl.hpp"

namespace frontier {

namespace {

// The columns frontier-done sets on a URL row, with their array types for
// PostgreSQL: X(column, array type). `interval` is quoted by pg_translate.
// Both writes below are made from this list: one row (write_url_update)
// and many rows over arrays (flush_url_updates, round-trip backends).
#define URL_UPDATE_COLUMNS(X)                                                                                   \
    X(id, "bigint") X(state, "bigint") X(due_at, "REAL") X(reason, "text") X(status, "bigint")                \
    X(error_class, "text") X(fetched_at, "REAL") X(etag, "text") X(http_last_modified, "text")                \
    X(content_hash, "text") X(retries, "bigint") X(failures, "bigint") X(last_visit, "REAL")                   \
    X(last_success, "REAL") X(visits, "bigint") X(successes, "bigint") X(changes, "bigint")                    \
    X(interval, "REAL") X(next_visit, "REAL") X(tier, "bigint") X(tier_key, "REAL") X(first_success, "REAL")
#define URL_UPDATE_NAME(column, type) column,
enum class UpdCol { URL_UPDATE_COLUMNS(URL_UPDATE_NAME) count };
#undef URL_UPDATE_NAME

// Each column of an update with its value, f(UpdCol, value).
template <class F>
void each_update_value(const UrlUpdate& u, F&& f) {
    using C = UpdCol;
    f(C::id, u.id);
    f(C::state, static_cast<int64_t>(u.state));
    f(C::due_at, u.due);
    f(C::reason, u.reason);
    f(C::status, u.status);
    f(C::error_class, u.error_class);
    f(C::fetched_at, u.fetched_at);
    f(C::etag, u.etag);
    f(C::http_last_modified, u.http_last_modified);
    f(C::content_hash, u.content_hash);
    f(C::retries, u.retries);
    f(C::failures, u.failures);
    f(C::last_visit, u.last_visit);
    f(C::last_success, u.last_success);
    f(C::visits, u.visits);
    f(C::successes, u.successes);
    f(C::changes, u.changes);
    f(C::interval, u.interval);
    f(C::next_visit, u.next_visit);
    f(C::tier, u.tier);
    f(C::tier_key, u.tier_key);
    f(C::first_success, u.first_success);
}

// What a column is set to from `v` (the new value): first_success keeps its
// value when the update has none.
std::string set_column(const std::string& column, const std::string& v) {
    return column + " = " + (column == "first_success" ? "coalesce(" + v + ", urls.first_success)" : v);
}

struct UpdateColumn {
    const char* name;
    const char* type;
};
#define URL_UPDATE_COL(column, type) UpdateColumn{#column, type},
const UpdateColumn kUpdateColumns[] = {URL_UPDATE_COLUMNS(URL_UPDATE_COL)};
#undef URL_UPDATE_COL
#undef URL_UPDATE_COLUMNS

// One row: UPDATE urls SET state = ?2, ... WHERE id = ?1 (parameter n+1 is
// column n); the lease ends.
std::string url_update_sql() {
    std::string set;
    for (int i = 1; i < static_cast<int>(UpdCol::count); ++i)
        set += set_column(kUpdateColumns[i].name, "?" + std::to_string(i + 1)) + ", ";
    return "UPDATE urls SET " + set + "lease_expires = NULL WHERE id = ?1";
}

// Many rows: UPDATE urls SET column = v.n_column, ... FROM (SELECT
// unnest(CAST(? AS type[])) AS n_id, ...) AS v WHERE urls.id =
// ANY(ARRAY[v.n_id]), the arrays unnested in the select list (read as
// they go: unnest(a, b, ...) in FROM copies each array first, and a done's
// update of 100k rows took 1.4-2.1 times as long; frontier(7),
// POSTGRESQL): each row
// found by a primary-key probe (frontier(7), POSTGRESQL). `urls.id = v.n_id`
// would let the planner hash the whole table instead, at every batch,
// wherever the table is small next to the batch (20,000 URLs: ~10 ms of a
// 2,048-row batch's ~30); an `= ANY(ARRAY[...])` join can only be probed.
std::string url_updates_sql() {
    std::string set, arrays;
    for (const UpdateColumn& c : kUpdateColumns) {
        std::string n = std::string("n_") + c.name;
        if (!arrays.empty()) arrays += ", ";
        arrays += std::string("unnest(CAST(? AS ") + c.type + "[])) AS " + n;
        if (std::string(c.name) != "id") set += set_column(c.name, "v." + n) + ", ";
    }
    return "UPDATE urls SET " + set + "lease_expires = NULL FROM (SELECT " + arrays +
           ") AS v WHERE urls.id = ANY(ARRAY[v.n_id])";
}

// Held URL updates as one array per column (UpdCol order).
struct UrlUpdateArrays {
    PgArray a[static_cast<int>(UpdCol::count)];
    size_t size() const { return a[0].size(); }
    void add(const UrlUpdate& u) {
        each_update_value(u, [this](UpdCol c, const auto& v) { a[static_cast<int>(c)].add(v); });
    }
};

}  // namespace

void Store::Impl::write_url_update(const UrlUpdate& u) {
    static const std::string sql = url_update_sql();
    Stmt& st = q(sql.c_str());
    each_update_value(u, [&st](UpdCol c, const auto& v) { st.bind(static_cast<int>(c) + 1, v); });
    st.exec();
    // Its lease order entry (frontier(7), FILE FORMAT): a leased row has
    // none; a late result's row left its entry before (finish_url).
    if (u.state == static_cast<int>(UrlState::queued) && !u.due) enter_lease_order(u.id);
}

void Store::Impl::flush_url_updates() {
    if (!db.statements_are_round_trips()) {
        url_updates.drain([this](const UrlUpdate& u) { write_url_update(u); });
        return;
    }
    static const std::string sql = url_updates_sql();
    UrlUpdateArrays arrays;
    auto write = [&] {
        Stmt& st = q(sql.c_str());
        for (int i = 0; i < static_cast<int>(UpdCol::count); ++i) st.bind(i + 1, arrays.a[i]);
        st.exec();
        for (PgArray& a : arrays.a) a.clear();
    };
    url_updates.drain([&](const UrlUpdate& u) {
        arrays.add(u);
        if (arrays.size() >= kPendingRows) write();
    });
    if (arrays.size()) write();
}

// The held writes of a lease call (LeaseWrites): the URL rows leased, then
// each queue's row with its leases summed (what LeaseRun::lease_url writes
// per URL on SQLite).
// The URL rows are found as url_updates_sql finds them (a probe per id).
void LeaseWrites::flush(Statements& st) {
    LeaseWrites& w = *this;
    w.writing_ = true;
    struct Done {
        LeaseWrites& w;
        ~Done() {
            w.clear();
            w.writing_ = false;
        }
    } done{w};
    if (w.ids.size()) {
        // clang-format off
        st.q("UPDATE urls SET state = " SQL_URL_LEASED ", lease_seq = v.seq, attempts = attempts + 1, "
          "lease_expires = v.expires, holder = v.holder FROM (SELECT unnest(CAST(? AS bigint[])) AS id, "
          "unnest(CAST(? AS bigint[])) AS seq, unnest(CAST(? AS REAL[])) AS expires, "
          "unnest(CAST(? AS bigint[])) AS holder) AS v WHERE urls.id = ANY(ARRAY[v.id])")
            .bind(1, w.ids).bind(2, w.seqs).bind(3, w.expires).bind(4, w.holders).exec();
        // clang-format on
    }
    if (w.queues.empty()) return;
    enum { id, n, cost, last_cost, served, at, last_url, best, sched, kCols };
    PgArray a[kCols];
    for (const auto& [qid, d] : w.queues) {
        a[id].add(qid);
        a[n].add(d.n);
        a[cost].add(d.cost);
        a[last_cost].add(d.last_cost);
        a[served].add(d.served);
        a[at].add(d.at);
        a[last_url].add_text(d.last_url, false);
        a[best].add(d.best);
        a[sched].add(d.sched);
    }
    Stmt& up =
        st.q("UPDATE queues SET in_flight = in_flight + v.n, queued = queued - v.n, served = v.served, "
          "last_dequeue_at = v.now_at, last_peek_url = v.url, session_balance = session_balance - v.cost, "
          "total_spend = total_spend + v.cost, last_cost = v.last_cost, cost_count = cost_count + v.n, "
          "best = v.best, sched = v.sched FROM (SELECT unnest(CAST(? AS bigint[])) AS id, "
          "unnest(CAST(? AS bigint[])) AS n, unnest(CAST(? AS bigint[])) AS cost, "
          "unnest(CAST(? AS bigint[])) AS last_cost, unnest(CAST(? AS bigint[])) AS served, "
          "unnest(CAST(? AS REAL[])) AS now_at, unnest(CAST(? AS text[])) AS url, "
          "unnest(CAST(? AS REAL[])) AS best, unnest(CAST(? AS bigint[])) AS sched) AS v "
          "WHERE queues.id = v.id");
    for (int i = 0; i < kCols; ++i) up.bind(i + 1, a[i]);
    up.exec();
}

void Store::Impl::prefetch_seed_hosts(const std::vector<int64_t>& host_ids) {
    PgArray arr;
    std::unordered_set<int64_t> asked;
    for (int64_t h : host_ids)
        if (!seed_hosts.count(h) && !other_hosts.count(h) && asked.insert(h).second) arr.add(h);
    if (!arr.size()) return;
    enum class C { id, seed };
    static const std::string sql = probe_each_sql("hosts", "id", "id, seed");
    Stmt& st = q_unflushed(sql.c_str());
    st.bind(1, arr);
    while (st.step()) {
        SqlRow<C> row(st);
        note_seed_host(row.i64(C::id), !row.is_null(C::seed));
    }
    st.reset();
}

namespace {
const std::string kHostDelays = probe_each_sql("hosts", "id", "id, crawl_delay");
const std::string kHostDelaysOfUrls = probe_of_urls_sql("hosts", "host_id", "id, crawl_delay");
}  // namespace

void Store::Impl::prefetch_result_rows(const std::vector<int64_t>& queue_ids, const std::vector<int64_t>& host_ids) {
    std::vector<int64_t> qids;
    std::unordered_set<int64_t> asked;
    for (int64_t id : queue_ids)
        if (!totals.fetch_deltas.count(id) && !prefetched_queues.count(id) && asked.insert(id).second) qids.push_back(id);
    PgArray hosts;
    asked.clear();
    for (int64_t id : host_ids)
        if (!crawl_delays.count(id) && asked.insert(id).second) hosts.add(id);
    // Both sent, then read: on PostgreSQL one round trip for the two.
    ResultRowsSent sent;
    if (hosts.size()) {
        sent.hosts = &q(kHostDelays.c_str());
        sent.hosts->bind(1, hosts).send();
    }
    if (!qids.empty()) sent.queues = &send_queues(qids);
    read_result_rows(sent);
}

Store::Impl::ResultRowsSent Store::Impl::send_result_rows(const PgArray& url_ids) {
    ResultRowsSent sent;
    sent.hosts = &q(kHostDelaysOfUrls.c_str());
    sent.hosts->bind(1, url_ids).send();
    sent.queues = &send_queues_of_urls(url_ids);
    return sent;
}

// Rows already known are left as they are: a queue with a delta, or read
// before, and a host's cached Crawl-delay.
void Store::Impl::read_result_rows(const ResultRowsSent& sent) {
    enum class C { id, crawl_delay };
    if (sent.hosts) {
        while (sent.hosts->step()) {
            SqlRow<C> row(*sent.hosts);
            if (crawl_delays.size() >= kIdCacheMax) crawl_delays.clear();
            crawl_delays.try_emplace(row.i64(C::id), row.opt_dbl(C::crawl_delay));
        }
        sent.hosts->reset();
    }
    if (sent.queues)
        for (QueueInfo& qi : read_queues(*sent.queues))
            if (!totals.fetch_deltas.count(qi.id) && !prefetched_queues.count(qi.id))
                prefetched_queues.emplace(qi.id, std::move(qi));
}

}  // namespace frontier
