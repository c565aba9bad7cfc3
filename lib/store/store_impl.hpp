// Private to the storage module (lib/store*.cpp): cached statements,
// in-memory caches and counter deltas of one Store.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "policy/budget_limits.hpp"
#include "policy/outcome.hpp"
#include "policy/readd.hpp"
#include "store/pg/pg_text.hpp"
#include "store/schema_def.hpp"
#include "store/store.hpp"
#include "store/url_updates.hpp"
#include "web/robots.hpp"

namespace frontier {

// FRONTIER_FP_BUFFER (frontier(7), ENVIRONMENT): how many fingerprints
// url_fps_new holds before they move to url_fps (default 1,048,576, ~16 MiB).
// Throws UsageError for a value that is not a whole number from 1 to 2^40.
int64_t fp_buffer_limit();
// The statement that moves the pairs of url_fps_new (those `where` selects,
// " WHERE ..." or empty) to url_fps, in key order. SQLite: OR IGNORE (no
// pair is ever in both tables) spares it a statement journal of every page
// the move changes, which it keeps in memory (temp_store): 18 MiB for
// 262,144 fingerprints. Inline: frontier-import's object links without
// store.cpp (tests/fuzz/fuzz.mk).
inline std::string move_fingerprints_sql(const Db& db, const std::string& where) {
    return std::string(db.statements_are_round_trips() ? "INSERT" : "INSERT OR IGNORE") +
           " INTO url_fps(fp, id) SELECT fp, id FROM url_fps_new" + where + " ORDER BY fp, id";
}

// The statement that moves the entries of url_next_new (those `where`
// selects) to url_next in key order (schema_def.hpp, SQL_ORDER_KEY): OR
// IGNORE as move_fingerprints_sql (no entry is ever in both tables).
inline std::string move_lease_order_sql(const std::string& where) {
    return "INSERT OR IGNORE INTO url_next SELECT * FROM url_next_new" + where + " ORDER BY " SQL_ORDER_KEY;
}

// Entries kept in each per-process cache keyed by queue or host (ids,
// Crawl-delays): bounded memory on huge frontiers.
inline constexpr size_t kIdCacheMax = 20000;
// Queues whose pending deltas (frontier-add's queue_deltas, frontier-done's
// fetch_deltas) one transaction holds before writing them: one write per
// queue per transaction up to 16k hosts, bounded memory beyond (~2.5 MiB).
inline constexpr size_t kMaxPendingQueues = 16384;

struct QueueDelta {
    std::string key;  // the queue's key when known (a new URL's), else empty
    int64_t queued = 0;
    int64_t enqueued = 0;
    std::string last_url;
    std::optional<double> min_rank;
};

struct QueueInfo {
    int64_t id = 0;
    std::string key;
    int64_t state = 0;
    std::optional<double> best;
    double wake_at = 0;
    int64_t served = 0;
    int64_t in_flight = 0;
    int64_t queued = 0;
    int64_t session_balance = 0;
    int64_t total_spend = 0;
    int64_t n429 = 0;
};

// A stored URL row as Store::add_url reads it (lib/store/store_add.cpp).
// A budget override row (queue_budgets), as Store::refresh_settings reads it.
struct StoredBudget {
    std::string scope, name;
    std::optional<int64_t> replenish, total;
};

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

struct Store::Impl {
    explicit Impl(Db& d) : db(d) {}
    Db& db;
    double now = 0;

    // Statements prepared once and reused, keyed by their SQL literal.
    // Held lease writes (lease_writes) are written before any other statement.
    std::unordered_map<const char*, Stmt> stmts;
    Stmt& q(const char* sql) {
        if (lease_writes.held() && !lease_writes.writing) flush_lease_writes();
        return q_unflushed(sql);
    }
    // q for a read whose rows no held lease write changes (hosts' seed
    // flags, a queue's heads after the last one taken): they stay held.
    Stmt& q_unflushed(const char* sql) {
        auto it = stmts.find(sql);
        if (it == stmts.end()) it = stmts.emplace(sql, db.prepare(sql)).first;
        it->second.reset();
        return it->second;
    }

    // Where a statement is a round trip (PostgreSQL), frontier-lease: the
    // writes of the URLs a lease call takes, held and written set-based
    // (lib/store/store_batch.cpp) before the next other statement
    // (q) and at flush: one UPDATE of the URL rows, one of the queue rows
    // (each queue's leases summed), instead of two UPDATEs per URL.
    // Cleared at rollback.
    struct LeaseWrites {
        PgArray ids, seqs, expires, holders;  // one element per leased URL
        struct Queue {                        // the URLs leased from one queue
            int64_t n = 0, cost = 0, last_cost = 0, served = 0, sched = 0;
            double at = 0;
            std::string last_url;
            std::optional<double> best;
        };
        std::map<int64_t, Queue> queues;  // by id: rows locked in id order
        bool writing = false;
        bool held() const { return ids.size() != 0 || !queues.empty(); }
        void clear() {
            ids.clear();
            seqs.clear();
            expires.clear();
            holders.clear();
            queues.clear();
        }
    } lease_writes;
    void flush_lease_writes();

    // A lease holder that Store::start_holder left to the next lease to
    // record (`me`, and the time of its start); recorded by
    // record_pending_holder inside that lease's transaction.
    std::optional<std::pair<GroupRecord, double>> pending_holder;
    // Sends the insert of the pending holder (its id read by
    // pending_holder_id once the next read brought it).
    void send_pending_holder();
    int64_t pending_holder_id();
    Stmt* holder_insert = nullptr;  // sent by send_pending_holder (q() would reset it)

    // What a lease transaction reads first, on PostgreSQL in one statement
    // with the settings version (read_lease_start, store_lease.cpp): the
    // serve_seq mark and the leases out (into serve_seq and
    // leases_out_stored), the heat counters' names (until both classes were
    // seen), meta 'class_run', whether any queue is inactive and when the
    // first lease out expires. Valid in that transaction only.
    struct LeaseStart {
        bool read = false;
        bool heat_read = false;
        std::vector<std::string> heat;
        std::optional<int64_t> class_run;
        bool inactive = true;  // some queue is inactive (read false: none)
        std::optional<double> first_expiry;  // of the URL and robots.txt leases out
    } lease_start;
    // Reads them; returns the stored settings version.
    int64_t read_lease_start();

    // Settings cache.
    std::optional<Settings> settings;
    int64_t settings_version = -1;
    BudgetOverrides budgets;

    // Caches valid for the life of the process: queues and hosts are never deleted.
    std::unordered_map<std::string, int64_t> queue_ids, host_ids;
    // host key -> (host id, queue id, queue key): one lookup per added URL
    // instead of two; the queue key is compared, as a settings change can
    // map a host to another queue.
    struct HostQueue {
        int64_t host_id, queue_id;
        std::string queue_key;
    };
    std::unordered_map<std::string, HostQueue> host_queues;
    std::unordered_set<std::string> seed_domains;
    // Host ids known to be seed hosts / not (yet) seed hosts. other_hosts
    // is cleared at the start of every lease call: a seed added meanwhile
    // by another process counts from the next call.
    std::unordered_set<int64_t> seed_hosts, other_hosts;
    // Hosts' robots.txt rules as parsed, with the robots_at they were
    // stored at (a robots.txt fetched again, by any process, is parsed
    // again); at most kRobotsCacheMax hosts.
    struct CachedRobots {
        double at = 0;
        RobotsRules rules;
    };
    static constexpr size_t kRobotsCacheMax = 1024;
    std::unordered_map<int64_t, CachedRobots> robots_cache;

    // Deltas flushed at commit.
    std::unordered_map<int64_t, QueueDelta> queue_deltas;
    std::unordered_map<std::string, int64_t> counter_deltas;

    // Counters of added URLs, kept apart from counter_deltas because they
    // change on every add (no string keys built per URL).
    int64_t added = 0;
    int64_t fps_buffered = 0;  // fingerprints this transaction put in url_fps_new
    int64_t fps_to_move = 0;   // in url_fps_new after the commit, to move to url_fps
    void count_fingerprints();
    void move_fingerprints();
    void move_lease_order();
    // Where the lease order is kept in tables (SQLite; frontier(7), FILE
    // FORMAT): the entry of URL row `id`, if it has one, leaves before a
    // statement that may change its state, due time or order, and enters
    // after it if the row is queued and due (schema_def.hpp,
    // kLeaseLeaveSql, kLeaseEntrySql). No-ops on PostgreSQL (its index).
    void leave_lease_order(int64_t id);
    // The same for a URL whose entry's key is known (a lease's head: no
    // read of its row; kLeaseLeaveByKeySql).
    void leave_lease_order(int64_t queue_id, double rank, int64_t tier, double tier_key, int64_t cost,
                           int64_t id);
    void enter_lease_order(int64_t id);
    // Before a set-based update that makes queued and due every URL row
    // `rows_where` selects (a condition on urls, parameter 1: a time):
    // their entries, in one statement.
    void enter_lease_order_where(const char* rows_where, double t);
    int64_t depth_added[4] = {0, 0, 0, 0};
    std::map<std::pair<std::string, std::string>, int64_t> heat_added;  // (discovery, type)
    std::map<std::pair<std::string, int>, int64_t> heat_depth_added;  // (discovery, depth 0..3): heatd:* counters

    void count(const std::string& name, int64_t d) { counter_deltas[name] += d; }

    // A set-based UPDATE of URL rows bound to one time (?1), for any number
    // of rows. PostgreSQL runs `all` in one statement. SQLite (whose
    // large updates run in chunks, Db::large_updates_in_chunks) runs `chunk`
    // (the same UPDATE, OR FAIL, on at most ?2 = kUpdateChunk rows) until it
    // changes fewer: one UPDATE of every row would keep the original of
    // every page it touches in a statement journal (200 MiB for 300k rows)
    // and its row ids in a list.
    static constexpr int64_t kUpdateChunk = 65536;
    void update_all(const char* all, const char* chunk, double t) {
        if (!db.large_updates_in_chunks()) {
            q(all).bind(1, t).exec();
            return;
        }
        do q(chunk).bind(1, t).bind(2, kUpdateChunk).exec();
        while (db.changes() >= kUpdateChunk);
    }
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
    Stmt* due_sent = nullptr;
    // The settings version read sent with a transaction's first read
    // (Store::send_settings_version), read by Store::refresh_sent_settings.
    Stmt* version_sent = nullptr;
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
    // Leases out now (counters leased + robots_leased), in one read. In a
    // write transaction on a round-trip backend the stored sum is read once
    // (no other writer can change it while the lock is held; reset by
    // begin, flush and rollback), the transaction's own deltas added to it.
    int64_t leases_out();
    std::optional<int64_t> leases_out_stored;
    // Both URL classes were ever added (LeaseRun::classes_added); once true, stays so.
    bool both_classes = false;
    // Store::add_url's parts (lib/store/store_add.cpp).
    std::optional<KnownUrl> find_known(const AddRequest& r);
    AddResult add_known(const Settings& s, const AddRequest& r, const KnownUrl& k);
    void add_new(const Settings& s, const AddRequest& r);
    // Store::finish's parts (lib/store/store_done.cpp).
    std::optional<LeasedRow> leased_row(int64_t id);
    // Rows read ahead by Store::prefetch_leases, by URL id (none: no such
    // row); each is used once, and dropped when the row is written
    // otherwise (add_known). Cleared at commit and rollback.
    std::unordered_map<int64_t, std::optional<LeasedRow>> prefetched_leases;
    bool leased_by_url(const Settings& s, const FetchFacts& f, DoneOutcome& o, int64_t& id, int64_t& seq);
    void finish_robots(const Settings& s, const FetchFacts& f, double now, DoneOutcome& o);
    void finish_url(const Settings& s, const FetchFacts& f, double now, int64_t id, const LeasedRow& row,
                    DoneOutcome& o);
    int64_t meta_next(const char* key);  // increments and returns a meta sequence
    // The next `served` mark (meta serve_seq): counted in memory during a
    // transaction (the write lock is held) and stored by flush().
    int64_t next_served();
    std::optional<int64_t> serve_seq;
    std::optional<int64_t> serve_seq_stored;  // as read: flush() writes serve_seq only when it moved
    // A queue's best (lowest) rank among its leasable URLs, none when empty.
    std::optional<double> best_rank(int64_t queue_id);
    void flush();                        // applies queue and counter deltas
    // Store::count in two steps: the stored counter's read sent ahead
    // (Stmt::send), then read from that statement with this transaction's
    // deltas added.
    Stmt& send_count(std::string_view name);
    int64_t read_count(std::string_view name, Stmt& st);
    QueueInfo queue(int64_t id);
    // Round-trip backends: the rows of many queues in one statement.
    std::vector<QueueInfo> queues(const std::vector<int64_t>& ids);
    // ... the same sent ahead (Stmt::send), and the rows of the queues of
    // URLs (an array of URL ids) sent ahead; either then read by read_queues.
    Stmt& send_queues(const std::vector<int64_t>& ids);
    Stmt& send_queues_of_urls(const PgArray& url_ids);
    std::vector<QueueInfo> read_queues(Stmt& st);
    // The columns of a queue row as read_queues reads them (id first), and
    // such a row.
    static const std::string& queue_info_columns();
    static QueueInfo read_queue_info(const Stmt& st);
    // Recomputes and stores a queue's scheduling position; returns it. The
    // QueueInfo form takes the row as just read (no second read).
    QueueSched reschedule(int64_t queue_id);
    QueueSched reschedule(const QueueInfo& qi);
    void reschedule_each(const std::vector<int64_t>& ids);  // reschedule(id) of each
    // The scheduling position of a queue in this state (reschedule's rule).
    QueueSched sched_for(const QueueInfo& qi);
    void refresh_best(int64_t queue_id);
    BudgetLimits budget_for(const std::string& queue_key);
    // The id of the row `sql` ("SELECT id FROM t WHERE key = ?") finds for `key`.
    std::optional<int64_t> find_id(const char* sql, const std::string& key);
    int64_t queue_id_for(const std::string& key, const Settings& s);
    int64_t host_id_for(const std::string& name);
    struct NewQueue {
        int64_t state;
        std::optional<int64_t> seq;  // inactive_seq
        int64_t balance;             // session_balance
    };
    NewQueue new_queue(const std::string& key, bool hold, int64_t seq);
    void remember_queue(const std::string& key, int64_t id);  // in queue_ids (bounded)
    void remember_host(const std::string& name, int64_t id);  // in host_ids (bounded)
    // Store::prefetch_for_add: rows for these queue and host keys, none stored.
    void create_rows(const std::vector<std::string>& queues, const std::vector<std::string>& hosts,
                     const Settings& s);
    bool is_seed_host(int64_t host_id);  // hosts.seed, cached (seed_hosts, other_hosts)
    void note_seed_host(int64_t host_id, bool seed);  // caches hosts.seed read with other columns
    // Round-trip backends: caches hosts.seed of many hosts in one statement.
    void prefetch_seed_hosts(const std::vector<int64_t>& host_ids);
    // Both ids of an added URL, through host_queues.
    std::pair<int64_t, int64_t> ids_for(const std::string& host_key, const std::string& queue_key, const Settings& s);
    // The host's rules stored at `at`: parsed from `text` unless cached.
    const RobotsRules& robots_rules(int64_t host_id, double at, std::string_view text);
    bool robots_cached(int64_t host_id, double at) const;
    void retire_all_to_inactive();
    void requeue_capped();
    // The budget overrides (queue_budgets rows, then domains' budget.*
    // settings) as Store::refresh_settings read them.
    void load_budgets(const std::vector<StoredBudget>& rows,
                      const std::map<std::string, std::map<std::string, std::string>>& domains);
    // Politeness after a fetch of queue `qid` (frontier(7), LEASES and POLITENESS): ends the in-flight
    // slot, sets the wake time (delay factor, Crawl-delay, Retry-After, 429
    // back-off), latency, error count and error penalty, adds the URL's new
    // state to the queue's counts (`ended`: done, failed, queued, or other
    // states that no queue count holds). Kept in fetch_deltas: the queue row
    // is read at its first result in a transaction and written, then
    // rescheduled, once at flush (a transaction of frontier-done holds
    // ~10 results per queue).
    void after_fetch(const Settings& s, int64_t qid, const FetchFacts& f, std::optional<double> crawl_delay,
                     bool unsuccessful, double now, UrlState ended);
    struct FetchDelta {
        std::string key;     // the queue's key, for its politeness settings
        int64_t n429 = 0;    // consecutive 429 answers, as of the last result
        double wake_at = 0;  // the latest wake time asked for
        int64_t ended = 0;   // in-flight slots ended
        int64_t ra_blocks = 0, errors = 0, penalty = 0, latency_n = 0, host_down = 0;
        double latency_sum = 0;
        int64_t done = 0, failed = 0, queued = 0;
        int64_t bytes = 0;   // response bytes of the queue's results (queues.bytes)
    };
    std::unordered_map<int64_t, FetchDelta> fetch_deltas;
    // Round-trip backends, frontier-done: queue rows read ahead with the
    // leased rows (Store::prefetch_leases), each used once by after_fetch
    // for a queue without a delta. Cleared by flush_fetches, commit, rollback.
    std::unordered_map<int64_t, QueueInfo> prefetched_queues;
    // ... and with them the queue rows and Crawl-delays those rows' results
    // read (after_fetch, crawl_delay), two statements for many rows: those
    // not known yet, after the leased rows (prefetch_result_rows), or, at a
    // transaction's first batch (nothing known yet), all of them, found
    // from the URL ids and sent ahead of the leased rows' read: one round
    // trip for the three (send_result_rows, then read_result_rows).
    void prefetch_result_rows(const std::vector<int64_t>& queue_ids, const std::vector<int64_t>& host_ids);
    struct ResultRowsSent {
        Stmt* hosts = nullptr;
        Stmt* queues = nullptr;
    };
    ResultRowsSent send_result_rows(const PgArray& url_ids);
    void read_result_rows(const ResultRowsSent& sent);  // either statement may be none
    void flush_fetches();
    void flush_fetches_set();
    void flush_counters();
    // frontier-done's URL-row updates, written in row-id order by flush()
    // (see url_updates.hpp). Code that reads a URL row in a transaction
    // that may hold one calls settle_url first.
    PendingUrlUpdates url_updates;
    void write_url_update(const UrlUpdate& u);
    void settle_url(int64_t id) {
        if (auto u = url_updates.take(id)) write_url_update(*u);
    }
    // SQLite: one UPDATE per row; PostgreSQL: one per kPendingRows rows
    // (arrays, unnest; lib/store/store_batch.cpp).
    void flush_url_updates();
    // PostgreSQL, frontier-add: the URL rows of a chunk's fingerprints, read
    // in one statement (Store::prefetch_fingerprints) so that add_url needs no
    // query per URL. A fingerprint in the map is known for this transaction:
    // its rows (none: not stored). add_url drops a fingerprint whose row it
    // writes, so the next record with it reads the row again. Cleared at
    // commit and rollback.
    std::unordered_map<int64_t, std::vector<KnownUrl>> prefetched;
    // PostgreSQL, frontier-add (once prefetch_fingerprints was called): new
    // URL rows are collected as one text array per column and inserted
    // together, one statement per kPendingRows rows (unnest), before any
    // read of the urls table and at commit; `behind` the next chunk's
    // fingerprint probe when none of their fingerprints is probed for
    // (Store::prefetch_fingerprints). Cleared at rollback.
    bool batch_inserts = false;
    std::vector<PgArray> pending_cols;
    PgArray pending_ids;                 // their ids, given here (last_url_id_sql)
    std::optional<int64_t> last_url_id;  // the last id given (or stored); this transaction's
    const char* last_url_id_sql();
    std::string last_url_id_text, insert_urls_text;  // built once, from the backend's sequence SQL
    void read_last_url_id(Stmt& st) {
        last_url_id = st.step() ? st.i64(0) : 0;
        st.reset();
    }
    size_t pending_rows = 0;
    std::unordered_set<int64_t> pending_fps;
    static constexpr size_t kPendingRows = 2048;
    void flush_pending_urls(bool behind = false);
    // Crawl-delay of a host (cached per transaction; robots results clear it).
    std::optional<double> crawl_delay(int64_t host_id);
    std::unordered_map<int64_t, std::optional<double>> crawl_delays;
    // The crawl's aggregates (frontier-report(1), CRAWL SUMMARY, OVER TIME):
    // counters crawl:*, visit:*, status:*, mime:*, mime-bytes:*, and one
    // timeline row per minute with a URL result, summed per transaction
    // and written by flush().
    struct TimelineDelta {
        int64_t pages = 0, bytes = 0, errors = 0;
    };
    std::map<int64_t, TimelineDelta> timeline_deltas;  // minute (now / 60) -> sums
    // Per-result deltas kept as numbers (no counter name built per result);
    // flush_timeline() turns them into counter deltas.
    struct CrawlDelta {
        int64_t pages = 0, bytes = 0, errors = 0, novel = 0, revisit = 0, not_modified = 0;
        std::unordered_map<int64_t, int64_t> statuses;
        std::unordered_map<std::string, std::pair<int64_t, int64_t>> mimes;  // raw Content-Type -> count, bytes
    } crawl_delta;
    void note_result(const FetchFacts& f, bool error, int64_t visits_before, double now);
    void flush_timeline();
};

}  // namespace frontier
