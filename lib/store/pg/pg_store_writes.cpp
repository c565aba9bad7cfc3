// The PostgreSQL store's writes (pg_store.hpp): a lease call's URL and
// queue rows, frontier-done's URL rows and queue deltas, and the counters,
// each written by one statement over arrays (unnest) instead of one per
// row (frontier(7), POSTGRESQL). The one-row URL update of the other
// backend is made from the same column list (url_update_columns.hpp).
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "store/fetch_update_sql.hpp"
#include "store/pg/pg_store.hpp"
#include "store/sql_codes.hpp"
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

// frontier-done's URL-row updates: one UPDATE per kPendingRows rows.
void PgStoreBackend::write_url_updates(UrlRows& urls) {
    static const std::string sql = url_updates_sql();
    UrlUpdateArrays arrays;
    auto write = [&] {
        Stmt& st = st_.q(sql.c_str());
        for (int i = 0; i < static_cast<int>(UpdCol::count); ++i) st.bind(i + 1, arrays.a[i]);
        st.exec();
        for (PgArray& a : arrays.a) a.clear();
    };
    urls.updates.drain([&](const UrlUpdate& u) {
        arrays.add(u);
        if (arrays.size() >= kPendingRows) write();
    });
    if (arrays.size()) write();
}

void PgStoreBackend::write_lease(int64_t, const HeadKey& key, int64_t seq, double expires, std::optional<int64_t> holder) {
    lease_writes_.ids.add(key.id);
    lease_writes_.seqs.add(seq);
    lease_writes_.expires.add(expires);
    lease_writes_.holders.add(holder);
}

void PgStoreBackend::write_queue_after_lease(const QueueInfo& qi, const LeaseItem& it, double now, int64_t sched) {
    PgLeaseWrites::Queue& d = lease_writes_.queues[qi.id];
    ++d.n;
    d.cost += it.cost;
    d.last_cost = it.cost;
    d.served = qi.served;
    d.at = now;
    d.last_url = it.url;
    d.best = qi.best;
    d.sched = sched;
}

// The held writes of a lease call: the URL rows leased, then each queue's
// row with its leases summed. The URL rows are found as url_updates_sql
// finds them (a probe per id).
void PgLeaseWrites::flush(Statements& st) {
    PgLeaseWrites& w = *this;
    w.writing_ = true;
    struct Done {
        PgLeaseWrites& w;
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

// The counters' deltas: one upsert for all of them (arrays of names and deltas).
void PgStoreBackend::write_counters(const std::unordered_map<std::string, int64_t>& deltas) {
    // In name order: writers in partitions (Store::begin(true)) upsert
    // these rows at once, and row locks taken in one order never wait in a cycle.
    std::vector<std::pair<std::string_view, int64_t>> sorted;
    for (const auto& [name, d] : deltas)
        if (d != 0) sorted.emplace_back(name, d);
    std::sort(sorted.begin(), sorted.end());
    PgArray names, values;
    for (const auto& [name, d] : sorted) {
        names.add_text(name, false);
        values.add(d);
    }
    if (!names.size()) return;
    st_.q("INSERT INTO counters(name, n) SELECT * FROM unnest(CAST(? AS TEXT[]), CAST(? AS bigint[])) "
          "ON CONFLICT(name) DO UPDATE SET n = counters.n + excluded.n")
        .bind(1, names)
        .bind(2, values)
        .exec();
}

namespace {
std::string fetch_unnest_column(int col) { return "v.d" + std::to_string(col); }
}  // namespace

// frontier-done's queue deltas in one statement: the deltas as arrays
// (unnest), each queue row found by a primary-key probe (as the lease's
// URL writes), in queue id order.
void PgStoreBackend::write_fetch_deltas(Store::Impl& m) {
    static const std::string sql = [] {
        std::string arrays;
        for (int col = 0; col < kFetchCols; ++col) {
            const bool real = col == kWake || col == kLatSum;
            arrays += (col ? ", unnest(CAST(" : "unnest(CAST(") + fetch_param(col) +
                      (real ? " AS REAL[])) AS d" : " AS bigint[])) AS d") + std::to_string(col);
        }
        return fetch_update_sql(fetch_unnest_column, " FROM (SELECT " + arrays +
                                                         ") AS v WHERE queues.id = ANY(ARRAY[" +
                                                         fetch_unnest_column(kQueueId) + "])");
    }();
    if (!m.totals.fetch_deltas.empty()) {
        std::vector<int64_t> ids;
        ids.reserve(m.totals.fetch_deltas.size());
        for (const auto& [qid, d] : m.totals.fetch_deltas) ids.push_back(qid);
        std::sort(ids.begin(), ids.end());
        PgArray a[kFetchCols];
        for (int64_t qid : ids) {
            const FetchDelta& d = m.totals.fetch_deltas.at(qid);
            fetch_columns(qid, d, m.settings.loaded->politeness_for(d.key),
                          [&](int col, auto value) { a[col].add(value); });
        }
        Stmt& st = st_.q(sql.c_str());
        for (int col = 0; col < kFetchCols; ++col) st.bind(col + 1, a[col]);
        st.bind(kNowParam, m.now).exec();
    }
    m.totals.fetch_deltas.clear();
    m.prefetched_queues.clear();
}

}  // namespace frontier
