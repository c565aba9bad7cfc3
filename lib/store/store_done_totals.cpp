// What frontier-done's results add up to, kept per transaction and
// written at flush: each queue's politeness and counts after its fetches
// (frontier(7), LEASES and POLITENESS), the crawl's counters and timeline
// (frontier-report(1), CRAWL SUMMARY, OVER TIME), hosts' Crawl-delays.
#include <algorithm>
#include <cmath>

#include "policy/outcome.hpp"
#include "store/store.hpp"
#include "store/store_impl.hpp"

namespace frontier {

// A fetch of queue `qid` as the queue's row sums it (wake time, Retry-After
// and 429 blocks, error counts and the error penalty: queue_after_fetch,
// lib/policy/outcome.hpp; latency, counts by state), kept per queue in
// fetch_deltas; flush_fetches() writes and reschedules each queue
// (StoreBackend::write_fetch_deltas).
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


std::optional<double> Store::Impl::crawl_delay(int64_t host_id) {
    if (const std::optional<double>* d = crawl_delays.find(host_id)) return *d;
    std::optional<double> d;
    Stmt& h = q("SELECT crawl_delay FROM hosts WHERE id = ?");
    h.bind(1, host_id);
    if (h.step()) d = h.opt_dbl(0);
    h.reset();
    crawl_delays.put(host_id, d);
    return d;
}

}  // namespace frontier
