// The storage side of frontier-report (lib/report/report_data.hpp): the SQL that
// reads the per-queue rows, the seeds and the failed URLs. Part of the
// storage module; the summary is in lib/store/store_report.cpp.
//
// Queue rows stream from one statement; SQL does the filtering, ordering and
// limit except for computed sort keys (see sort_in_memory()), which hold a
// key and an id per queue and read the rows again in their order.
#include <algorithm>
#include <unordered_map>

#include "store/db.hpp"
#include "policy/lease_policy.hpp"
#include "report/report_data.hpp"
#include "store/sql_codes.hpp"
#include "store/sql_columns.hpp"
#include "store/store.hpp"
#include "store/store_connection.hpp"
#include "store/store_report_sql.hpp"

namespace frontier {

namespace {

// ORDER BY expression for an SQL-sortable key.
const char* order_expression(const std::string& key) {
    static const std::unordered_map<std::string, const char*> m = {
        {"queue", "key"},
        {"size", "queued"},
        {"enqueued", "enqueued"},
        {"session_balance", "session_balance"},
        {"last_cost", "last_cost"},
        {"average_cost", "(CASE WHEN cost_count > 0 THEN CAST(total_spend AS REAL) / cost_count END)"},
        {"total_spend", "total_spend"},
        {"error_count", "error_count"},
        {"in_flight", "in_flight"},
        {"wake_at", "wake_at"},
        {"last_dequeue_at", "last_dequeue_at"},
        {"avg_latency_ms", "(CASE WHEN latency_n > 0 THEN latency_sum / latency_n END)"},
        {"host_down", "host_down"},
        {"retry_after_blocks", "retry_after_blocks"},
        {"done", "done"},
        {"failed", "failed"},
        {"blocked", "blocked"},
        {"bytes", "bytes"},
    };
    auto it = m.find(key);
    return it == m.end() ? "id" : it->second;
}

// robots.txt status of one host, ranked so that the worst wins for a queue.
struct RobotsStatus {
    int rank;
    const char* name;
};
RobotsStatus robots_status(int64_t state, std::optional<int64_t> status, bool lease_out) {
    switch (static_cast<RobotsState>(state)) {
        case RobotsState::known:
            return status && *status >= 200 && *status < 300 ? RobotsStatus{0, "ok"} : RobotsStatus{1, "allow-all"};
        case RobotsState::unreachable: return {4, "unreachable"};
        case RobotsState::given_up: return {5, "gave-up"};
        default: return lease_out ? RobotsStatus{3, "fetching"} : RobotsStatus{2, "unknown"};
    }
}

// robots.txt per queue: hosts whose robots.txt the queue leased (one pass
// over hosts), the worst status winning.
std::unordered_map<int64_t, RobotsStatus> read_robots(Db& db) {
    std::unordered_map<int64_t, RobotsStatus> robots;
    enum class H { queue, state, status, lease_out };
    Stmt st = db.prepare(
        "SELECT robots_queue, robots_state, robots_status, robots_lease_expires IS NOT NULL FROM hosts "
        "WHERE robots_queue IS NOT NULL");
    ResetOnExit guard{st};
    for (SqlRow<H> h(st); st.step();) {
        RobotsStatus r = robots_status(h.i64(H::state), h.opt_i64(H::status), h.i64(H::lease_out) != 0);
        auto [it, fresh] = robots.try_emplace(h.i64(H::queue), r);
        if (!fresh && r.rank > it->second.rank) it->second = r;
    }
    return robots;
}

#define QUEUE_ROW_COLUMNS(X)                                                                                   \
    X(id, "id") X(key, "key") X(state, "state") X(in_flight, "in_flight") X(queued, "queued")                \
    X(wake_at, "wake_at") X(enqueued, "enqueued") X(session_balance, "session_balance")                      \
    X(last_cost, "last_cost") X(cost_count, "cost_count") X(total_spend, "total_spend")                      \
    X(error_count, "error_count") X(last_dequeue_at, "last_dequeue_at") X(latency_sum, "latency_sum")        \
    X(latency_n, "latency_n") X(last_peek_url, "last_peek_url") X(last_queued_url, "last_queued_url")        \
    X(done, "done") X(failed, "failed") X(blocked, "blocked") X(host_down, "host_down")                      \
    X(retry_after_blocks, "retry_after_blocks") X(bytes, "bytes")
enum class QueueCol { QUEUE_ROW_COLUMNS(SQL_COLUMN_NAME) };

// The statement of for_each_queue: ?1 is now, ?2 the limit (-1: none).
std::string queue_sql(const QueueQuery& q, bool in_memory) {
    std::string sql = "SELECT " + sql_column_list({QUEUE_ROW_COLUMNS(SQL_COLUMN_EXPR)}) + " FROM queues WHERE (";
    if (q.states.empty()) sql += "1 = 1";
    bool first = true;
    for (ReportState s : q.states) {
        if (!first) sql += " OR ";
        sql += state_condition(s);
        first = false;
    }
    sql += ")";
    if (!q.ids.empty()) {
        sql += " AND id IN (";
        for (size_t i = 0; i < q.ids.size(); ++i) sql += (i ? "," : "") + std::to_string(q.ids[i]);
        sql += ")";
    }
    if (!q.sort.key.empty() && !in_memory)
        sql += std::string(" ORDER BY ") + order_expression(q.sort.key) +
               (q.sort.descending ? " DESC NULLS LAST" : " ASC NULLS FIRST") + ", id";
    else
        sql += " ORDER BY id";
    return sql + " LIMIT ?2";
}

// One queue row as stored (budget and robots.txt are added by the caller).
QueueRow read_queue_row(const Stmt& st, double now) {
    using C = QueueCol;
    SqlRow<C> row(st);
    QueueRow r;
    r.id = row.i64(C::id);
    r.queue = row.str(C::key);
    int64_t state = row.i64(C::state);
    r.in_flight = row.i64(C::in_flight);
    r.size = row.i64(C::queued);
    r.wake_at = row.dbl(C::wake_at);
    r.state = derive_report_state(state, r.in_flight, r.size, r.wake_at, now);
    r.retired_by_hand = state == static_cast<int64_t>(QueueState::retired_by_hand);
    r.enqueued = row.i64(C::enqueued);
    r.session_balance = row.i64(C::session_balance);
    r.last_cost = row.opt_i64(C::last_cost);
    int64_t cost_count = row.i64(C::cost_count);
    r.total_spend = row.i64(C::total_spend);
    if (cost_count > 0) r.average_cost = static_cast<double>(r.total_spend) / static_cast<double>(cost_count);
    r.error_count = row.i64(C::error_count);
    r.last_dequeue_at = row.opt_dbl(C::last_dequeue_at);
    if (int64_t n = row.i64(C::latency_n); n > 0) r.avg_latency_ms = row.dbl(C::latency_sum) / static_cast<double>(n);
    if (!row.is_null(C::last_peek_url)) r.last_peek_url = row.str(C::last_peek_url);
    if (!row.is_null(C::last_queued_url)) r.last_queued_url = row.str(C::last_queued_url);
    r.done = row.i64(C::done);
    r.failed = row.i64(C::failed);
    r.blocked = row.i64(C::blocked);
    r.host_down = row.i64(C::host_down);
    r.retry_after_blocks = row.i64(C::retry_after_blocks);
    r.bytes = row.i64(C::bytes);
    return r;
}

// The last result of a listed URL: its status (none without a response),
// error class and reason.
template <class Row, class C>
void read_outcome(Row& r, const SqlRow<C>& u) {
    r.status = u.opt_i64(C::status);
    if (r.status && *r.status <= 0) r.status.reset();  // no response
    if (!u.is_null(C::error_class)) r.error_class = u.str(C::error_class);
    if (!u.is_null(C::reason)) r.reason = u.str(C::reason);
}

// A list of URLs (?1 is the limit), read in one snapshot, each row named by
// the columns `C` handed to `read`.
template <class C, class F>
void for_each_listed(Store& store, const std::string& sql, int64_t limit, F&& read) {
    Db& db = store_db(store);
    ReadSnapshot snapshot(db);
    Stmt st = db.prepare(sql);
    ResetOnExit guard{st};
    st.bind(1, limit);
    for (SqlRow<C> u(st); st.step();) read(u);
}

}  // namespace

#define SEED_COLUMNS(X)                                                                                \
    X(id, "u.id") X(url, "u.url") X(state, "u.state") X(status, "u.status") X(error_class, "u.error_class") \
    X(reason, "u.reason") X(queue, "q.key") X(queue_done, "q.done") X(queue_failed, "q.failed")
enum class SeedCol { SEED_COLUMNS(SQL_COLUMN_NAME) };

void for_each_seed(Store& store, int64_t limit, const std::function<void(const SeedRow&)>& row) {
    using C = SeedCol;
    std::string sql = "SELECT " + sql_column_list({SEED_COLUMNS(SQL_COLUMN_EXPR)}) + " FROM urls u "
        "JOIN queues q ON q.id = u.queue_id WHERE u.depth = 0 AND coalesce(u.discovery, '') IN ('', 'seed') "
        "ORDER BY u.id LIMIT ?1";
    for_each_listed<C>(store, sql, limit, [&](const SqlRow<C>& u) {
        SeedRow r;
        r.id = u.i64(C::id);
        r.url = u.str(C::url);
        r.state = static_cast<UrlState>(u.i64(C::state));
        read_outcome(r, u);
        r.queue = u.str(C::queue);
        r.queue_done = u.i64(C::queue_done);
        r.queue_failed = u.i64(C::queue_failed);
        row(r);
    });
}

#define FAILED_COLUMNS(X) \
    X(url, "u.url") X(queue, "q.key") X(status, "u.status") X(error_class, "u.error_class") X(reason, "u.reason") \
    X(fetched_at, "u.fetched_at")
enum class FailedCol { FAILED_COLUMNS(SQL_COLUMN_NAME) };

void for_each_failed_url(Store& store, int64_t limit, const std::function<void(const FailedUrl&)>& row) {
    using C = FailedCol;
    std::string sql = "SELECT " + sql_column_list({FAILED_COLUMNS(SQL_COLUMN_EXPR)}) + " FROM urls u "
        "JOIN queues q ON q.id = u.queue_id WHERE u.state = " SQL_URL_FAILED
        " ORDER BY u.fetched_at DESC NULLS LAST, u.id DESC LIMIT ?1";
    for_each_listed<C>(store, sql, limit, [&](const SqlRow<C>& u) {
        FailedUrl r;
        r.url = u.str(C::url);
        r.queue = u.str(C::queue);
        read_outcome(r, u);
        r.fetched_at = u.opt_dbl(C::fetched_at);
        row(r);
    });
}

QueueRowReader::QueueRowReader(Store& store, double now, bool with_robots)
    : store_(store), settings_(store.settings()), now_(now) {
    if (with_robots)
        for (auto& [id, r] : read_robots(store_db(store))) robots_.emplace(id, r.name);
}

QueueRow QueueRowReader::read(const Stmt& st) const {
    QueueRow r = read_queue_row(st, now_);
    Store::BudgetValues b = store_.effective_budget(r.queue);
    r.total_budget = b.total;
    r.session_budget = b.replenish;
    if (!settings_.politeness_for(r.queue).robots_enabled) r.robots = "disabled";
    else if (auto it = robots_.find(r.id); it != robots_.end()) r.robots = it->second;
    else r.robots = "unknown";
    return r;
}

void QueueRowReader::by_ids(const std::vector<int64_t>& ids, const std::function<void(const QueueRow&)>& row,
                            const std::set<ReportState>& states) const {
    constexpr size_t kChunk = 500;
    Db& db = store_db(store_);
    for (size_t from = 0; from < ids.size(); from += kChunk) {
        QueueQuery chunk;
        chunk.states = states;
        chunk.ids.assign(ids.begin() + static_cast<std::ptrdiff_t>(from),
                         ids.begin() + static_cast<std::ptrdiff_t>(std::min(ids.size(), from + kChunk)));
        std::unordered_map<int64_t, QueueRow> rows;
        Stmt st = db.prepare(queue_sql(chunk, false));
        ResetOnExit guard{st};
        st.bind(1, now_);
        st.bind(2, int64_t{-1});
        while (st.step()) {
            QueueRow r = read(st);
            rows.emplace(r.id, std::move(r));
        }
        st.reset();
        for (int64_t id : chunk.ids)
            if (auto it = rows.find(id); it != rows.end()) row(it->second);
    }
}

void for_each_queue(Store& store, const QueueQuery& q, double now, const std::function<void(const QueueRow&)>& row) {
    Db& db = store_db(store);
    ReadSnapshot snapshot(db);
    const QueueRowReader reader(store, now, q.with_robots);
    const bool in_memory = sort_in_memory(q.sort);
    // A whole table sorted by SQL: its sorter goes to temporary files past
    // 16 MiB instead of holding every row in memory. A
    // computed key's 16 bytes a queue are held beside a page cache of 16 MiB.
    const bool large_sort = !q.sort.key.empty() && (in_memory || q.limit < 0);
    if (large_sort) db.prepare_for_large_sorts();
    struct EndSorts {
        Db& db;
        bool on;
        ~EndSorts() {
            try {
                if (on) db.end_large_sorts();
            } catch (...) {  // the report is written or failed already; the connection closes next
            }
        }
    } end_sorts{db, large_sort};
    Stmt st = db.prepare(queue_sql(q, in_memory));
    ResetOnExit guard{st};
    st.bind(1, now);
    st.bind(2, in_memory ? int64_t{-1} : q.limit);
    if (!in_memory) {
        while (st.step()) row(reader.read(st));
        return;
    }
    // A computed key (queue_sort_value): each queue's key and id are held
    // (16 bytes, not its row), sorted, then the rows read again by id.
    std::vector<std::pair<double, int64_t>> order;
    while (st.step()) {
        QueueRow r = reader.read(st);
        order.emplace_back(queue_sort_value(r, q.sort), r.id);
    }
    st.reset();
    std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
        if (a.first != b.first) return q.sort.descending ? a.first > b.first : a.first < b.first;
        return a.second < b.second;
    });
    if (q.limit >= 0 && order.size() > static_cast<size_t>(q.limit)) order.resize(static_cast<size_t>(q.limit));
    std::vector<int64_t> ids;
    ids.reserve(order.size());
    for (auto& [key, id] : order) ids.push_back(id);
    order = {};
    // Read again, a queue shows its values of now; one whose state left
    // --state's since the first pass is left out.
    reader.by_ids(ids, row, q.states);
}

}  // namespace frontier
