// The store's operations on PostgreSQL (lib/store/store_backend.hpp),
// where every statement is a round trip to the server: many rows per
// statement (arrays, unnest, primary-key probes through LATERAL joins),
// reads sent ahead to go with the next one, and a lease call's writes held
// and written set-based (frontier(7), POSTGRESQL). Private to lib/store/pg/.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "store/pg/pg_array.hpp"
#include "store/store_impl.hpp"

namespace frontier {

// The writes of the URLs a lease call takes, held and written set-based
// before the next other statement (Statements::q) and at flush: one UPDATE
// of the URL rows, one of the queue rows (each queue's leases summed),
// instead of two UPDATEs per URL. Cleared at rollback.
class PgLeaseWrites final : public HeldWrites {
public:
    PgArray ids, seqs, expires, holders;  // one element per leased URL
    struct Queue {                        // the URLs leased from one queue
        int64_t n = 0, cost = 0, last_cost = 0, served = 0, sched = 0;
        double at = 0;
        std::string last_url;
        std::optional<double> best;
    };
    std::map<int64_t, Queue> queues;  // by id: rows locked in id order

    bool held() const { return ids.size() != 0 || !queues.empty(); }
    bool due() const override { return held() && !writing_; }
    // Writes them (store_pg_writes.cpp), then clears them.
    void flush(Statements& st) override;
    void clear() {
        ids.clear();
        seqs.clear();
        expires.clear();
        holders.clear();
        queues.clear();
    }

private:
    bool writing_ = false;
};

class PgStoreBackend final : public StoreBackend {
public:
    explicit PgStoreBackend(Statements& st);

    size_t records_read_together() const override;
    void begin_result_batch(Store& store, Store::Impl& m, double now, bool in_partitions) override;
    bool partitions_on() const override { return partitions_; }
    std::string held_condition(const char* queue_col) const override;
    bool settle_result_batch(Store& store, Store::Impl& m, double now) override;
    void lock_batch(BatchLocks locks) override;
    bool link_queues_held() override;
    bool holds_queue_key(std::string_view key) const override { return locked_keys_.count(key) > 0; }

    void probe_fingerprints(Store& store, Store::Impl& m, const std::vector<uint64_t>& fps,
                            const std::vector<const AddRequest*>& reqs) override;
    void probe_links(Store::Impl& m, const std::vector<uint64_t>& fps, const LinkRows& rows) override;
    void insert_url(Store::Impl& m, const NewUrl& row) override;
    void write_new_urls(Store::Impl&) override { flush_pending_urls(); }
    void write_url_updates(UrlRows& urls) override;
    void read_leased_ahead(Store::Impl& m, const std::vector<int64_t>& url_ids) override;

    std::vector<QueueInfo> read_queues(QueueRows& queues, const std::vector<int64_t>& ids) override;
    // The lease order is the index urls_next: nothing to keep.
    void leave_lease_order(int64_t) override {}
    void leave_lease_order(int64_t, const HeadKey&) override {}
    void enter_lease_order(int64_t) override {}
    void enter_lease_order_where(const char*, double) override {}
    const char* best_rank_sql() const override;
    const NextSql& next_head_sql() const override;

    void write_counters(const std::unordered_map<std::string, int64_t>& deltas) override;
    void write_fetch_deltas(Store::Impl& m) override;

    void write_lease(int64_t queue_id, const HeadKey& key, int64_t seq, double expires, std::optional<int64_t> holder) override;
    void write_queue_after_lease(const QueueInfo& qi, const LeaseItem& it, double now, int64_t sched) override;
    void write_held(Store::Impl&) override {
        if (lease_writes_.held()) lease_writes_.flush(st_);
        flush_pending_urls();
    }

    void begin_lease(Store& store, Store::Impl& m, const LeaseRequest& req) override;
    bool load_page(Store::LeaseRun& run) override;
    void page_read(Store::LeaseRun& run, const std::vector<int64_t>& page) override;
    std::optional<QueueInfo> next_inactive(Store::LeaseRun& run) override;
    QueueInfo activated(Store::LeaseRun& run, QueueInfo ahead, int64_t balance) override;
    void keep_queue_row(Store::LeaseRun& run, const QueueInfo& qi) override;
    void keep_host_row(Store::LeaseRun& run, int64_t host_id, const LeaseRobotsRow& r) override;
    void keep_out_count(std::optional<int64_t>& kept, int64_t n) override { kept = n; }
    // As the lease's first read saw it (Leases::Start): a process's first
    // lease, which reads the settings instead, does not know it.
    std::optional<double> first_lease_expiry(Store::Impl& m) override {
        return m.leases.start.read ? m.leases.start.first_expiry : std::nullopt;
    }

    bool report_scans_queues() const override { return false; }
    bool move_buffered(Db&, int64_t, int64_t, MoveCursor&) override { return true; }  // the lease order is an index
    void committed() override {
        last_url_id_.reset();
        unheld_links_ = nullptr;
        locked_keys_.clear();
    }
    void rolled_back() override;

private:
    Statements& st_;
    PgLeaseWrites lease_writes_;
    // Leases and result batches run in partitions (FRONTIER_PG_PARTITIONS).
    bool partitions_ = false;
    // The next result batch's link queues and their key locks, and the
    // hosts of its robots.txt leases (lock_batch); the check sent after
    // its locks.
    PgArray link_queues_, link_locks_, robots_hosts_;
    Stmt* unheld_links_ = nullptr;
    // The keys this transaction locked.
    std::set<std::string, std::less<>> locked_keys_;

    // frontier-add (once probe_fingerprints was called): new URL rows
    // collected as one array per column and inserted together, one
    // statement per kPendingRows rows, before any read of the urls table
    // and at flush; `behind` the next chunk's fingerprint probe when none
    // of their fingerprints is probed for. Cleared at rollback.
    static constexpr size_t kPendingRows = 2048;
    bool batch_inserts_ = false;
    std::vector<PgArray> pending_cols_;
    PgArray pending_ids_;                 // their ids, given here (last_url_id_sql)
    std::optional<int64_t> last_url_id_;  // the last id given (or stored); this transaction's
    size_t pending_rows_ = 0;
    std::unordered_set<int64_t> pending_fps_;
    bool pending_in_parts_ = false;       // inserted in partitions: ids from the sequence
    std::string last_url_id_text_, insert_urls_text_;  // built once, from the backend's sequence SQL
    std::string insert_urls_seq_text_;                 // the same, ids from the sequence
    const char* last_url_id_sql();
    void read_last_url_id(Stmt& st) {
        last_url_id_ = st.step() ? st.i64(0) : 0;
        st.reset();
    }
    void flush_pending_urls(bool behind = false);
    void probe_fps(Store::Impl& m, const std::vector<uint64_t>& fps);
    void create_rows(Store::Impl& m, const std::vector<std::string>& queues, const std::vector<std::string>& hosts,
                     const Settings& s);

    // frontier-done: the queue rows and Crawl-delays of results' rows read
    // with them (read_leased_ahead).
    struct ResultRowsSent {
        Stmt* hosts = nullptr;
        Stmt* queues = nullptr;
    };
    ResultRowsSent send_result_rows(const PgArray& url_ids);
    void read_result_rows(Store::Impl& m, const ResultRowsSent& sent);
    void prefetch_result_rows(Store::Impl& m, const std::vector<int64_t>& queue_ids,
                              const std::vector<int64_t>& host_ids);
    Stmt& send_queues(const std::vector<int64_t>& ids);
    static std::vector<QueueInfo> read_sent_queues(Stmt& st);
};

}  // namespace frontier
