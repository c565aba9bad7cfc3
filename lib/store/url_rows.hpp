// Private to the storage module (lib/store/): URL rows and their
// fingerprints as one transaction reads and writes them: rows read ahead
// (by fingerprint for frontier-add, by lease for frontier-done), new rows
// inserted in batches, frontier-done's updates held until flush, and the
// count of fingerprints waiting in url_fps_new (frontier(7), FILE FORMAT).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "policy/outcome.hpp"
#include "policy/readd.hpp"
#include "store/array_param.hpp"
#include "store/queue_rows.hpp"
#include "store/statements.hpp"
#include "store/url_updates.hpp"

namespace frontier {

// FRONTIER_FP_BUFFER (frontier(7), ENVIRONMENT): how many fingerprints
// url_fps_new holds before they move to url_fps (default 1,048,576, ~16 MiB).
// Throws UsageError for a value that is not a whole number from 1 to 2^40.
int64_t fp_buffer_limit();

// A new URL row's columns, in order, for both ways of inserting it (one
// INSERT per row, or one array per column: UrlRows::batch_inserts).
#define SQL_NEW_URL_COLUMNS                                                                                   \
    "fp, url, queue_id, host_id, rank, priority, tier, tier_key, cost, cls, depth, type, discovery, via, meta, " \
    "recrawl, last_modified, added_at"
inline constexpr int kNewUrlColumns = 18;

// A stored URL row as Store::add_url reads it (lib/store/store_add.cpp).
struct KnownUrl {
    int64_t id = 0, queue_id = 0;
    std::string url;
    StoredUrl stored;  // what a record may change (lib/policy/readd.hpp)
};

// A URL row a result may end, as Store::finish reads it (lib/store/store_done.cpp).
struct LeasedRow {
    std::string url;
    int64_t queue_id = 0, host_id = 0, depth = 0;
    int64_t state = 0, lease_seq = 0;
    bool expiry_set = false, due_set = false;  // lease_expires, due_at not NULL
    UrlHistory history;
    // Leased under the lease with this sequence number.
    bool leased(int64_t seq) const { return state == static_cast<int>(UrlState::leased) && lease_seq == seq; }
    // Back in its queue (that lease expired) and not leased again since.
    bool late(int64_t seq) const {
        return state == static_cast<int>(UrlState::queued) && lease_seq == seq && expiry_set && !due_set;
    }
};

class UrlRows {
public:
    // `queues`: a URL row made queued and due enters the lease order there.
    UrlRows(Statements& statements, QueueRows& queues) : statements_(statements), queues_(queues) {}

    // PostgreSQL, frontier-add: the URL rows of a chunk's fingerprints, read
    // in one statement (Store::prefetch_fingerprints) so that add_url needs no
    // query per URL. A fingerprint in the map is known for this transaction:
    // its rows (none: not stored). add_url drops a fingerprint whose row it
    // writes, so the next record with it reads the row again. Cleared at
    // commit and rollback.
    std::unordered_map<int64_t, std::vector<KnownUrl>> prefetched;
    // Rows read ahead by Store::prefetch_leases, by URL id (none: no such
    // row); each is used once, and dropped when the row is written
    // otherwise (add_known). Cleared at commit and rollback.
    std::unordered_map<int64_t, std::optional<LeasedRow>> prefetched_leases;

    // PostgreSQL, frontier-add (once prefetch_fingerprints was called): new
    // URL rows are collected as one array per column and inserted
    // together, one statement per kPendingRows rows (unnest), before any
    // read of the urls table and at commit; `behind` the next chunk's
    // fingerprint probe when none of their fingerprints is probed for
    // (Store::prefetch_fingerprints). Cleared at rollback.
    bool batch_inserts = false;
    std::vector<PgArray> pending_cols;
    PgArray pending_ids;                 // their ids, given here (last_url_id_sql)
    std::optional<int64_t> last_url_id;  // the last id given (or stored); this transaction's
    size_t pending_rows = 0;
    std::unordered_set<int64_t> pending_fps;
    static constexpr size_t kPendingRows = 2048;
    const char* last_url_id_sql();
    void read_last_url_id(Stmt& st) {
        last_url_id = st.step() ? st.i64(0) : 0;
        st.reset();
    }
    void flush_pending_urls(bool behind = false);

    int64_t fps_buffered = 0;  // fingerprints this transaction put in url_fps_new
    int64_t fps_to_move = 0;   // in url_fps_new after the commit, to move to url_fps
    // Counts them in meta (fps_new); sets fps_to_move once it holds
    // fp_buffer_limit() of them.
    void count_fingerprints();

    // frontier-done's URL-row updates, written in row-id order by
    // flush_updates (see url_updates.hpp). Code that reads a URL row in a
    // transaction that may hold one calls settle first.
    PendingUrlUpdates updates;
    void write_update(const UrlUpdate& u);
    void settle(int64_t id) {
        if (auto u = updates.take(id)) write_update(*u);
    }
    // SQLite: one UPDATE per row; PostgreSQL: one per kPendingRows rows
    // (arrays, unnest; flush_updates_set, lib/store/pg/store_batch.cpp).
    void flush_updates();
    void flush_updates_set();

    // Forgets what the transaction held (rollback).
    void clear();

private:
    Statements& statements_;
    QueueRows& queues_;
    std::string last_url_id_text_, insert_urls_text_;  // built once, from the backend's sequence SQL
};

}  // namespace frontier
