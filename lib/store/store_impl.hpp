// Private to the storage module (lib/store*.cpp): the state of one Store.
// Its parts each keep their own state (statements, settings, totals, queue
// rows, URL rows, leases; each given the others it needs at construction);
// Store::Impl holds one of each, the id and robots.txt caches, and runs the
// operations that span them: adding URLs, finishing results, housekeeping
// and the flush at commit.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <xxhash.h>

#include "policy/budget_limits.hpp"
#include "policy/outcome.hpp"
#include "policy/readd.hpp"
#include "store/bounded_cache.hpp"
#include "store/leases.hpp"
#include "store/move_in_key_order.hpp"
#include "store/queue_rows.hpp"
#include "store/schema_def.hpp"
#include "store/settings_cache.hpp"
#include "store/statements.hpp"
#include "store/store.hpp"
#include "store/store_backend.hpp"
#include "store/totals.hpp"
#include "store/url_rows.hpp"
#include "store/url_updates.hpp"
#include "web/robots.hpp"

namespace frontier {

// The statement that moves the pairs of url_fps_new (those `where` selects,
// " WHERE ..." or empty) to url_fps, in key order (no pair is ever in both
// tables: Db::Ddl::insert_new). Inline: frontier-import's object links
// without store.cpp (tests/fuzz/fuzz.mk).
inline std::string move_fingerprints_sql(const Db& db, const std::string& where) {
    return std::string(db.ddl().insert_new) + " INTO url_fps(fp, id) SELECT fp, id FROM url_fps_new" + where +
           " ORDER BY fp, id";
}

// The statement that moves the entries of url_next_new (those `where`
// selects) to url_next in key order (schema_def.hpp, SQL_ORDER_KEY): OR
// IGNORE as move_fingerprints_sql (no entry is ever in both tables).
inline std::string move_lease_order_sql(const std::string& where) {
    return "INSERT OR IGNORE INTO url_next SELECT * FROM url_next_new" + where + " ORDER BY " SQL_ORDER_KEY;
}

// Entries kept in each per-process cache keyed by queue or host (ids,
// Crawl-delays): bounded memory on huge frontiers (BoundedCache).
inline constexpr size_t kIdCacheMax = 20000;
// And in host_queues, which an add consults for every URL: a frontier-add
// of URLs over up to half this many hosts finds each host's ids and seed
// marks there after its first URL, instead of reading them again as the
// hosts pass through a smaller cache. About 70 bytes an entry: sized so
// that an add over a million hosts, which fills it, stays under frontier(7)'s
// memory bound.
inline constexpr size_t kHostQueueCacheMax = 131072;
// A new queue's `served` mark is its id less this: unique and negative, so
// never-served queues take turns in creation order, and (best, served)
// stays a unique key of the ready index.
inline constexpr int64_t kNewServedOffset = int64_t{1} << 40;
struct Store::Impl {
    // `make_backend`: the backend's operations (make_store_backend).
    template <class Make>
    Impl(Db& d, Make&& make_backend) : db(d), backend(make_backend(statements)) {}
    Db& db;
    double now = 0;

    Statements statements{db};
    std::unique_ptr<StoreBackend> backend;
    Stmt& q(const char* sql) { return statements.q(sql); }
    Stmt& q_unflushed(const char* sql) { return statements.q_unflushed(sql); }

    SettingsCache settings;

    // Caches valid for the life of the process: queues and hosts are never deleted.
    BoundedCache<std::string, int64_t> queue_ids{kIdCacheMax}, host_ids{kIdCacheMax};
    // host key -> (host id, queue id, queue key): one lookup per added URL
    // instead of two; the queue key is compared, as a settings change can
    // map a host to another queue. Keys are kept as hashes, so that an
    // entry is small and allocates no string: the host key's 128 bits (64
    // to find the entry, 64 checked), the queue key's 64 (a new queue key
    // that hashes as the old one is not a concern). `seed`: the host and
    // its domain are marked as a seed's (Store::add_seed).
    struct HostQueue {
        int64_t host_id, queue_id;
        uint64_t queue_key_hash;
        uint64_t host_key_check = 0;  // set by HostQueues::put
        bool seed = false;
        static uint64_t hash(std::string_view queue_key) { return XXH3_64bits(queue_key.data(), queue_key.size()); }
        bool serves(std::string_view queue_key) const { return hash(queue_key) == queue_key_hash; }
    };
    class HostQueues {
    public:
        HostQueue* find(std::string_view host_key) {
            const XXH128_hash_t h = XXH3_128bits(host_key.data(), host_key.size());
            HostQueue* hq = cache_.find(h.low64);
            return hq && hq->host_key_check == h.high64 ? hq : nullptr;
        }
        void put(std::string_view host_key, HostQueue hq) {
            const XXH128_hash_t h = XXH3_128bits(host_key.data(), host_key.size());
            hq.host_key_check = h.high64;
            cache_.put(h.low64, hq);
        }
        void clear() { cache_.clear(); }

    private:
        BoundedCache<uint64_t, HostQueue> cache_{kHostQueueCacheMax};
    };
    HostQueues host_queues;
    BoundedCache<std::string, bool> seed_domains{kIdCacheMax};
    // Domains found not to be seed domains in this transaction
    // (Store::prefetch_links); a seed added later counts from the next one.
    BoundedCache<std::string, bool> other_domains{kIdCacheMax};
    // Host ids known to be seed hosts / not (yet) seed hosts. other_hosts
    // is cleared at the start of every lease call: a seed added meanwhile
    // by another process counts from the next call.
    BoundedCache<int64_t, bool> seed_hosts{kIdCacheMax}, other_hosts{kIdCacheMax};
    // Hosts' robots.txt rules as parsed, with the robots_at they were
    // stored at (a robots.txt fetched again, by any process, is parsed
    // again); at most kRobotsCacheMax hosts.
    struct CachedRobots {
        double at = 0;
        RobotsRules rules;
    };
    static constexpr size_t kRobotsCacheMax = 1024;
    std::unordered_map<int64_t, CachedRobots> robots_cache;

    // After a commit that filled url_fps_new: its pairs, and the lease
    // order's new entries, moved to the main tables (store.cpp), a chunk
    // (or `added`, what the commit added, if more) after one commit, the
    // rest after the next ones.
    void move_buffers(int64_t added);
    int64_t fps_moving = 0;     // pairs of url_fps_new still to move
    bool order_moving = false;  // the lease order's new entries still to move
    MoveCursor fps_from, order_from;  // where the last moves stopped

    Totals totals{statements, *backend};
    QueueRows queues{statements, settings, now, *backend};
    UrlRows urls{statements, queues, *backend};
    Leases leases{statements, totals, *backend};
    void count(const std::string& name, int64_t d) { totals.count(name, d); }

    // Store::housekeeping's steps (lib/store/store_housekeeping.cpp): what
    // came due, read at once; then each step adds the queues it changed to
    // `touched`.
    struct DueWork {
        std::unordered_map<int64_t, int64_t> expired;             // queue id -> expired URL leases
        std::vector<std::pair<int64_t, int64_t>> robots;          // (host id, queue id) of expired robots.txt leases
        std::map<std::pair<int64_t, int64_t>, int64_t> due;       // (queue id, state) -> URLs due
        double at = 0;                                            // the time the scan was made for
    };
    DueWork due_work(double now);
    // Sends due_work's statement for `now` ahead (Stmt::send: on PostgreSQL
    // it goes with the transaction's first read); due_work then reads it
    // (for a time at or after `now`).
    void send_due_work(double now);
    // In a write transaction, where reads are round trips: the settings
    // version read sent ahead, to go with the transaction's first read; the
    // version it read (nullopt: nothing was sent, as no settings were
    // loaded), for Store::refresh_settings.
    void send_settings_version();
    std::optional<int64_t> sent_settings_version();
    // Forgets what Store::prefetch_leases read (rows a housekeeping then changed).
    void drop_prefetched_leases();
    Stmt* due_sent = nullptr;
    double due_sent_now = 0;
    // A lease's first page, sent with the transaction's first read
    // (Store::lease, PostgreSQL) and read by LeaseRun::load_page_ahead: the
    // page of ready queues, their heads and (robots.txt on somewhere) their
    // hosts. Dropped (drop_page_sent) when the housekeeping changed rows or
    // the settings changed.
    struct PageSent {
        Stmt* page = nullptr;
        Stmt* heads = nullptr;
        Stmt* hosts = nullptr;
    };
    std::optional<PageSent> page_sent;
    void drop_page_sent() {
        if (!page_sent) return;
        for (Stmt* st : {page_sent->page, page_sent->heads, page_sent->hosts})
            if (st) st->reset();
        page_sent.reset();
    }
    // Sleeping queues whose wake time is at or before `now` become ready.
    void wake_queues(double now);
    std::optional<double> woken_at;  // the clock of this transaction's last wake_queues
    void expire_url_leases(double now, const std::unordered_map<int64_t, int64_t>& expired,
                           std::unordered_set<int64_t>& touched);
    void expire_robots_leases(const std::vector<std::pair<int64_t, int64_t>>& rows, std::unordered_set<int64_t>& touched);
    void requeue_due(double now, const std::map<std::pair<int64_t, int64_t>, int64_t>& due,
                     std::unordered_set<int64_t>& touched);
    // Ends leases now as if expired: all, or those of `holders` (ids
    // listed in SQL, "3, 7"); housekeeping() then requeues them.
    void expire_now(double now, const std::string& holders);
    // Store::add_url's parts (lib/store/store_add.cpp).
    std::optional<KnownUrl> find_known(const AddRequest& r);
    AddResult add_known(const Settings& s, const AddRequest& r, const KnownUrl& k);
    void add_new(const Settings& s, const AddRequest& r);
    // Store::finish's parts (lib/store/store_done.cpp).
    std::optional<LeasedRow> leased_row(int64_t id);
    bool leased_by_url(const Settings& s, const FetchFacts& f, DoneOutcome& o, int64_t& id, int64_t& seq);
    void finish_robots(const Settings& s, const FetchFacts& f, double now, DoneOutcome& o);
    void finish_url(const Settings& s, const FetchFacts& f, double now, int64_t id, const LeasedRow& row,
                    DoneOutcome& o);
    void flush();                        // applies queue and counter deltas
    int64_t queue_id_for(const std::string& key, const Settings& s);
    int64_t host_id_for(const std::string& name);
    struct NewQueue {
        int64_t state;
        std::optional<int64_t> seq;  // inactive_seq
        int64_t balance;             // session_balance
    };
    NewQueue new_queue(const std::string& key, bool hold, int64_t seq);
    bool is_seed_host(int64_t host_id);  // hosts.seed, cached (seed_hosts, other_hosts)
    void note_seed_host(int64_t host_id, bool seed);  // caches hosts.seed read with other columns
    // Caches hosts.seed of many hosts in one statement (the PostgreSQL
    // lease's prefetch of its heads' hosts).
    void prefetch_seed_hosts(const std::vector<int64_t>& host_ids);
    // Both ids of an added URL, through host_queues.
    std::pair<int64_t, int64_t> ids_for(const std::string& host_key, const std::string& queue_key, const Settings& s);
    // The host's rules stored at `at`: parsed from `text` unless cached.
    const RobotsRules& robots_rules(int64_t host_id, double at, std::string_view text);
    bool robots_cached(int64_t host_id, double at) const;
    // Politeness after a fetch of queue `qid` (frontier(7), LEASES and POLITENESS): ends the in-flight
    // slot, sets the wake time (delay factor, Crawl-delay, Retry-After, 429
    // back-off), latency, error count and error penalty, adds the URL's new
    // state to the queue's counts (`ended`: done, failed, queued, or other
    // states that no queue count holds). Kept in fetch_deltas: the queue row
    // is read at its first result in a transaction and written, then
    // rescheduled, once at flush, however many of the transaction's results
    // are that queue's.
    void after_fetch(const Settings& s, int64_t qid, const FetchFacts& f, std::optional<double> crawl_delay,
                     bool unsuccessful, double now, UrlState ended);
    // Queue rows read ahead with the leased rows (Store::prefetch_leases,
    // StoreBackend::read_leased_ahead), each used once by after_fetch for
    // a queue without a delta. Cleared by flush_fetches, commit, rollback.
    std::unordered_map<int64_t, QueueInfo> prefetched_queues;
    void flush_fetches() { backend->write_fetch_deltas(*this); }
    // Crawl-delay of a host (cached per transaction; robots results clear it).
    std::optional<double> crawl_delay(int64_t host_id);
    BoundedCache<int64_t, std::optional<double>> crawl_delays{kIdCacheMax};

    // The open write transaction runs beside others, in the partitions it
    // locks (Store::begin(true); frontier(7), POSTGRESQL).
    bool in_partitions = false;
    // A lease's lock of partitions, sent with its first read (PostgreSQL).
    Stmt* parts_sent = nullptr;
    // `sql` (a static text with SQL_HELD marks), or in a transaction of
    // partitions the same with each mark replaced by the backend's
    // condition (made once per text).
    const char* held(const char* sql);
    std::unordered_map<const char*, std::string> held_sql;
};

}  // namespace frontier
