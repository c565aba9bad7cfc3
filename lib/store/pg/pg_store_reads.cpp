// The PostgreSQL store's reads (pg_store.hpp): the rows a batch of
// results or leases needs, many per statement and sent ahead to go with
// the next read (frontier(7), POSTGRESQL); and how a session starts its
// batches.
#include <cstdint>
#include <string>
#include <unordered_set>
#include <utility>

#include <cstdlib>
#include <string_view>

#include "store/pg/pg_partitions.hpp"
#include "store/pg/pg_store.hpp"
#include "store/sql_codes.hpp"
#include "store/pg/pg_sql.hpp"

namespace frontier {

namespace {
// Result lines read together: enough that a batch's lease rows come in one
// statement, few enough that a slow producer's first line never waits
// long behind the rest.
constexpr size_t kRecordsPerRoundTrip = 256;
}  // namespace

std::unique_ptr<StoreBackend> make_pg_store_backend(Statements& st) { return std::make_unique<PgStoreBackend>(st); }

PgStoreBackend::PgStoreBackend(Statements& st) : st_(st) {
    st.hold(&lease_writes_);
    // On unless FRONTIER_PG_PARTITIONS is 0 (frontier(7), ENVIRONMENT).
    const char* env = std::getenv("FRONTIER_PG_PARTITIONS");
    partitions_ = !env || std::string_view(env) != "0";
}

std::string PgStoreBackend::held_condition(const char* queue_col) const {
    // The ready queues the lease locked (pg_set_ready_sql) in place of the
    // table: each probed by id (a LATERAL join that OFFSET 0 keeps apart),
    // then sorted. As a condition on the table (`id IN (...)`), the
    // cached generic plan read every ready queue of the queues_ready index
    // at every page, however few the lease held.
    if (std::string_view(queue_col) == "ready")
        return " (SELECT q.* FROM unnest(CAST(current_setting('frontier.ready') AS bigint[])) AS r(id) "
               "CROSS JOIN LATERAL (SELECT * FROM queues WHERE queues.id = r.id OFFSET 0) AS q) AS";
    // IN (a subquery): its rows hashed once per statement.
    return std::string(" AND (") + queue_col + " % " PG_PARTITIONS ") IN (" PG_HELD_PARTS ")";
}

size_t PgStoreBackend::records_read_together() const { return kRecordsPerRoundTrip; }

// The settings version and the housekeeping scan sent ahead, to go with
// the batch's first reads (two round trips fewer, one under the writer lock).
void PgStoreBackend::begin_result_batch(Store& store, Store::Impl& m, double now, bool in_partitions) {
    store.begin(in_partitions);
    m.send_settings_version();
    m.send_due_work(now);
}

bool PgStoreBackend::settle_result_batch(Store& store, Store::Impl& m, double now) {
    store.refresh_settings(m.sent_settings_version());
    if (!store.housekeeping(now)) return false;
    m.drop_prefetched_leases();
    return true;
}

// The index urls_next: the queue's first due URL.
const char* PgStoreBackend::best_rank_sql() const {
    // clang-format off
    return "SELECT rank FROM urls WHERE queue_id = ? AND " SQL_URL_DUE("")
           " ORDER BY rank, tier, tier_key, cost, id LIMIT 1";
    // clang-format on
}

const NextSql& PgStoreBackend::next_head_sql() const { return kNextByIndex; }

// Queue rows: one statement for many (a primary-key probe per id).
std::vector<QueueInfo> PgStoreBackend::read_queues(QueueRows& queues, const std::vector<int64_t>& ids) {
    if (ids.size() < 2) {
        std::vector<QueueInfo> rows;
        for (int64_t id : ids) rows.push_back(queues.row(id));
        return rows;
    }
    return read_sent_queues(send_queues(ids));
}

Stmt& PgStoreBackend::send_queues(const std::vector<int64_t>& ids) {
    static const std::string sql = probe_each_sql("queues", "id", QueueRows::info_columns());
    PgArray arr;
    for (int64_t id : ids) arr.add(id);
    Stmt& st = st_.q(sql.c_str());
    st.bind(1, arr).send();
    return st;
}

std::vector<QueueInfo> PgStoreBackend::read_sent_queues(Stmt& st) {
    std::vector<QueueInfo> rows;
    while (st.step()) rows.push_back(QueueRows::read_info(st));
    st.reset();
    return rows;
}

void PgStoreBackend::lock_batch(BatchLocks locks) {
    link_queues_.clear();
    link_locks_.clear();
    robots_hosts_.clear();
    unheld_links_ = nullptr;
    locked_keys_.clear();
    for (int64_t h : locks.robots_hosts) robots_hosts_.add(h);
    for (std::string& k : locks.link_queues) {
        link_queues_.add_text(k, false);
        link_locks_.add(pg_key_lock(k));
        locked_keys_.insert(std::move(k));
    }
}

bool PgStoreBackend::link_queues_held() {
    Stmt* st = std::exchange(unheld_links_, nullptr);
    if (!st) return true;
    const bool held = st->step() && st->i64(0) == 0;
    st->reset();
    return held;
}

// frontier-done: the URL rows of a batch's leases in one statement (a
// primary-key probe per id).
void PgStoreBackend::read_leased_ahead(Store::Impl& m, const std::vector<int64_t>& url_ids) {
    static const std::string leased_rows = probe_each_sql("urls", "id", leased_row_columns());
    if (url_ids.empty() && !m.in_partitions) return;
    PgArray arr;
    for (int64_t id : url_ids) {
        if (m.urls.updates.holds(id)) continue;  // read as updated, by leased_row (UrlRows::settle)
        arr.add(id);
        m.urls.prefetched_leases.try_emplace(id);  // none stored: no such row
    }
    // In partitions: their queues' partitions locked first (with those of
    // the batch's links and robots.txt leases: lock_batch), so that the
    // rows below are read as their last holders left them.
    if (m.in_partitions) {
        st_.q(kLockResultParts.c_str())
            .bind(1, arr).bind(2, link_queues_).bind(3, link_locks_).bind(4, robots_hosts_).exec();
        if (link_queues_.size()) {
            unheld_links_ = &st_.q(kUnheldLinkQueues.c_str());
            unheld_links_->bind(1, link_queues_).send();
        }
        link_queues_.clear();
        link_locks_.clear();
        robots_hosts_.clear();
    }
    if (!arr.size()) return;
    // A transaction's first batch (a frontier-done in a pipeline commits
    // after every few results): its queue rows and Crawl-delays go in the
    // URL rows' round trip. Later batches read only the rows not known yet.
    const bool ahead = m.totals.fetch_deltas.empty() && m.prefetched_queues.empty();
    ResultRowsSent sent;
    if (ahead) sent = send_result_rows(arr);
    Stmt& st = st_.q(leased_rows.c_str());
    st.bind(1, arr);
    std::vector<int64_t> queue_ids, host_ids;
    while (st.step()) {
        LeasedRow row = read_leased_row(st);
        if (!ahead) {
            queue_ids.push_back(row.queue_id);
            host_ids.push_back(row.host_id);
        }
        m.urls.prefetched_leases[leased_row_id(st)] = std::move(row);
    }
    st.reset();
    if (ahead)
        read_result_rows(m, sent);
    else
        prefetch_result_rows(m, queue_ids, host_ids);
}


void Store::Impl::prefetch_seed_hosts(const std::vector<int64_t>& host_ids) {
    PgArray arr;
    std::unordered_set<int64_t> asked;
    for (int64_t h : host_ids)
        if (!seed_hosts.contains(h) && !other_hosts.contains(h) && asked.insert(h).second) arr.add(h);
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

void PgStoreBackend::prefetch_result_rows(Store::Impl& m, const std::vector<int64_t>& queue_ids,
                                          const std::vector<int64_t>& host_ids) {
    std::vector<int64_t> qids;
    std::unordered_set<int64_t> asked;
    for (int64_t id : queue_ids)
        if (!m.totals.fetch_deltas.count(id) && !m.prefetched_queues.count(id) && asked.insert(id).second)
            qids.push_back(id);
    PgArray hosts;
    asked.clear();
    for (int64_t id : host_ids)
        if (!m.crawl_delays.contains(id) && asked.insert(id).second) hosts.add(id);
    // Both sent, then read: on PostgreSQL one round trip for the two.
    ResultRowsSent sent;
    if (hosts.size()) {
        sent.hosts = &st_.q(kHostDelays.c_str());
        sent.hosts->bind(1, hosts).send();
    }
    if (!qids.empty()) sent.queues = &send_queues(qids);
    read_result_rows(m, sent);
}

PgStoreBackend::ResultRowsSent PgStoreBackend::send_result_rows(const PgArray& url_ids) {
    static const std::string queues_of_urls = probe_of_urls_sql("queues", "queue_id", QueueRows::info_columns());
    ResultRowsSent sent;
    sent.hosts = &st_.q(kHostDelaysOfUrls.c_str());
    sent.hosts->bind(1, url_ids).send();
    sent.queues = &st_.q(queues_of_urls.c_str());
    sent.queues->bind(1, url_ids).send();
    return sent;
}

// Rows already known are left as they are: a queue with a delta, or read
// before, and a host's cached Crawl-delay.
void PgStoreBackend::read_result_rows(Store::Impl& m, const ResultRowsSent& sent) {
    enum class C { id, crawl_delay };
    if (sent.hosts) {
        while (sent.hosts->step()) {
            SqlRow<C> row(*sent.hosts);
            const int64_t id = row.i64(C::id);
            if (!m.crawl_delays.contains(id)) m.crawl_delays.put(id, row.opt_dbl(C::crawl_delay));
        }
        sent.hosts->reset();
    }
    if (sent.queues)
        for (QueueInfo& qi : read_sent_queues(*sent.queues))
            if (!m.totals.fetch_deltas.count(qi.id) && !m.prefetched_queues.count(qi.id))
                m.prefetched_queues.emplace(qi.id, std::move(qi));
}

}  // namespace frontier
