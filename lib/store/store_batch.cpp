// Set-based reads and writes where a statement is a round trip (PostgreSQL,
// Db::statements_are_round_trips): a lease call's URL and queue rows, and
// frontier-done's URL rows, each written by one UPDATE over arrays (unnest)
// instead of one UPDATE per row, and hosts' seed flags read for many hosts
// at once (frontier(7), POSTGRESQL). SQLite reads and writes each row as it
// goes (its statements cost no round trip).
#include <cstdint>
#include <string>
#include <unordered_set>

#include "store/sql_codes.hpp"
#include "store/sql_columns.hpp"
#include "store/store.hpp"
#include "store/store_impl.hpp"

namespace frontier {

namespace {

// The columns frontier-done sets on a URL row (Store::Impl::write_url_update),
// as arrays: X(column, array type). `interval` is quoted by pg_translate.
#define URL_UPDATE_COLUMNS(X)                                                                                   \
    X(id, "bigint") X(state, "bigint") X(due_at, "REAL") X(reason, "text") X(status, "bigint")                \
    X(error_class, "text") X(fetched_at, "REAL") X(etag, "text") X(http_last_modified, "text")                \
    X(content_hash, "text") X(retries, "bigint") X(failures, "bigint") X(last_visit, "REAL")                   \
    X(last_success, "REAL") X(visits, "bigint") X(successes, "bigint") X(changes, "bigint")                    \
    X(interval, "REAL") X(next_visit, "REAL") X(tier, "bigint") X(tier_key, "REAL") X(first_success, "REAL")
#define URL_UPDATE_NAME(column, type) column,
enum class UpdCol { URL_UPDATE_COLUMNS(URL_UPDATE_NAME) count };
#undef URL_UPDATE_NAME

// UPDATE urls SET column = v.n_column, ... FROM unnest(CAST(? AS type[]), ...)
// AS v(n_id, ...) WHERE urls.id = v.n_id; first_success keeps its value
// when the update has none, lease_expires ends.
std::string url_updates_sql() {
    struct Col {
        const char* name;
        const char* type;
    };
#define URL_UPDATE_COL(column, type) Col{#column, type},
    static const Col cols[] = {URL_UPDATE_COLUMNS(URL_UPDATE_COL)};
#undef URL_UPDATE_COL
    std::string set, arrays, names;
    for (const Col& c : cols) {
        std::string n = std::string("n_") + c.name;
        if (!names.empty()) names += ", ", arrays += ", ";
        names += n;
        arrays += std::string("CAST(? AS ") + c.type + "[])";
        if (std::string(c.name) == "id") continue;
        set += std::string(c.name) + " = " +
               (std::string(c.name) == "first_success" ? "coalesce(v." + n + ", urls.first_success)" : "v." + n) + ", ";
    }
    return "UPDATE urls SET " + set + "lease_expires = NULL FROM unnest(" + arrays + ") AS v(" + names +
           ") WHERE urls.id = v.n_id";
}
#undef URL_UPDATE_COLUMNS

// Held URL updates as one array per column (UpdCol order).
struct UrlUpdateArrays {
    PgArray a[static_cast<int>(UpdCol::count)];
    PgArray& operator[](UpdCol c) { return a[static_cast<int>(c)]; }
    size_t size() const { return a[0].size(); }
    void add(const UrlUpdate& u) {
        using C = UpdCol;
        (*this)[C::id].add(u.id);
        (*this)[C::state].add(static_cast<int64_t>(u.state));
        (*this)[C::due_at].add(u.due);
        (*this)[C::reason].add(u.reason);
        (*this)[C::status].add(u.status);
        (*this)[C::error_class].add(u.error_class);
        (*this)[C::fetched_at].add(u.fetched_at);
        (*this)[C::etag].add(u.etag);
        (*this)[C::http_last_modified].add(u.http_last_modified);
        (*this)[C::content_hash].add(u.content_hash);
        (*this)[C::retries].add(u.retries);
        (*this)[C::failures].add(u.failures);
        (*this)[C::last_visit].add(u.last_visit);
        (*this)[C::last_success].add(u.last_success);
        (*this)[C::visits].add(u.visits);
        (*this)[C::successes].add(u.successes);
        (*this)[C::changes].add(u.changes);
        (*this)[C::interval].add(u.interval);
        (*this)[C::next_visit].add(u.next_visit);
        (*this)[C::tier].add(u.tier);
        (*this)[C::tier_key].add(u.tier_key);
        (*this)[C::first_success].add(u.first_success);
    }
};

}  // namespace

void Store::Impl::flush_url_updates() {
    if (!db.statements_are_round_trips()) {
        url_updates.drain([this](const UrlUpdate& u) { write_url_update(u); });
        return;
    }
    static const std::string sql = url_updates_sql();
    UrlUpdateArrays arrays;
    auto write = [&] {
        Stmt& st = q(sql.c_str());
        for (int i = 0; i < static_cast<int>(UpdCol::count); ++i) st.bind(i + 1, arrays.a[i].str());
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
void Store::Impl::flush_lease_writes() {
    LeaseWrites& w = lease_writes;
    w.writing = true;
    struct Done {
        LeaseWrites& w;
        ~Done() {
            w.clear();
            w.writing = false;
        }
    } done{w};
    if (w.ids.size()) {
        q("UPDATE urls SET state = " SQL_URL_LEASED ", lease_seq = v.seq, attempts = attempts + 1, "
          "lease_expires = v.expires, holder = v.holder FROM unnest(CAST(? AS bigint[]), CAST(? AS bigint[]), "
          "CAST(? AS REAL[]), CAST(? AS bigint[])) AS v(id, seq, expires, holder) WHERE urls.id = v.id")
            .bind(1, w.ids.str()).bind(2, w.seqs.str()).bind(3, w.expires.str()).bind(4, w.holders.str()).exec();
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
    Stmt& st = q("UPDATE queues SET in_flight = in_flight + v.n, queued = queued - v.n, served = v.served, "
                 "last_dequeue_at = v.now_at, last_peek_url = v.url, session_balance = session_balance - v.cost, "
                 "total_spend = total_spend + v.cost, last_cost = v.last_cost, cost_count = cost_count + v.n, "
                 "best = v.best, sched = v.sched FROM unnest(CAST(? AS bigint[]), CAST(? AS bigint[]), "
                 "CAST(? AS bigint[]), CAST(? AS bigint[]), CAST(? AS bigint[]), CAST(? AS REAL[]), "
                 "CAST(? AS text[]), CAST(? AS REAL[]), CAST(? AS bigint[])) "
                 "AS v(id, n, cost, last_cost, served, now_at, url, best, sched) WHERE queues.id = v.id");
    for (int i = 0; i < kCols; ++i) st.bind(i + 1, a[i].str());
    st.exec();
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
    st.bind(1, arr.str());
    while (st.step()) {
        SqlRow<C> row(st);
        note_seed_host(row.i64(C::id), !row.is_null(C::seed));
    }
    st.reset();
}

void Store::Impl::prefetch_result_rows(const std::vector<int64_t>& queue_ids, const std::vector<int64_t>& host_ids) {
    std::vector<int64_t> qids;
    std::unordered_set<int64_t> asked;
    for (int64_t id : queue_ids)
        if (!fetch_deltas.count(id) && !prefetched_queues.count(id) && asked.insert(id).second) qids.push_back(id);
    if (!qids.empty())
        for (QueueInfo& qi : queues(qids)) prefetched_queues.insert_or_assign(qi.id, std::move(qi));
    PgArray hosts;
    asked.clear();
    for (int64_t id : host_ids)
        if (!crawl_delays.count(id) && asked.insert(id).second) hosts.add(id);
    if (!hosts.size()) return;
    if (crawl_delays.size() + hosts.size() >= kIdCacheMax) crawl_delays.clear();
    enum class C { id, crawl_delay };
    static const std::string sql = probe_each_sql("hosts", "id", "id, crawl_delay");
    Stmt& st = q(sql.c_str());
    st.bind(1, hosts.str());
    while (st.step()) {
        SqlRow<C> row(st);
        crawl_delays.insert_or_assign(row.i64(C::id), row.opt_dbl(C::crawl_delay));
    }
    st.reset();
}

}  // namespace frontier
