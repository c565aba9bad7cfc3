// Store: opening, transactions, the flush at commit, the moves of
// url_fps_new and url_next_new after it, and seeds. Settings and budgets
// are in store_settings.cpp, adding URLs in store_add.cpp, leasing in
// store_lease.cpp, results in store_done.cpp; the parts Store::Impl holds
// in their own files (store_impl.hpp).
#include "store/store.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <optional>
#include <utility>

#include "core/clock.hpp"
#include "core/env.hpp"
#include "core/error.hpp"
#include "policy/lease_ahead.hpp"
#include "policy/lease_order.hpp"
#include "store/move_in_key_order.hpp"
#include "store/schema.hpp"
#include "store/store_connection.hpp"
#include "store/sql_codes.hpp"
#include "store/sql_columns.hpp"
#include "store/store_impl.hpp"

namespace frontier {

Store::Store(const std::string& path, Mode mode) {
    if (mode != Mode::read) fp_buffer_limit();  // a bad FRONTIER_FP_BUFFER is a usage error at once
    db_ = Db::open(path, mode == Mode::create, mode == Mode::read);
    ensure_schema(*db_, mode != Mode::read);
    impl_ = std::make_unique<Impl>(*db_, [&path](Statements& st) { return make_store_backend(path, st); });
    impl_->now = frontier::now();
}

StoreBackend& store_backend(Store& store) { return *StoreConnection::impl_of(store).backend; }

Store::~Store() {
    if (in_tx_) {
        try {
            rollback();
        } catch (...) {
        }
    }
    db_->closing();
    impl_.reset();
}

void Store::begin(bool in_partitions) {
    if (in_partitions) db_->begin_write_shared();
    else db_->begin_write();
    impl_->in_partitions = in_partitions;
    impl_->parts_sent = nullptr;
    in_tx_ = true;
    impl_->now = frontier::now();
    impl_->leases.begin(in_partitions);
    impl_->due_sent = nullptr;
    impl_->settings.version_sent = nullptr;
    impl_->page_sent.reset();
    impl_->woken_at.reset();
    impl_->crawl_delays.clear();  // other processes may have stored robots.txt meanwhile
}

const char* Store::Impl::held(const char* sql) {
    if (!in_partitions) return sql;
    auto it = held_sql.find(sql);
    if (it != held_sql.end()) return it->second.c_str();
    std::string text(sql);
    for (size_t at; (at = text.find("/*held:")) != std::string::npos;) {
        const size_t end = text.find("*/", at);
        text.replace(at, end + 2 - at, backend->held_condition(text.substr(at + 7, end - at - 7).c_str()));
    }
    return held_sql.emplace(sql, std::move(text)).first->second.c_str();
}

void Store::commit() {
    impl_->flush();
    impl_->statements.reset_all();
    db_->commit();
    impl_->in_partitions = false;
    in_tx_ = false;
    impl_->backend->committed();
    impl_->urls.prefetched.clear();
    impl_->urls.prefetched_leases.clear();
    impl_->prefetched_queues.clear();
    impl_->other_domains.clear();
    impl_->urls.seen.committed();
    // After the commit, which stands whatever happens here: a move that
    // fails (busy past the timeout, the server gone) leaves its pairs in
    // url_fps_new, where lookups find them, for the next commit; a lost
    // connection ends the tool at its next statement. A move is spread
    // over the commits that follow the one that filled url_fps_new, a
    // chunk after each (as many as it added, if more), so a tool that
    // commits often (frontier-done in a crawl) never stops for a whole
    // move while others wait for their results and leases.
    Store::Impl& m = *impl_;
    if (m.urls.fps_to_move) {
        m.fps_moving = std::max(m.fps_moving, std::exchange(m.urls.fps_to_move, 0));
        m.order_moving = true;
    }
    const int64_t added = std::exchange(m.urls.fps_added, 0);
    if (m.fps_moving || m.order_moving) {
        try {
            m.move_buffers(added);
        } catch (const DbError&) {
        }
    }
}

void Store::rollback() {
    ++rollbacks_;
    impl_->prefetched_queues.clear();
    impl_->urls.clear();
    impl_->backend->rolled_back();
    impl_->totals.clear();
    impl_->leases.clear();
    impl_->due_sent = nullptr;
    impl_->settings.version_sent = nullptr;
    impl_->page_sent.reset();
    impl_->woken_at.reset();
    impl_->in_partitions = false;
    // Queues, hosts and seed domains created in the undone transaction are gone.
    impl_->queue_ids.clear();
    impl_->host_ids.clear();
    impl_->host_queues.clear();
    impl_->seed_domains.clear();
    impl_->other_domains.clear();
    impl_->seed_hosts.clear();
    impl_->other_hosts.clear();
    impl_->statements.reset_all();  // results and queued runs of the undone transaction
    in_tx_ = false;
    db_->rollback();
}


// ---------------------------------------------------------------- counters

int64_t Store::count(std::string_view name) {
    Stmt& st = impl_->q(kCounterRead);
    st.bind(1, name);
    return impl_->totals.read_count(name, st);
}



void Store::Impl::flush() {
    leases.forget_out();  // the counters are written below
    backend->write_held(*this);
    urls.flush_updates();
    flush_fetches();  // first: the queue rows rescheduled below then hold them
    // A queue whose key is known (added to by a new URL) is rescheduled by
    // its UPDATE (queue_sched_sql); the others are read back.
    // clang-format off
#define NEW_BEST "CASE WHEN CAST(?4 AS REAL) IS NOT NULL AND (best IS NULL OR ?5 < best) THEN ?6 ELSE best END"
#define QUEUE_DELTA_SQL                                                                                    \
    "UPDATE queues SET queued = queued + ?1, enqueued = enqueued + ?2, "                                   \
    "last_queued_url = coalesce(?3, last_queued_url), best = " NEW_BEST
    static const std::string with_sched = QUEUE_DELTA_SQL ", sched = " +
        queue_sched_sql("state", NEW_BEST, "in_flight", "wake_at", "?8", "?9") + " WHERE id = ?7";
    static const std::string alone = QUEUE_DELTA_SQL " WHERE id = ?7";
#undef QUEUE_DELTA_SQL
#undef NEW_BEST
    // In id order: the rows are the table's, so each of its pages is read
    // and written once, not once per queue on it.
    std::vector<std::pair<int64_t, const QueueDelta*>> deltas;
    deltas.reserve(totals.queue_deltas.size());
    for (const auto& [id, d] : totals.queue_deltas) deltas.emplace_back(id, &d);
    std::sort(deltas.begin(), deltas.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<int64_t> ids;
    for (const auto& [id, dp] : deltas) {
        const QueueDelta& d = *dp;
        const bool known = !d.key.empty() && settings.loaded;
        Stmt& st = q((known ? with_sched : alone).c_str());
        st.bind(1, d.queued).bind(2, d.enqueued)
            .bind(3, d.last_url.empty() ? std::optional<std::string>() : std::optional<std::string>(d.last_url))
            .bind(4, d.min_rank).bind(5, d.min_rank).bind(6, d.min_rank).bind(7, id);
        if (known) st.bind(8, lease_cap(settings.loaded->politeness_for(d.key))).bind(9, now);
        else ids.push_back(id);
        st.exec();
    }
    // clang-format on
    queues.reschedule_each(ids);
    totals.queue_deltas.clear();
    totals.flush();
    if (urls.fps_buffered) urls.count_fingerprints();
    leases.write_served();
}


// url_fps_new into url_fps in key order from where the last move stopped,
// of the fps_moving that count_fingerprints found (move_in_key_order), and
// the lease order's new entries, the backend's own
// (StoreBackend::move_buffered). After each commit, for each buffer that
// moves, one transaction of four times what the commit added (`added`), at
// least 4,096 and at most 65,536 (fewer when FRONTIER_FP_BUFFER is
// smaller), or `added` if more:
// the move keeps ahead of the buffer's refill, and a tool that commits
// often (frontier-done in a crawl, a few thousand new URLs a commit) moves
// a little after each commit instead of 65,536 entries, whose transaction
// would keep the lease and the results waiting tens of milliseconds at a
// time for seconds on end.
void Store::Impl::move_buffers(int64_t added) {
    const int64_t chunk = std::min({kMoveChunk, fp_buffer_limit(), std::max<int64_t>(kMinMoveChunk, 4 * added)});
    const int64_t budget = std::max(added, chunk);
    int64_t fps_moved = 0;  // rows, with the end of a pass that the budget leaves uncounted
    if (fps_moving > 0) {
        const int64_t n = std::min(fps_moving, budget);
        const bool emptied = move_in_key_order(db, "url_fps_new", "fp, id", "ii", chunk, n, fps_from,
                      [&](const std::string& where, auto& bound, bool more) {
                          Stmt moved = bound(db.prepare("SELECT count(*) FROM url_fps_new" + where));
                          const int64_t n = moved.step() ? moved.i64(0) : 0;
                          moved.reset();
                          fps_moved += n;
                          bound(db.prepare(move_fingerprints_sql(db, where))).exec();
                          bound(db.prepare("DELETE FROM url_fps_new" + where)).exec();
                          // The last chunk empties the table: its count is 0,
                          // whatever it had drifted to.
                          if (more)
                              db.prepare("UPDATE meta SET value = value - ? WHERE key = 'fps_new'")
                                  .bind(1, n)
                                  .exec();
                          else
                              db.exec("UPDATE meta SET value = 0 WHERE key = 'fps_new'");
                      });
        fps_moving = emptied ? 0 : fps_moving - n;
    }
    // At least as many rows as the fingerprints moved, and the same budget
    // again when they moved fewer: every new URL has an entry in both
    // buffers, so a lease order that moved less than the fingerprints (or
    // only while no fingerprints waited) would fall behind for good in a
    // long add. A move of the fingerprints that ends a pass moves the rest
    // above its cursor beside its budget, so it can move more than that.
    if (order_moving || fps_moved > 0)
        order_moving = !backend->move_buffered(db, chunk, std::max(budget, fps_moved), order_from);
}

namespace {
// Both buffers (url_fps_new, url_next_new) of this many new URLs stay in
// frontier-add's page cache, so a new URL's entries land on cached pages;
// a buffer past the cache costs a page read and write per new URL, more
// than a move's rewrite of the main tables' pages costs per URL.
constexpr int64_t kDefaultFpBuffer = int64_t{1} << 18;
}  // namespace

int64_t fp_buffer_limit() {
    static const int64_t limit =
        env_whole_number("FRONTIER_FP_BUFFER", 1, int64_t{1} << 40, "fingerprints from 1 to 2^40")
            .value_or(kDefaultFpBuffer);
    return limit;
}

const RobotsRules& Store::Impl::robots_rules(int64_t host_id, double at, std::string_view text) {
    auto it = robots_cache.find(host_id);
    if (it != robots_cache.end() && it->second.at == at) return it->second.rules;
    if (it == robots_cache.end() && robots_cache.size() >= kRobotsCacheMax) robots_cache.clear();
    CachedRobots& c = robots_cache[host_id];
    c.at = at;
    c.rules = RobotsRules::deserialize(text);
    return c.rules;
}

bool Store::Impl::robots_cached(int64_t host_id, double at) const {
    auto it = robots_cache.find(host_id);
    return it != robots_cache.end() && it->second.at == at;
}

bool Store::can_wait_for_change() const { return db_->can_wait_for_change(); }
bool Store::wait_for_change(double seconds) { return db_->wait_for_change(seconds); }
void Store::checkpoint_log() { db_->checkpoint_log(); }

int64_t Store::data_version() {
    return db_->data_version();
}

// ---------------------------------------------------------------- seeds

bool Store::is_seed_domain(const std::string& domain) {
    if (impl_->seed_domains.contains(domain)) return true;
    if (impl_->other_domains.contains(domain)) return false;
    Stmt& st = impl_->q("SELECT 1 FROM seed_domains WHERE domain = ?");
    st.bind(1, domain);
    bool found = st.step();
    st.reset();
    if (found) impl_->seed_domains.insert(domain);
    return found;
}

// Each seed's URL comes here: its host's entry in host_queues (made by
// add_url) says when both marks are made already.
void Store::add_seed(const std::string& domain, const std::string& host_key) {
    Impl& m = *impl_;
    Impl::HostQueue* hq = m.host_queues.find(host_key);
    if (hq && hq->seed) return;
    if (!m.seed_domains.contains(domain)) {
        m.q("INSERT INTO seed_domains(domain) VALUES (?) ON CONFLICT DO NOTHING").bind(1, domain).exec();
        m.seed_domains.insert(domain);
    }
    const int64_t hid = hq ? hq->host_id : m.host_id_for(host_key);
    if (!m.seed_hosts.contains(hid)) {
        m.q("UPDATE hosts SET seed = 1 WHERE id = ? AND seed IS NULL").bind(1, hid).exec();
        m.seed_hosts.insert(hid);
    }
    if (hq) hq->seed = true;  // still valid: only other caches changed
}

bool Store::Impl::is_seed_host(int64_t host_id) {
    if (seed_hosts.contains(host_id)) return true;
    if (other_hosts.contains(host_id)) return false;
    Stmt& st = q("SELECT seed FROM hosts WHERE id = ?");
    st.bind(1, host_id);
    bool seed = st.step() && !st.is_null(0);
    st.reset();
    note_seed_host(host_id, seed);
    return seed;
}

void Store::Impl::note_seed_host(int64_t host_id, bool seed) {
    (seed ? seed_hosts : other_hosts).insert(host_id);
}


void Store::set_page_cache_mib(int mib) { db_->set_page_cache_mib(mib); }

}  // namespace frontier
