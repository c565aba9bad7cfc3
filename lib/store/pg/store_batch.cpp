// Set-based reads and writes where a statement is a round trip (PostgreSQL,
// Db::statements_are_round_trips): a lease call's URL and queue rows, and
// frontier-done's URL rows, each written by one UPDATE over arrays (unnest)
// instead of one UPDATE per row, and hosts' seed flags read for many hosts
// at once (frontier(7), POSTGRESQL). SQLite reads and writes each row as it
// goes (its statements cost no round trip); its one-row URL update
// (store_done.cpp) is made from the same column list as the set-based one
// (url_update_columns.hpp).
#include <cstdint>
#include <string>
#include <unordered_set>

#include "store/sql_codes.hpp"
#include "store/sql_columns.hpp"
#include "store/store.hpp"
#include "store/store_impl.hpp"
#include "store/url_update_columns.hpp"

namespace frontier {

namespace {


// Many rows: UPDATE urls SET column = v.n_column, ... FROM (SELECT
// unnest(CAST(? AS type[])) AS n_id, ...) AS v WHERE urls.id =
// ANY(ARRAY[v.n_id]), the arrays unnested in the select list (read as
// they go, where unnest(a, b, ...) in FROM copies each array first): each
// row found by a primary-key probe (frontier(7), POSTGRESQL).
// `urls.id = v.n_id` would let the planner hash the whole table instead,
// at every batch, wherever the table is small next to the batch; an
// `= ANY(ARRAY[...])` join can only be probed.
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

void UrlRows::flush_updates_set() {
    static const std::string sql = url_updates_sql();
    UrlUpdateArrays arrays;
    auto write = [&] {
        Stmt& st = statements_.q(sql.c_str());
        for (int i = 0; i < static_cast<int>(UpdCol::count); ++i) st.bind(i + 1, arrays.a[i]);
        st.exec();
        for (PgArray& a : arrays.a) a.clear();
    };
    updates.drain([&](const UrlUpdate& u) {
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
    if (!qids.empty()) sent.queues = &queues.send(qids);
    read_result_rows(sent);
}

Store::Impl::ResultRowsSent Store::Impl::send_result_rows(const PgArray& url_ids) {
    ResultRowsSent sent;
    sent.hosts = &q(kHostDelaysOfUrls.c_str());
    sent.hosts->bind(1, url_ids).send();
    sent.queues = &queues.send_of_urls(url_ids);
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
        for (QueueInfo& qi : queues.read_sent(*sent.queues))
            if (!totals.fetch_deltas.count(qi.id) && !prefetched_queues.count(qi.id))
                prefetched_queues.emplace(qi.id, std::move(qi));
}

}  // namespace frontier
