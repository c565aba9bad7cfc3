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
#include "policy/recrawl.hpp"
#include "store/store.hpp"
#include "store/queue_rows.hpp"
#include "store/seen_fps.hpp"
#include "store/statements.hpp"
#include "store/url_updates.hpp"

namespace frontier {

// FRONTIER_FP_BUFFER (frontier(7), ENVIRONMENT): how many fingerprints
// url_fps_new holds before they move to url_fps (default 262,144, the same
// at every size of the frontier). Throws UsageError for a value that is not
// a whole number from 1 to 2^40.
int64_t fp_buffer_limit();

// A new URL row's columns, in order, for every way of inserting it (one
// INSERT per row, or many rows per statement: StoreBackend::insert_url).
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

// A new URL row as Store::add_url makes it (lib/store/store_add.cpp),
// inserted by the backend (StoreBackend::insert_url).
struct NewUrl {
    const AddRequest& r;
    int64_t queue_id, host_id;
    double rank;
    Tier tier;
    int64_t cls;
    // Calls `put(column number from 1, value)` for each column; a text
    // column's value is std::optional<std::string_view> (empty text: NULL).
    template <class Put>
    void columns(Put&& put) const {
        auto text = [](const std::string& v) {
            return v.empty() ? std::optional<std::string_view>() : std::optional<std::string_view>(v);
        };
        put(1, static_cast<int64_t>(r.fp));
        put(2, std::optional<std::string_view>(r.url.url));
        put(3, queue_id);
        put(4, host_id);
        put(5, rank);
        put(6, r.priority);
        put(7, static_cast<int64_t>(tier.tier));
        put(8, tier.key);
        put(9, r.cost);
        put(10, cls);
        put(11, r.record.depth);
        put(12, text(r.record.type));
        put(13, text(r.record.discovery));
        put(14, text(r.record.via));
        put(15, text(r.record.meta));
        put(16, static_cast<int64_t>(r.recrawl ? 1 : 0));
        put(17, r.record.last_modified);
        put(18, r.now);
    }
    static constexpr int kColumns = kNewUrlColumns;
};

class UrlRows {
public:
    // `queues`: a URL row made queued and due enters the lease order there.
    UrlRows(Statements& statements, QueueRows& queues, StoreBackend& backend)
        : seen(statements, backend.url_ids_follow_commits()),
          statements_(statements),
          queues_(queues),
          backend_(backend) {}

    // The filter in front of the fingerprint probe (Store::Impl::find_known):
    // told of every URL row the backend inserts (StoreBackend::insert_url)
    // and of every transaction's end.
    SeenFps seen;

    // frontier-add: the URL rows of a chunk's fingerprints read ahead
    // (StoreBackend::probe_fingerprints) so that add_url needs no query per
    // URL. A fingerprint in the map is known for this transaction: its rows
    // (none: not stored). add_url drops a fingerprint whose row it writes,
    // so the next record with it reads the row again. Cleared at commit and
    // rollback.
    std::unordered_map<int64_t, std::vector<KnownUrl>> prefetched;
    // Rows read ahead by Store::prefetch_leases, by URL id (none: no such
    // row); each is used once, and dropped when the row is written
    // otherwise (add_known). Cleared at commit and rollback.
    std::unordered_map<int64_t, std::optional<LeasedRow>> prefetched_leases;

    int64_t fps_buffered = 0;  // fingerprints this transaction put in url_fps_new, not yet counted
    int64_t fps_added = 0;     // fingerprints this transaction counted in meta
    int64_t fps_to_move = 0;   // in url_fps_new after the commit, to move to url_fps
    // Counts them in meta (fps_new); sets fps_to_move once it holds
    // fp_buffer_limit() of them; tells the filter (SeenFps::rows_written).
    void count_fingerprints();

    // frontier-done's URL-row updates, written in row-id order by
    // flush_updates (see url_updates.hpp); write_update writes one. Code that reads a URL row in a
    // transaction that may hold one calls settle first.
    PendingUrlUpdates updates;
    void write_update(const UrlUpdate& u);
    void settle(int64_t id) {
        if (auto u = updates.take(id)) write_update(*u);
    }
    // Writes them, each backend its way (StoreBackend::write_url_updates).
    void flush_updates() { backend_.write_url_updates(*this); }

    // Forgets what the transaction held (rollback).
    void clear();

private:
    Statements& statements_;
    QueueRows& queues_;
    StoreBackend& backend_;
};

// The columns of a known URL row as add_url reads it (id, url, ..., fp),
// and the row at a statement's current step (lib/store/store_add.cpp).
const std::string& known_url_columns();
KnownUrl read_known_url(const Stmt& st);
int64_t known_url_fp(const Stmt& st);
// The columns of a URL row as a result reads it (..., id last), the row at
// a statement's current step, and its id (lib/store/store_done.cpp).
const std::string& leased_row_columns();
LeasedRow read_leased_row(const Stmt& st);
int64_t leased_row_id(const Stmt& st);

}  // namespace frontier
