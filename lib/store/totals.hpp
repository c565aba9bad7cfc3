// Private to the storage module (lib/store/): what one transaction adds to
// the frontier's totals, kept in memory and written at flush: the counters
// (frontier(7), COUNTERS), the crawl's timeline (frontier-report(1), OVER
// TIME), and each queue's counts after adds (QueueDelta) and fetches
// (FetchDelta).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "policy/model.hpp"
#include "store/statements.hpp"
#include "store/store_backend.hpp"

namespace frontier {

// Queues whose pending deltas (frontier-add's queue_deltas, frontier-done's
// fetch_deltas) one transaction holds before writing them: one write per
// queue per transaction up to 16k hosts, bounded memory beyond.
inline constexpr size_t kMaxPendingQueues = 16384;

struct QueueDelta {
    std::string key;  // the queue's key when known (a new URL's), else empty
    int64_t queued = 0;
    int64_t enqueued = 0;
    std::string last_url;
    std::optional<double> min_rank;
};

// A queue's politeness and counts after the results of one transaction
// (Store::Impl::after_fetch): the queue row is read at its first result in
// a transaction and written, then rescheduled, once at flush.
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

// A stored counter's read (one statement, whoever reads it: the cache is
// keyed by this pointer).
inline constexpr const char* kCounterRead = "SELECT n FROM counters WHERE name = ?";

class Totals {
public:
    Totals(Statements& statements, StoreBackend& backend) : statements_(statements), backend_(backend) {}

    // Per queue id, written by Store::Impl::flush (they reschedule queues).
    std::unordered_map<int64_t, QueueDelta> queue_deltas;
    std::unordered_map<int64_t, FetchDelta> fetch_deltas;

    // Counters of added URLs, kept apart from the named deltas because they
    // change on every add (no string keys built per URL).
    int64_t added = 0;
    int64_t depth_added[4] = {0, 0, 0, 0};
    std::map<std::pair<std::string, std::string>, int64_t> heat_added;  // (discovery, type)
    std::map<std::pair<std::string, int>, int64_t> heat_depth_added;  // (discovery, depth 0..3): heatd:* counters

    void count(const std::string& name, int64_t d) { counter_deltas_[name] += d; }
    // This transaction's delta of a counter (0 when none).
    int64_t delta(const std::string& name) const {
        auto it = counter_deltas_.find(name);
        return it == counter_deltas_.end() ? 0 : it->second;
    }
    // This transaction's own change of a counter: its delta, and for queued
    // and added the URLs it added.
    int64_t own(std::string_view name) const {
        int64_t n = delta(std::string(name));
        if (name == "queued" || name == "added") n += added;
        return n;
    }
    // Store::count in two steps: the stored counter's read sent ahead
    // (Stmt::send), then read from that statement with this transaction's
    // deltas added.
    Stmt& send_count(std::string_view name);
    int64_t read_count(std::string_view name, Stmt& st);
    // A URL result's aggregates (frontier-report(1), CRAWL SUMMARY, OVER
    // TIME): counters crawl:*, visit:*, status:*, mime:*, mime-bytes:*, and
    // one timeline row per minute with a URL result.
    void note_result(const FetchFacts& f, bool error, int64_t successes_before, double now);
    // Writes the counters of added URLs, the results' aggregates and the
    // named counters' deltas.
    void flush();
    // Forgets every delta (rollback).
    void clear();

private:
    void flush_timeline();
    void flush_counters();

    Statements& statements_;
    StoreBackend& backend_;
    std::unordered_map<std::string, int64_t> counter_deltas_;
    struct TimelineDelta {
        int64_t pages = 0, bytes = 0, errors = 0;
    };
    std::map<int64_t, TimelineDelta> timeline_deltas_;  // minute (now / 60) -> sums
    // Per-result deltas kept as numbers (no counter name built per result);
    // flush_timeline() turns them into counter deltas.
    struct CrawlDelta {
        int64_t pages = 0, bytes = 0, errors = 0, novel = 0, revisit = 0, not_modified = 0;
        std::unordered_map<int64_t, int64_t> statuses;
        std::unordered_map<std::string, std::pair<int64_t, int64_t>> mimes;  // raw Content-Type -> count, bytes
    } crawl_delta_;
};

}  // namespace frontier
