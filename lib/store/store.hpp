// The storage module: the only code that knows SQL and the schema of the
// frontier (an SQLite file in WAL mode, or a PostgreSQL database when the
// path is a postgresql:// URL; lib/store/db.hpp hides the difference). Every other
// part of the library talks to the frontier through this class.
//
// Process safety: many processes (on many machines, with PostgreSQL) may use
// one frontier at once. Writes happen in short transactions that exclude
// each other (begin()/commit(): BEGIN IMMEDIATE, or PostgreSQL's advisory
// lock); readers see committed data. Not thread-safe: one Store per thread.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/process_group.hpp"
#include "store/db.hpp"
#include "policy/model.hpp"
#include "policy/settings.hpp"

namespace frontier {

// Newest schema this build reads and writes. Older files are migrated
// forward on open by a writing tool; newer files are refused.
constexpr int kSchemaVersion = 9;

// What Store::finish decided for one result.
struct DoneOutcome {
    std::string result;  // done, retry, failed, blocked, stale, rejected
    std::string reason;
    std::string url;     // canonical URL of the leased row (or of the input)
    std::optional<double> next_visit;
    bool follow_links = false;  // a successful, non-stale fetch: enqueue links/location
    int64_t depth = 0;
    bool robots = false;
    std::vector<std::string> sitemaps;  // from a stored robots.txt
};


// What a result batch in partitions locks beside its URL leases' queues
// (Store::begin_result_batch): the keys of the queues its new links go to,
// and the hosts of its robots.txt leases (their queues).
struct BatchLocks {
    std::vector<std::string> link_queues;
    std::vector<int64_t> robots_hosts;
};

// Keys of the rows that discovered links may need (Store::prefetch_links),
// each list in any order, repeats allowed.
struct LinkRows {
    std::vector<std::string> queue_keys, host_keys, domains;
};

class Store {
public:
    // The store's state, defined and used only inside lib/store/
    // (store_impl.hpp), where each backend's operations work on it.
    struct Impl;
    struct LeaseRun;  // one lease call (lib/store/lease_run.hpp)
    enum class Mode { create, write, read };
    // Opens the frontier file or connects to the database. `create` makes
    // the file (or the tables in an existing database) when missing; `read`
    // and `write` need an existing frontier (IoError otherwise). Throws DbError for a
    // file with a newer schema than kSchemaVersion.
    Store(const std::string& path, Mode mode);
    ~Store();
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;

    // --- transactions -------------------------------------------------
    // A write transaction: it waits for other writers; or, `in_partitions`,
    // it runs beside those that lock partitions too, and its statements
    // lock the partitions they write (frontier(7), POSTGRESQL).
    void begin(bool in_partitions = false);
    void commit();  // flushes counters, then COMMIT
    void rollback();
    bool in_transaction() const { return in_tx_; }
    // How many transactions were rolled back: caches of what a transaction
    // wrote are void when it changes.
    uint64_t rollbacks() const { return rollbacks_; }

    // --- settings -----------------------------------------------------
    // The typed settings, reloaded when another process changed them.
    const Settings& settings();
    // Re-reads the settings version; reloads and returns true when changed.
    bool refresh_settings();
    // refresh_settings, the stored version already read (`version`) or not
    // (inside lib/store/: a backend that read it with other rows).
    bool refresh_settings(std::optional<int64_t> version);
    // The version of the settings loaded (changes with every reload).
    uint64_t settings_generation() const { return settings_generation_; }
    std::map<std::string, std::string> setting_values();  // stored (non-default) key -> JSON
    std::map<std::string, std::map<std::string, std::string>> domain_setting_values();
    // Stores a validated JSON value; bumps the settings version and moves
    // retired queues back to the inactive FIFO (frontier(7), BUDGETS). In its own transaction.
    void set_setting(const std::string& key, const std::string& json);
    // Sets a per-domain override; an empty `json` removes it.
    void set_domain_setting(const std::string& domain, const std::string& key, const std::string& json);

    // --- budgets (frontier(7), BUDGETS); each in its own transaction -----------------
    struct BudgetOverride {
        std::string scope;  // "domain" or "queue"
        std::string name;
        std::optional<int64_t> replenish, total;
    };
    std::vector<BudgetOverride> budget_overrides();
    // Sets (merges) an override of replenish and/or total for a domain (and
    // its subdomains) or one queue; a settings change (retired queues move
    // back to the inactive FIFO).
    void set_budget_override(const BudgetOverride& o);
    // The replenish amount and total budget in force for a queue: field by
    // field, its own override, then its host's and each parent domain's, then
    // the global settings (the rule the lease decisions use).
    struct BudgetValues {
        int64_t replenish = 3000;
        int64_t total = -1;
    };
    BudgetValues effective_budget(const std::string& queue_key);
    // Retires a queue by hand: it stays retired until unretire(). False when
    // no queue has that key.
    bool retire_queue(const std::string& key);
    // Queues with leases out now (hosts being fetched, with queue.key host).
    int64_t queues_in_flight();
    // Does a queue with this key exist?
    bool queue_exists(const std::string& key);
    // Does a queue of this domain or one of its subdomains exist (its key
    // the domain, or ending in ".domain", with or without a port)?
    bool domain_has_queues(const std::string& domain);
    // Moves a retired queue (by hand or by budget), or all of them when `key`
    // is empty, to the back of the inactive FIFO. Returns how many moved.
    int64_t unretire(const std::string& key);

    // --- adding URLs (inside begin/commit) ----------------------------
    AddResult add_url(const AddRequest& r);
    bool is_seed_domain(const std::string& domain);
    // Marks the domain and the host (scheme://authority) of a seed added:
    // scope.seed-domains then admits the domain's links, and with
    // net.seed-hosts the host's URLs may connect to local addresses
    // (frontier(7), ADDRESS GUARD).
    void add_seed(const std::string& domain, const std::string& host_key);
    int64_t count(std::string_view counter);  // maintained counters ("queued", "leased", ...)
    int64_t leases_out();  // count("leased") + count("robots_leased"), in one read
    // When a lease may next hand out a URL (frontier-crawl --max-wait):
    // `now` when a queue is ready, else the earliest wake time of a sleeping
    // queue (politeness) or due time of a queued URL waiting for its retry
    // or revisit; nullopt when there is neither. Leases out are not looked at.
    std::optional<double> next_lease_time(double now);

    // --- leasing (own transaction) --------------------------------------
    LeaseOutcome lease(LeaseRequest& req);

    // --- results (inside begin/commit) ----------------------------------
    // Applies one fetch result; see lib/frontier/done.hpp for the rules.
    DoneOutcome finish(const FetchFacts& f, double now);

    // Applies expired leases and due retries/revisits (done by lease and done);
    // true when it found any.
    bool housekeeping(double now);
    // Ends every lease out now (frontier-lease --reclaim): their URLs and
    // robots.txt prerequisites go back to their queues as if the leases had
    // expired. Its own transaction. Returns the leases ended.
    int64_t reclaim_leases(double now);
    // --- lease holders (frontier(7), LEASES) ---------------------------
    struct GoneHolder {
        int64_t pgid = 0;
        int64_t leases = 0;  // its leases ended (URLs and robots.txt)
    };
    struct HolderStart {
        std::optional<int64_t> holder;       // `me`'s row (nullopt: not recorded, or pending)
        bool pending = false;                // `me` is recorded by the next lease (Store::lease)
        std::vector<GoneHolder> reclaimed;   // gone groups that held leases
    };
    // At the start of a leasing tool: the holders recorded on `me.host` are
    // read (outside a transaction); when `gone` judges some provably gone,
    // one transaction ends their leases now as if expired (their URLs and
    // robots.txt prerequisites back to their queues), deletes those holder
    // rows and, with `record`, records `me`. Otherwise nothing is written:
    // with `record`, an equal row (same host, boot, group and leader) is
    // reused, or else `me` is `pending`: the next Store::lease records it
    // in its own transaction, before its first lease, and sets its
    // request's holder.
    HolderStart start_holder(const GroupRecord& me, bool record,
                             const std::function<bool(const GroupRecord&)>& gone, double now);
    // The latest expiry of the leases out (URLs and robots.txt), if any.
    std::optional<double> last_lease_expiry();

    // Changes whenever another connection commits to the frontier (PRAGMA
    // data_version; LISTEN/NOTIFY on PostgreSQL, no query): a cheap way for
    // a waiting tool to notice new work.
    int64_t data_version();
    // Where the backend can block for that (PostgreSQL): waits up to
    // `seconds` for data_version to change; false when it cannot wait so.
    bool can_wait_for_change() const;
    bool wait_for_change(double seconds);
    // A read-only Store watching others write (frontier-crawl): copies the
    // SQLite write-ahead log into the file now and then, so that the log
    // stays small and closing the frontier at the end (which copies the
    // rest and deletes the log) is quick. Waits for no one; PostgreSQL: no-op.
    void checkpoint_log();

    // Reads the stored rows of these fingerprints, and the host and queue
    // rows of these records, in one statement each, so that add_url for
    // them asks the database nothing more in this transaction (PostgreSQL,
    // where each read is a round trip; SQLite reads its own pages faster
    // than it would build the maps: no-op). Call inside a transaction. Those
    // their new URLs need and
    // are not stored are then created, for all of them at once. Only
    // records that add_url will add unless they are stored: nothing else
    // may reject them (scope, seed domains); with scope.max-queued set, no
    // row is made ahead.
    void prefetch_for_add(const std::vector<uint64_t>& fps, const std::vector<const AddRequest*>& reqs);
    // The same for discovered links, which make no row ahead: the URL rows
    // of `fps`, and the ids of the queue and host rows and the seed-domain
    // marks of `rows` that are stored and not cached (PostgreSQL; no-op on
    // SQLite). Call inside a transaction.
    void prefetch_links(const std::vector<uint64_t>& fps, const LinkRows& rows);

    // Reads the URL rows of these leases (the URL ids of their lease ids)
    // in one statement, so that finish() for them asks the database nothing
    // more (PostgreSQL; no-op on SQLite, as prefetch_for_add). Call inside
    // a transaction, with the leases of the results about to be finished.
    void prefetch_leases(const std::vector<int64_t>& url_ids);

    // --- sessions (lib/store/store_sessions.cpp) ------------------------
    // What the sessions of lib/frontier/ ask of the backend, so that they
    // never ask which backend it is. Written over the methods above.
    //
    // How many input records a session gathers before it stores them, so
    // that their rows are read together: many where each read is a round
    // trip to a server (PostgreSQL), one on SQLite.
    size_t records_read_together() const;
    // Begins the write transaction of a batch of results at `now`. Where a
    // read is a round trip, the settings version and the housekeeping scan
    // are sent ahead to go with the batch's first reads (two round trips
    // fewer, one under the writer lock); on SQLite the settings are
    // refreshed before BEGIN and housekeeping runs at once.
    // `in_partitions`: the batch only ends the leases it names
    // (DoneProcessor::runs_in_partitions) and results_in_partitions() said
    // it may run beside other writers (Store::begin). `locks`: the keys of
    // the queues its new links go to (runs_in_partitions), whose locks and
    // the partitions of the queues of those keys it holds too, and the
    // hosts of its robots.txt leases, whose queues' partitions it holds.
    void begin_result_batch(double now, bool in_partitions = false, BatchLocks locks = {});
    bool results_in_partitions() const;
    // After settle_result_batch: false when a queue of those keys was made
    // by another writer while the batch took its locks, in a partition it
    // did not lock then and another writer holds now (its links may not be
    // added): roll back, and begin the batch again under the writers' lock.
    bool link_queues_held();
    // After the first prefetch_leases of that batch: reads what
    // begin_result_batch sent (the settings reloaded when they moved,
    // housekeeping applied at `now`). True when housekeeping changed rows:
    // the prefetched leases were dropped, so read them again. Always false
    // on SQLite.
    bool settle_result_batch(double now);

    // SQLite's page cache for this connection (no effect on PostgreSQL).
    void set_page_cache_mib(int mib);

private:
    friend struct StoreConnection;  // the storage module's own parts (store_connection.hpp)
    struct QueueRow;
    struct HostRow;
    friend struct Impl;
    std::unique_ptr<Db> db_;
    std::unique_ptr<Impl> impl_;
    bool in_tx_ = false;
    uint64_t rollbacks_ = 0;
    uint64_t settings_generation_ = 0;
};

}  // namespace frontier
