// What frontier-done's results add up to, kept per transaction and
// written at flush: each queue's politeness and counts after its fetches
// (frontier(7), LEASES and POLITENESS), the crawl's counters and timeline
// (frontier-report(1), CRAWL SUMMARY, OVER TIME), hosts' Crawl-delays.
#include <algorithm>
#include <cmath>

#include "policy/outcome.hpp"
#include "report/crawl_stats.hpp"
#include "store/sql_codes.hpp"
#include "store/store.hpp"
#include "store/store_impl.hpp"

namespace frontier {

// Politeness after a fetch of queue `qid` (frontier(7), LEASES and POLITENESS): wake time, Retry-After
// and 429 blocks, latency, error counts and the error penalty, summed per
// queue in fetch_deltas; flush_fetches() writes and reschedules each queue.
void Store::Impl::after_fetch(const Settings& s, int64_t qid, const FetchFacts& f,
                              std::optional<double> crawl_delay, bool unsuccessful, double now, UrlState ended) {
    auto [it, fresh] = fetch_deltas.try_emplace(qid);
    FetchDelta& d = it->second;
    if (fresh) {
        QueueInfo qi;
        if (auto pre = prefetched_queues.find(qid); pre != prefetched_queues.end()) {
            qi = std::move(pre->second);
            prefetched_queues.erase(pre);
        } else {
            qi = queue(qid);
        }
        d.key = std::move(qi.key);
        d.n429 = qi.n429;
        d.wake_at = qi.wake_at;
    }
    double wait = politeness_wait(s.politeness_for(d.key), f, crawl_delay, d.n429);
    if ((f.status == 429 || f.status == 503) && f.retry_after) ++d.ra_blocks;
    d.n429 = f.status == 429 ? d.n429 + 1 : 0;
    d.wake_at = std::max(d.wake_at, now + wait);
    ++d.ended;
    if (unsuccessful) {
        ++d.errors;
        if (f.error_class != "host-down") d.penalty += s.error_penalty;
    }
    d.latency_sum += f.duration_ms.value_or(0);
    if (f.duration_ms) ++d.latency_n;
    if (f.error_class == "host-down") ++d.host_down;
    if (ended != UrlState::leased) d.bytes += f.bytes.value_or(0);  // URL results, not robots.txt
    if (ended == UrlState::done) ++d.done;
    else if (ended == UrlState::failed) ++d.failed;
    else if (ended == UrlState::queued) ++d.queued;
    if (fetch_deltas.size() >= kMaxPendingQueues) flush_fetches();
}

// Each queue's deltas in one UPDATE, which also reschedules it (its new
// in-flight count and wake time against its politeness: queue_sched_sql),
// so that no queue row is read back. Where a statement is a round trip
// (PostgreSQL), one UPDATE for all of them (flush_fetches_set).
void Store::Impl::flush_fetches() {
    if (db.statements_are_round_trips() && !fetch_deltas.empty()) return flush_fetches_set();
    // clang-format off
    static const std::string sql =
        "UPDATE queues SET in_flight = max(in_flight - ?1, 0), wake_at = max(wake_at, ?2), n429 = ?3, "
        "retry_after_blocks = retry_after_blocks + ?4, error_count = error_count + ?5, "
        "total_spend = total_spend + ?6, session_balance = session_balance - ?6, "
        "latency_sum = latency_sum + ?7, latency_n = latency_n + ?8, host_down = host_down + ?9, "
        "done = done + ?10, failed = failed + ?11, queued = queued + ?12, bytes = bytes + ?13, sched = " +
        queue_sched_sql("state", "best", "max(in_flight - ?1, 0)", "max(wake_at, ?2)", "?15", "?16") +
        " WHERE id = ?14";
    for (auto& [qid, d] : fetch_deltas) {
        q(sql.c_str())
            .bind(1, d.ended).bind(2, d.wake_at).bind(3, d.n429).bind(4, d.ra_blocks).bind(5, d.errors)
            .bind(6, d.penalty).bind(7, d.latency_sum).bind(8, d.latency_n).bind(9, d.host_down)
            .bind(10, d.done).bind(11, d.failed).bind(12, d.queued).bind(13, d.bytes).bind(14, qid)
            .bind(15, settings->politeness_for(d.key).max_in_flight).bind(16, now).exec();
    }
    // clang-format on
    fetch_deltas.clear();
    prefetched_queues.clear();
}

// flush_fetches in one statement: the deltas as arrays (unnest), each
// queue row found by a primary-key probe (as the lease's URL writes,
// Impl::flush_lease_writes), in queue id order.
void Store::Impl::flush_fetches_set() {
    enum {
        id,
        ended,
        wake,
        n429,
        ra,
        errors,
        penalty,
        lat_sum,
        lat_n,
        down,
        done,
        failed,
        queued,
        bytes,
        mif,
        kCols
    };
    PgArray a[kCols];
    std::vector<int64_t> ids;
    ids.reserve(fetch_deltas.size());
    for (const auto& [qid, d] : fetch_deltas) ids.push_back(qid);
    std::sort(ids.begin(), ids.end());
    for (int64_t qid : ids) {
        const FetchDelta& d = fetch_deltas.at(qid);
        a[id].add(qid);
        a[ended].add(d.ended);
        a[wake].add(d.wake_at);
        a[n429].add(d.n429);
        a[ra].add(d.ra_blocks);
        a[errors].add(d.errors);
        a[penalty].add(d.penalty);
        a[lat_sum].add(d.latency_sum);
        a[lat_n].add(d.latency_n);
        a[down].add(d.host_down);
        a[done].add(d.done);
        a[failed].add(d.failed);
        a[queued].add(d.queued);
        a[bytes].add(d.bytes);
        a[mif].add(settings->politeness_for(d.key).max_in_flight);
    }
    // clang-format off
    static const std::string sql =
        "UPDATE queues SET in_flight = max(in_flight - v.d_ended, 0), wake_at = max(wake_at, v.d_wake), "
        "n429 = v.d_n429, retry_after_blocks = retry_after_blocks + v.d_ra, error_count = error_count + v.d_errors, "
        "total_spend = total_spend + v.d_penalty, session_balance = session_balance - v.d_penalty, "
        "latency_sum = latency_sum + v.d_lat_sum, latency_n = latency_n + v.d_lat_n, "
        "host_down = host_down + v.d_down, done = done + v.d_done, failed = failed + v.d_failed, "
        "queued = queued + v.d_queued, bytes = bytes + v.d_bytes, sched = " +
        queue_sched_sql("state", "best", "max(in_flight - v.d_ended, 0)", "max(wake_at, v.d_wake)", "v.d_mif", "?16") +
        " FROM unnest(CAST(?1 AS bigint[]), CAST(?2 AS bigint[]), CAST(?3 AS REAL[]), CAST(?4 AS bigint[]), "
        "CAST(?5 AS bigint[]), CAST(?6 AS bigint[]), CAST(?7 AS bigint[]), CAST(?8 AS REAL[]), CAST(?9 AS bigint[]), "
        "CAST(?10 AS bigint[]), CAST(?11 AS bigint[]), CAST(?12 AS bigint[]), CAST(?13 AS bigint[]), "
        "CAST(?14 AS bigint[]), CAST(?15 AS bigint[])) AS v(d_id, d_ended, d_wake, d_n429, d_ra, d_errors, "
        "d_penalty, d_lat_sum, d_lat_n, d_down, d_done, d_failed, d_queued, d_bytes, d_mif) "
        "WHERE queues.id = ANY(ARRAY[v.d_id])";
    // clang-format on
    Stmt& st = q(sql.c_str());
    for (int i = 0; i < kCols; ++i) st.bind(i + 1, a[i]);
    st.bind(16, now).exec();
    fetch_deltas.clear();
    prefetched_queues.clear();
}

// The crawl's aggregates for one URL result (frontier-report(1), CRAWL
// SUMMARY, OVER TIME, CODES, MIME TYPES): counter deltas and the minute's
// timeline sums, written with the other deltas at flush, in the same
// transaction as the result.
void Store::Impl::note_result(const FetchFacts& f, bool error, int64_t successes_before, double now) {
    int64_t bytes = f.bytes.value_or(0);
    CrawlDelta& c = crawl_delta;
    ++c.pages;
    c.bytes += bytes;
    if (error) ++c.errors;
    if (f.has_status && f.status > 0) ++c.statuses[f.status];
    bool ok = f.status >= 200 && f.status < 300 && f.error_class.empty();
    if (f.status == 304) ++c.not_modified;
    else if (ok) ++(successes_before > 0 ? c.revisit : c.novel);
    if (ok) {
        // Keyed by the raw header (a crawl sends few distinct ones); mime_key
        // runs once per distinct value at flush. Bounded like the other deltas.
        auto& m = c.mimes[f.content_type.value_or("")];
        ++m.first;
        m.second += bytes;
        if (c.mimes.size() >= kMaxPendingQueues) flush_timeline();
    }
    TimelineDelta& t = timeline_deltas[static_cast<int64_t>(std::floor(now / 60))];
    ++t.pages;
    t.bytes += bytes;
    if (error) ++t.errors;
}

void Store::Impl::flush_timeline() {
    CrawlDelta& c = crawl_delta;
    if (c.pages) count("crawl:pages", c.pages);
    if (c.bytes) count("crawl:bytes", c.bytes);
    if (c.errors) count("crawl:errors", c.errors);
    if (c.novel) count("visit:novel", c.novel);
    if (c.revisit) count("visit:revisit", c.revisit);
    if (c.not_modified) count("visit:not-modified", c.not_modified);
    for (auto& [st, n] : c.statuses) count("status:" + std::to_string(st), n);
    for (auto& [ct, m] : c.mimes) {
        std::string key = mime_key(ct);
        count("mime:" + key, m.first);
        if (m.second) count("mime-bytes:" + key, m.second);
    }
    c = CrawlDelta{};
    for (auto& [minute, t] : timeline_deltas)
        q("INSERT INTO timeline(minute, pages, bytes, errors) VALUES (?, ?, ?, ?) ON CONFLICT(minute) DO UPDATE SET "
          "pages = timeline.pages + excluded.pages, bytes = timeline.bytes + excluded.bytes, "
          "errors = timeline.errors + excluded.errors")
            .bind(1, minute).bind(2, t.pages).bind(3, t.bytes).bind(4, t.errors).exec();
    timeline_deltas.clear();
}

std::optional<double> Store::Impl::crawl_delay(int64_t host_id) {
    if (auto it = crawl_delays.find(host_id); it != crawl_delays.end()) return it->second;
    std::optional<double> d;
    Stmt& h = q("SELECT crawl_delay FROM hosts WHERE id = ?");
    h.bind(1, host_id);
    if (h.step()) d = h.opt_dbl(0);
    h.reset();
    if (crawl_delays.size() >= kIdCacheMax) crawl_delays.clear();
    crawl_delays.emplace(host_id, d);
    return d;
}

}  // namespace frontier
