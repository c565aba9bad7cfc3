// Private to the storage module (lib/store/): what each backend does its
// own way, stated as frontier operations. The store's parts decide what to
// read and write; a StoreBackend decides how many rows go in a statement,
// what is sent ahead and what is held until the next read. One
// implementation per backend, each in its folder (lib/store/sqlite/,
// lib/store/pg/), made once when the store opens (Db::store_backend).
// Not thread-safe: one per Store.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/store.hpp"

namespace frontier {

class Db;
class Statements;
struct HeadKey;
struct KnownUrl;
struct NewUrl;
struct NextSql;
struct QueueInfo;
struct LeaseRobotsRow;
struct MoveCursor;
class UrlRows;
class QueueRows;

class StoreBackend {
public:
    virtual ~StoreBackend() = default;

    // ---- sessions (Store, "sessions"): how a result batch starts and
    // how many input records are read together (store_sessions.cpp).
    virtual size_t records_read_together() const = 0;
    virtual void begin_result_batch(Store& store, Store::Impl& m, double now, bool in_partitions) = 0;
    virtual bool settle_result_batch(Store& store, Store::Impl& m, double now) = 0;
    // What a batch in partitions locks with the partitions of its URL
    // leases (Store::begin_result_batch), and whether the queues of its
    // links' keys are all in partitions it holds.
    virtual void lock_batch(BatchLocks) {}
    virtual bool link_queues_held() { return true; }
    // Whether this transaction in partitions locked the key `queue_key`.
    virtual bool holds_queue_key(std::string_view) const { return false; }

    // ---- URL rows and fingerprints (UrlRows)
    // The URL rows of a chunk's fingerprints, and the queue and host rows
    // of `reqs` (none: only the fingerprints), read ahead into
    // UrlRows::prefetched and the id caches (Store::prefetch_for_add); or
    // nothing, each URL then probed as it is added.
    virtual void probe_fingerprints(Store& store, Store::Impl& m, const std::vector<uint64_t>& fps,
                                    const std::vector<const AddRequest*>& reqs) = 0;
    // Store::prefetch_links: nothing, each URL then probed as it is added.
    virtual void probe_links(Store::Impl&, const std::vector<uint64_t>&, const LinkRows&) {}
    // A new URL row with its fingerprint pair (and its lease order entry
    // where the order is kept in tables), written now or held for a batch.
    virtual void insert_url(Store::Impl& m, const NewUrl& row) = 0;
    // Held new URL rows written (before a read of the urls table, at flush).
    virtual void write_new_urls(Store::Impl& m) = 0;
    // One transaction writes at a time and a new URL row takes an id above
    // every committed row's, so a process learns of the rows others
    // committed by reading those past the last id it has seen: a
    // fingerprint filter in memory (SeenFps) can then be kept exact.
    virtual bool url_ids_follow_commits() const { return false; }
    // frontier-done's held URL-row updates (UrlRows::updates) written.
    virtual void write_url_updates(UrlRows& urls) = 0;
    // The URL rows of these leases read ahead into UrlRows::prefetched_leases
    // (with their queue rows and Crawl-delays), or nothing (Store::prefetch_leases).
    virtual void read_leased_ahead(Store::Impl& m, const std::vector<int64_t>& url_ids) = 0;

    // ---- queue rows (QueueRows)
    // The rows of these queues (any order).
    virtual std::vector<QueueInfo> read_queues(QueueRows& queues, const std::vector<int64_t>& ids) = 0;
    // The lease order where it is kept apart from the urls table
    // (frontier(7), FILE FORMAT): the entry of URL row `id` leaves before a
    // write that may change its state, due time or order, and enters
    // after it if the row is queued and due; nothing where the order is an
    // index of urls.
    virtual void leave_lease_order(int64_t id) = 0;
    virtual void leave_lease_order(int64_t queue_id, const HeadKey& key) = 0;
    virtual void enter_lease_order(int64_t id) = 0;
    // Before a set-based update that makes queued and due every URL row
    // `rows_where` selects (a condition on urls, parameter 1: a time).
    virtual void enter_lease_order_where(const char* rows_where, double t) = 0;
    // A SELECT of a queue's best rank among its leasable URLs (parameter 1: its id).
    virtual const char* best_rank_sql() const = 0;

    // The SELECTs of a queue's next due URL over the lease order
    // (Store::LeaseRun::next_head).
    virtual const NextSql& next_head_sql() const = 0;

    // ---- totals (Totals, Store::Impl::flush)
    // The counters' deltas (name -> delta; zeros skipped) added.
    virtual void write_counters(const std::unordered_map<std::string, int64_t>& deltas) = 0;
    // frontier-done's queue deltas (Totals::fetch_deltas) written, each
    // queue rescheduled by the same UPDATE; the deltas cleared.
    virtual void write_fetch_deltas(Store::Impl& m) = 0;

    // ---- leases (Store::LeaseRun::lease_url)
    // A URL leased from its queue (its place in the order: `key`); and the
    // queue's row after it, `sched` its new scheduling position. Written
    // now or held until the next statement (Statements::q) or flush.
    virtual void write_lease(int64_t queue_id, const HeadKey& key, int64_t seq, double expires,
                             std::optional<int64_t> holder) = 0;
    virtual void write_queue_after_lease(const QueueInfo& qi, const LeaseItem& it, double now,
                                         int64_t sched) = 0;
    // Held writes (leases, new URL rows) written now (Store::Impl::flush).
    virtual void write_held(Store::Impl& m) = 0;

    // ---- a lease call (Store::lease, Store::LeaseRun)
    // After BEGIN and the pending holder: the housekeeping scan (at
    // req.now, where the clock is not read again at the lock) and the
    // settings refreshed, with whatever the backend sends ahead with them.
    virtual void begin_lease(Store& store, Store::Impl& m, const LeaseRequest& req) = 0;
    // The call's next page of ready queues read by the backend itself
    // (with their rows and heads): true; false: LeaseRun::load_page reads it.
    virtual bool load_page(Store::LeaseRun& run) = 0;
    // After load_page read the ids of a page's new queues: what the backend
    // reads of them ahead (rows, heads), or nothing.
    virtual void page_read(Store::LeaseRun& run, const std::vector<int64_t>& page) = 0;
    // The next queue of the inactive FIFO (id, key and total_spend at
    // least), none when it is empty; and its row once activated with
    // session balance `balance` (its state and balance stored).
    virtual std::optional<QueueInfo> next_inactive(Store::LeaseRun& run) = 0;
    virtual QueueInfo activated(Store::LeaseRun& run, QueueInfo ahead, int64_t balance) = 0;
    // A queue row, or a host's robots.txt row, as the call read or wrote
    // it: kept for the rest of the call where the backend reads ahead
    // (under the writer lock only the call changes them), else not.
    virtual void keep_queue_row(Store::LeaseRun& run, const QueueInfo& qi) = 0;
    virtual void keep_host_row(Store::LeaseRun& run, int64_t host_id, const LeaseRobotsRow& r) = 0;
    // The leases out as read in a write transaction (Leases::out): kept in
    // `kept` for the transaction where the backend keeps reads, else not.
    virtual void keep_out_count(std::optional<int64_t>& kept, int64_t n) = 0;
    // When the first lease out expires (LeaseOutcome::first_expiry), where
    // the backend knows it without a round trip more; else nullopt.
    virtual std::optional<double> first_lease_expiry(Store::Impl& m) = 0;

    // ---- reports (lib/store/store_report.cpp)
    // The queue counts of a summary read by a scan of the queue rows (where
    // a read costs no round trip that is faster than the aggregate, and
    // finds the top tables' ids in the same pass), else aggregated in SQL.
    virtual bool report_scans_queues() const = 0;

    // ---- partitions (frontier(7), POSTGRESQL)
    // Do lease calls, and result batches whose every record only ends its
    // URL's lease (no URL added, no robots.txt), run beside other writers,
    // in the partitions they lock (Store::begin(true))?
    virtual bool partitions_on() const { return false; }
    // The condition (" AND ...") that a column holding a queue id names a
    // queue of a partition the transaction holds (SQL_HELD); for "ready"
    // (SQL_HELD_READY), what stands in for the queues table after FROM:
    // the ready queues the lease locked, ending in "AS".
    virtual std::string held_condition(const char* /*queue_col*/) const { return {}; }

    // ---- transactions
    // After a commit that moved url_fps_new to url_fps (Store::commit):
    // the backend's own buffer tables moved the same way, at most about
    // `limit` rows, `chunk` a transaction, from where the last move stopped
    // (`from`, kept up to date); true when nothing of them is left to move.
    virtual bool move_buffered(Db& db, int64_t chunk, int64_t limit, MoveCursor& from) = 0;
    virtual void committed() = 0;    // after a commit
    virtual void rolled_back() = 0;  // after a rollback: what was held is forgotten
};

// The operations for the frontier at `path` (as Db::open picks its
// backend), over the store's statements.
std::unique_ptr<StoreBackend> make_store_backend(const std::string& path, Statements& st);
// Each backend's, defined in its folder.
std::unique_ptr<StoreBackend> make_sqlite_store_backend(Statements& st);
std::unique_ptr<StoreBackend> make_pg_store_backend(Statements& st);

}  // namespace frontier
