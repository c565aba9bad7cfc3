// The store's operations on an SQLite file (lib/store/store_backend.hpp):
// each row read and written as it goes, since a statement costs no round
// trip and SQLite reads its own pages faster than it would build a batch;
// the queued URLs' lease order kept in the tables url_next and url_next_new
// (frontier(7), FILE FORMAT; schema_def.hpp, kLeaseEntrySql).
#include <limits>
#include <memory>
#include <string>

#include "store/fetch_update_sql.hpp"
#include "store/lease_run.hpp"
#include "store/move_in_key_order.hpp"
#include "store/schema_def.hpp"
#include "store/sql_codes.hpp"
#include "store/sql_columns.hpp"
#include "store/sqlite/sqlite_sql.hpp"
#include "store/store_impl.hpp"

namespace frontier {

namespace {

class SqliteStoreBackend final : public StoreBackend {
public:
    explicit SqliteStoreBackend(Statements& st) : st_(st) {}

    size_t records_read_together() const override { return 1; }
    // The settings refreshed before BEGIN, housekeeping at once.
    void begin_result_batch(Store& store, Store::Impl&, double now, bool) override {
        store.refresh_settings();
        store.begin();
        store.housekeeping(now);
    }
    bool settle_result_batch(Store&, Store::Impl&, double) override { return false; }

    // Each URL is probed as it is added.
    void probe_fingerprints(Store&, Store::Impl&, const std::vector<uint64_t>&,
                            const std::vector<const AddRequest*>&) override {}
    void insert_url(Store::Impl& m, const NewUrl& row) override;
    void write_new_urls(Store::Impl&) override {}
    // One writer at a time, and a new row's id is the largest plus one
    // (urls.id is the row id; the tools never delete a URL row, and the
    // filter checks that the last row it saw is still there).
    bool url_ids_follow_commits() const override { return true; }
    void write_url_updates(UrlRows& urls) override {
        urls.updates.drain([&urls](const UrlUpdate& u) { urls.write_update(u); });
    }
    void read_leased_ahead(Store::Impl&, const std::vector<int64_t>&) override {}

    std::vector<QueueInfo> read_queues(QueueRows& queues, const std::vector<int64_t>& ids) override {
        std::vector<QueueInfo> rows;
        for (int64_t id : ids) rows.push_back(queues.row(id));
        return rows;
    }
    void leave_lease_order(int64_t id) override {
        for (const char* sql : kLeaseLeaveSql) st_.q(sql).bind(1, id).exec();
    }
    void leave_lease_order(int64_t queue_id, const HeadKey& k) override {
        for (const char* sql : kLeaseLeaveByKeySql)
            st_.q(sql)
                .bind(1, queue_id)
                .bind(2, k.rank)
                .bind(3, k.tier)
                .bind(4, k.tier_key)
                .bind(5, k.cost)
                .bind(6, k.id)
                .exec();
    }
    void enter_lease_order(int64_t id) override { st_.q(kLeaseEntrySql).bind(1, id).exec(); }
    void enter_lease_order_where(const char* rows_where, double t) override {
        // OR IGNORE: SQLite keeps no statement journal for it (no row it
        // selects has an entry: none is queued and due before the update).
        st_.db.prepare(std::string("INSERT OR IGNORE INTO url_next_new SELECT " SQL_ORDER_ENTRY " FROM urls WHERE ") +
                       rows_where)
            .bind(1, t)
            .exec();
    }
    // The first of the queue's two key ranges.
    const char* best_rank_sql() const override {
        return "SELECT rank FROM url_next WHERE queue_id = ?1 UNION ALL "
               "SELECT rank FROM url_next_new WHERE queue_id = ?1 ORDER BY 1 LIMIT 1";
    }

    const NextSql& next_head_sql() const override { return kNextByTables; }

    void write_counters(const std::unordered_map<std::string, int64_t>& deltas) override {
        for (const auto& [name, d] : deltas) {
            if (d == 0) continue;
            st_.q("INSERT INTO counters(name, n) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET n = counters.n + "
                  "excluded.n")
                .bind(1, name)
                .bind(2, d)
                .exec();
        }
    }
    void write_fetch_deltas(Store::Impl& m) override;

    void write_lease(int64_t queue_id, const HeadKey& key, int64_t seq, double expires, std::optional<int64_t> holder) override {
        leave_lease_order(queue_id, key);
        st_.q("UPDATE urls SET state = " SQL_URL_LEASED ", lease_seq = ?, attempts = attempts + 1, lease_expires = ?, "
              "holder = ? WHERE id = ?")
            .bind(1, seq).bind(2, expires).bind(3, holder).bind(4, key.id).exec();
    }
    void write_queue_after_lease(const QueueInfo& qi, const LeaseItem& it, double now, int64_t sched) override {
        st_.q("UPDATE queues SET in_flight = in_flight + 1, queued = queued - 1, served = ?1, last_dequeue_at = ?2, "
              "last_peek_url = ?3, session_balance = session_balance - ?4, total_spend = total_spend + ?4, "
              "last_cost = ?4, cost_count = cost_count + 1, best = ?5, sched = ?6 WHERE id = ?7")
            .bind(1, qi.served).bind(2, now).bind(3, it.url).bind(4, it.cost).bind(5, qi.best)
            .bind(6, sched).bind(7, qi.id).exec();
    }
    void write_held(Store::Impl&) override {}

    // --follow reads the clock again once the lock is held: the scan then
    // runs at that later time (Store::housekeeping).
    void begin_lease(Store& store, Store::Impl& m, const LeaseRequest& req) override {
        if (!req.now_at_lock) m.send_due_work(req.now);
        store.refresh_settings();
    }
    // Each page, row and head read as it is needed.
    bool load_page(Store::LeaseRun&) override { return false; }
    void page_read(Store::LeaseRun&, const std::vector<int64_t>&) override {}
    std::optional<QueueInfo> next_inactive(Store::LeaseRun& run) override;
    QueueInfo activated(Store::LeaseRun& run, QueueInfo ahead, int64_t) override { return run.m.queues.row(ahead.id); }
    void keep_queue_row(Store::LeaseRun&, const QueueInfo&) override {}
    void keep_host_row(Store::LeaseRun&, int64_t, const LeaseRobotsRow&) override {}
    void keep_out_count(std::optional<int64_t>&, int64_t) override {}
    std::optional<double> first_lease_expiry(Store::Impl& m) override { return m.leases.read_first_expiry(); }

    // The entries of url_next_new into url_next in key order from where the
    // last move stopped, 65,536 per transaction, until url_next_new is
    // empty or `limit` moved (move_in_key_order). Run after the move of the
    // fingerprints: the URLs added since the last move are most of its
    // entries (the others, URLs queued again, move with them).
    bool move_buffered(Db& db, int64_t chunk, int64_t limit, MoveCursor& from) override {
        return move_in_key_order(db, "url_next_new", SQL_ORDER_KEY, "ididii", chunk, limit, from,
                                 [&](const std::string& where, auto& bound, bool) {
                                     bound(db.prepare(move_lease_order_sql(where))).exec();
                                     bound(db.prepare("DELETE FROM url_next_new" + where)).exec();
                                 });
    }
    bool report_scans_queues() const override { return true; }
    void committed() override {}
    void rolled_back() override {}

private:
    Statements& st_;
};

// With its fingerprint and id (frontier(7), FILE FORMAT), given without a
// RETURNING clause, which costs a temporary table per row.
void SqliteStoreBackend::insert_url(Store::Impl& m, const NewUrl& row) {
    Stmt& ins = st_.q("INSERT INTO urls(" SQL_NEW_URL_COLUMNS ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    row.columns([&](int i, const auto& v) { ins.bind(i, v); });
    ins.exec();
    const AddRequest& r = row.r;
    st_.q("INSERT INTO url_fps_new(fp, id) VALUES (?, last_insert_rowid())").bind(1, static_cast<int64_t>(r.fp)).exec();
    m.urls.seen.inserted(r.fp);
    // And its lease order entry: a new URL is queued and due. The inserts
    // into those two tables (WITHOUT ROWID) leave last_insert_rowid() as it was.
    st_.q("INSERT INTO url_next_new VALUES (?, ?, ?, ?, ?, last_insert_rowid(), ?, ?)")
        .bind(1, row.queue_id)
        .bind(2, row.rank)
        .bind(3, row.tier.tier)
        .bind(4, row.tier.key)
        .bind(5, r.cost)
        .bind(6, static_cast<int64_t>(r.recrawl ? 1 : 0))
        .bind(7, row.cls)
        .exec();
}

// Each queue's deltas in one UPDATE, which also reschedules it: no queue
// row is read back.
void SqliteStoreBackend::write_fetch_deltas(Store::Impl& m) {
    static const std::string sql = fetch_update_sql(fetch_param, " WHERE id = " + fetch_param(kQueueId));
    for (auto& [qid, d] : m.totals.fetch_deltas) {
        Stmt& st = st_.q(sql.c_str());
        fetch_columns(qid, d, m.settings.loaded->politeness_for(d.key),
                      [&](int col, auto value) { st.bind(col + 1, value); });
        st.bind(kNowParam, m.now).exec();
    }
    m.totals.fetch_deltas.clear();
    m.prefetched_queues.clear();
}

std::optional<QueueInfo> SqliteStoreBackend::next_inactive(Store::LeaseRun& run) {
    enum class C { id, key, total_spend };
    Stmt& q = run.m.q("SELECT id, key, total_spend FROM queues WHERE state = " SQL_QUEUE_INACTIVE
                      " ORDER BY inactive_seq LIMIT 1");
    if (!q.step()) {
        q.reset();
        return std::nullopt;
    }
    SqlRow<C> row(q);
    QueueInfo ahead;
    ahead.id = row.i64(C::id);
    ahead.key = row.str(C::key);
    ahead.total_spend = row.i64(C::total_spend);
    q.reset();
    return ahead;
}

}  // namespace

std::unique_ptr<StoreBackend> make_sqlite_store_backend(Statements& st) {
    return std::make_unique<SqliteStoreBackend>(st);
}

}  // namespace frontier
