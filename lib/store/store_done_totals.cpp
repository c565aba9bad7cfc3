// What frontier-done's results add up to, kept per transaction and
// written at flush: each queue's politeness and counts after its fetches
// (frontier(7), LEASES and POLITENESS), the crawl's counters and timeline
// (frontier-report(1), CRAWL SUMMARY, OVER TIME), hosts' Crawl-delays.
#include <algorithm>
#include <cmath>

#include "policy/outcome.hpp"
#include "store/sql_codes.hpp"
#include "store/store.hpp"
#include "store/store_impl.hpp"

namespace frontier {

// A fetch of queue `qid` as the queue's row sums it (wake time, Retry-After
// and 429 blocks, error counts and the error penalty: queue_after_fetch,
// lib/policy/outcome.hpp; latency, counts by state), kept per queue in
// fetch_deltas; flush_fetches() writes and reschedules each queue.
void Store::Impl::after_fetch(const Settings& s, int64_t qid, const FetchFacts& f,
                              std::optional<double> crawl_delay, bool unsuccessful, double now, UrlState ended) {
    auto [it, fresh] = totals.fetch_deltas.try_emplace(qid);
    FetchDelta& d = it->second;
    if (fresh) {
        QueueInfo qi;
        if (auto pre = prefetched_queues.find(qid); pre != prefetched_queues.end()) {
            qi = std::move(pre->second);
            prefetched_queues.erase(pre);
        } else {
            qi = queues.row(qid);
        }
        d.key = std::move(qi.key);
        d.n429 = qi.n429;
        d.wake_at = qi.wake_at;
    }
    const QueueAfterFetch a =
        queue_after_fetch({d.wake_at, d.n429}, s, s.politeness_for(d.key), f, crawl_delay, unsuccessful, now);
    d.wake_at = a.wake_at;
    d.n429 = a.n429;
    d.ra_blocks += a.retry_after_block;
    d.errors += a.error;
    d.penalty += a.penalty;
    d.host_down += a.host_down;
    ++d.ended;
    d.latency_sum += f.duration_ms.value_or(0);
    if (f.duration_ms) ++d.latency_n;
    if (ended != UrlState::leased) d.bytes += f.bytes.value_or(0);  // URL results, not robots.txt
    if (ended == UrlState::done) ++d.done;
    else if (ended == UrlState::failed) ++d.failed;
    else if (ended == UrlState::queued) ++d.queued;
    if (totals.fetch_deltas.size() >= kMaxPendingQueues) flush_fetches();
}

namespace {

// A queue's fetch deltas as the UPDATE of flush_fetches takes them, in
// parameter order (?1 to ?15; the time is the last, kNowParam).
enum FetchCol {
    kEnded,
    kWake,
    kN429,
    kRa,
    kErrors,
    kPenalty,
    kLatSum,
    kLatN,
    kDown,
    kDone,
    kFailed,
    kQueued,
    kBytes,
    kQueueId,
    kMaxInFlight,
    kFetchCols
};
constexpr int kNowParam = kFetchCols + 1;

// Calls put(column, value) for each of queue `qid`'s deltas `d`.
template <class Delta, class Put>
void fetch_columns(int64_t qid, const Delta& d, int64_t max_in_flight, Put&& put) {
    put(kEnded, d.ended);
    put(kWake, d.wake_at);
    put(kN429, d.n429);
    put(kRa, d.ra_blocks);
    put(kErrors, d.errors);
    put(kPenalty, d.penalty);
    put(kLatSum, d.latency_sum);
    put(kLatN, d.latency_n);
    put(kDown, d.host_down);
    put(kDone, d.done);
    put(kFailed, d.failed);
    put(kQueued, d.queued);
    put(kBytes, d.bytes);
    put(kQueueId, qid);
    put(kMaxInFlight, max_in_flight);
}

// The UPDATE of queue rows by their deltas, each delta named by `v`, then
// `rest` (which rows, and where the deltas come from).
template <class Name>
std::string fetch_update_sql(Name&& v, const std::string& rest) {
    const std::string in_flight = "max(in_flight - " + v(kEnded) + ", 0)";
    const std::string wake_at = "max(wake_at, " + v(kWake) + ")";
    return "UPDATE queues SET in_flight = " + in_flight + ", wake_at = " + wake_at + ", n429 = " + v(kN429) +
           ", retry_after_blocks = retry_after_blocks + " + v(kRa) + ", error_count = error_count + " +
           v(kErrors) + ", total_spend = total_spend + " + v(kPenalty) +
           ", session_balance = session_balance - " + v(kPenalty) + ", latency_sum = latency_sum + " +
           v(kLatSum) + ", latency_n = latency_n + " + v(kLatN) + ", host_down = host_down + " + v(kDown) +
           ", done = done + " + v(kDone) + ", failed = failed + " + v(kFailed) + ", queued = queued + " +
           v(kQueued) + ", bytes = bytes + " + v(kBytes) + ", sched = " +
           queue_sched_sql("state", "best", in_flight, wake_at, v(kMaxInFlight),
                           "?" + std::to_string(kNowParam)) +
           rest;
}

std::string fetch_param(int col) { return "?" + std::to_string(col + 1); }
std::string fetch_unnest_column(int col) { return "v.d" + std::to_string(col); }

}  // namespace

// Each queue's deltas in one UPDATE, which also reschedules it (its new
// in-flight count and wake time against its politeness: queue_sched_sql),
// so that no queue row is read back. Where a statement is a round trip
// (PostgreSQL), one UPDATE for all of them (flush_fetches_set).
void Store::Impl::flush_fetches() {
    if (db.statements_are_round_trips() && !totals.fetch_deltas.empty()) return flush_fetches_set();
    static const std::string sql = fetch_update_sql(fetch_param, " WHERE id = " + fetch_param(kQueueId));
    for (auto& [qid, d] : totals.fetch_deltas) {
        Stmt& st = q(sql.c_str());
        fetch_columns(qid, d, settings.loaded->politeness_for(d.key).max_in_flight,
                      [&](int col, auto value) { st.bind(col + 1, value); });
        st.bind(kNowParam, now).exec();
    }
    totals.fetch_deltas.clear();
    prefetched_queues.clear();
}

// flush_fetches in one statement: the deltas as arrays (unnest), each
// queue row found by a primary-key probe (as the lease's URL writes,
// LeaseWrites::flush), in queue id order.
void Store::Impl::flush_fetches_set() {
    static const std::string sql = [] {
        std::string arrays;
        for (int col = 0; col < kFetchCols; ++col) {
            const bool real = col == kWake || col == kLatSum;
            arrays += (col ? ", unnest(CAST(" : "unnest(CAST(") + fetch_param(col) +
                      (real ? " AS REAL[])) AS d" : " AS bigint[])) AS d") + std::to_string(col);
        }
        return fetch_update_sql(fetch_unnest_column, " FROM (SELECT " + arrays +
                                                         ") AS v WHERE queues.id = ANY(ARRAY[" +
                                                         fetch_unnest_column(kQueueId) + "])");
    }();
    std::vector<int64_t> ids;
    ids.reserve(totals.fetch_deltas.size());
    for (const auto& [qid, d] : totals.fetch_deltas) ids.push_back(qid);
    std::sort(ids.begin(), ids.end());
    PgArray a[kFetchCols];
    for (int64_t qid : ids) {
        const FetchDelta& d = totals.fetch_deltas.at(qid);
        fetch_columns(qid, d, settings.loaded->politeness_for(d.key).max_in_flight,
                      [&](int col, auto value) { a[col].add(value); });
    }
    Stmt& st = q(sql.c_str());
    for (int col = 0; col < kFetchCols; ++col) st.bind(col + 1, a[col]);
    st.bind(kNowParam, now).exec();
    totals.fetch_deltas.clear();
    prefetched_queues.clear();
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
