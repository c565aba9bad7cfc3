// What a fetch result means (frontier-done(1); frontier(7), ROBOTS.TXT,
// RETRIES, RECRAWL, POLITENESS): plain functions from a URL's or a host's
// stored facts, the result and the settings to the new facts. No database:
// Store::finish reads the row, asks these, and writes what they return.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "policy/model.hpp"
#include "policy/recrawl.hpp"
#include "policy/settings.hpp"

namespace frontier {

// ---- robots.txt results

// What a robots.txt result does to its host.
struct RobotsOutcome {
    enum class HostState { known = 1, retry = 2, given_up = 3 };  // hosts.robots_state
    HostState state = HostState::known;
    bool parse_body = false;             // 2xx: the rules are the body's; otherwise allow all
    std::string result;                  // done, retry, failed
    std::string reason;                  // robots-unreachable when given up
    std::optional<double> retry_at;      // with retry
    bool unsuccessful = false;           // counts as an error of the queue
};

// The wait a server asked for that the frontier honours: a 429 or 503's
// Retry-After, held to `max_retry_after` (retry.max-retry-after); none for
// other results (their Retry-After is not a rate limit's).
std::optional<double> honoured_retry_after(const FetchFacts& f, double max_retry_after);

// 2xx: rules from the body. 3xx (a redirect fetch did not follow), 4xx, or
// refused by the address guard: unavailable, allow all (RFC 9309
// 2.3.1.2-3). Anything else (5xx, a transport error): unreachable, retried
// after retry.delay (a 503's honoured Retry-After instead, when it has one)
// while the host's retries are under retry.max, then given up (its URLs
// fail robots-unreachable).
RobotsOutcome robots_outcome(const FetchFacts& f, int64_t retries, const Settings& s, double now);

// ---- URL results

// The stored facts of a URL that a result reads and changes.
struct UrlHistory {
    bool recrawl = false;
    bool fork = false;  // a fork never loaded (its stored tier key, fork_tier)
    int64_t retries = 0, failures = 0, visits = 0, successes = 0, changes = 0;
    std::optional<std::string> content_hash, etag, http_last_modified;
    std::optional<double> interval, last_modified, last_success, next_visit, first_success;
};

// What a result does to its URL.
struct UrlOutcome {
    std::string result;                  // done, retry, failed
    std::string reason;                  // with failed, and retry after a failed revisit
    bool follow_links = false;           // a success: its links and Location are enqueued
    UrlState state = UrlState::done;     // the URL's new state
    std::optional<double> due;           // when it is due again (retry, revisit)
    std::optional<double> next_visit;    // reported: due, or the next revisit
    UrlHistory after;                    // the new stored facts
    std::optional<double> first_success; // set now by the first success of a revisited URL
    Tier tier;                           // the revisit tier (revisited URLs)
    std::vector<std::pair<std::string, int64_t>> counters;  // revisit counter deltas
};

// A 429 for a URL with a stored copy (a content hash kept from an earlier
// successful visit): served from cache, not retried.
inline bool served_from_cache(const UrlHistory& h, const FetchFacts& f) {
    return f.error_class.empty() && f.has_status && f.status == 429 && h.successes > 0 && h.content_hash.has_value();
}

// 2xx/3xx: done (a revisited URL is scheduled by the interval rule; a 304
// or an equal content hash is uneventful). A soft error (retry.soft; by
// default host-down too, which spends a retry like the others) while
// retries are under retry.max: retried after the honoured Retry-After of a
// 429 or 503 (honoured_retry_after), else after max(retry.delay,
// Retry-After).
// Otherwise failed with the error class or http-STATUS (" (retries
// exhausted)" for soft ones); a revisited URL is retried after
// recrawl.fail-delay until recrawl.max-failures failures in a row, then
// disabled. A 429 served from cache (served_from_cache): "cached", state
// done with the stored content hash, ETag and Last-Modified kept, no retry
// spent; a revisited URL is due again after its stored interval
// (recrawl.interval when none), held to [min-interval, max-interval].
// `jitter_seed` seeds the revisit jitter (reproducible).
UrlOutcome url_outcome(const UrlHistory& h, const FetchFacts& f, const Settings& s, double now,
                       uint64_t jitter_seed);

// ---- politeness

// The wait before a queue's next fetch after this result: delay-factor x
// the fetch's duration, held to [min-delay, max-delay]; at least the host's
// Crawl-delay (up to max-crawl-delay); on 429/503 at least Retry-After (up
// to a day), or for a 429 without one 60 s doubling with each 429 in a row
// (`n429` before this one, up to a day); after a DNS or connection failure
// (dns, connect) at least host-down-delay. None at all after host-down (no
// request was sent). Retry-After is held
// to `max_retry_after` (retry.max-retry-after).
double politeness_wait(const Politeness& p, const FetchFacts& f, std::optional<double> crawl_delay, int64_t n429,
                       double max_retry_after = 86400);
// The part of that wait a rate limit asks for: for a 429 or 503 its
// Retry-After (held to `max_retry_after`), or for a 429 without one 60 s
// doubling with each 429 in a row before it (`n429`, up to a day); 0
// otherwise. fetch holds lease-ahead records by the same rule (fetch(1)).
double rate_limit_wait(int64_t status, std::optional<double> retry_after, int64_t n429,
                       double max_retry_after = 86400);

// ---- what a result does to its queue

// The queue row's facts a result reads.
struct QueueBefore {
    double wake_at = 0;  // when the queue may be leased from again
    int64_t n429 = 0;    // 429s in a row so far
};

// What a result adds to its queue's row (frontier(7), POLITENESS, BUDGETS;
// frontier-report(1), QUEUES).
struct QueueAfterFetch {
    double wake_at = 0;              // never earlier than before
    int64_t n429 = 0;                // 429s in a row, this one included (0 after any other result)
    bool retry_after_block = false;  // a 429 or 503 with Retry-After: the host rate-limits
    bool error = false;              // an unsuccessful result: counts as the queue's error
    int64_t penalty = 0;             // spend charged for it (budget.error-penalty)
    bool host_down = false;          // fetch skipped it as its host is down
};

// When the fetch of `f` ended: fetched_at (its start) + duration_ms, or
// `now` (frontier-done's clock) when the result has no fetched_at or ends
// later than now. The politeness wait counts from there, so the time a
// result spends in the pipe and in frontier-done's batch is not added to
// a host's gap.
double fetch_ended(const FetchFacts& f, double now);

// The queue after a result of one of its URLs (or robots.txt): it sleeps
// until fetch_ended + politeness_wait at least (`p`: the queue's politeness); an
// unsuccessful result (`unsuccessful`, as url_outcome or robots_outcome
// decided) is an error and costs budget.error-penalty, except host-down (a
// URL fetch never tried).
QueueAfterFetch queue_after_fetch(const QueueBefore& q, const Settings& s, const Politeness& p, const FetchFacts& f,
                                  std::optional<double> crawl_delay, bool unsuccessful, double now);

}  // namespace frontier
