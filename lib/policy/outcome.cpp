#include "policy/outcome.hpp"

#include <algorithm>
#include <cmath>

namespace frontier {

std::optional<double> honoured_retry_after(const FetchFacts& f, double max_retry_after) {
    if ((f.status != 429 && f.status != 503) || !f.retry_after) return std::nullopt;
    return rate_limit_wait(f.status, f.retry_after, 0, max_retry_after);
}

RobotsOutcome robots_outcome(const FetchFacts& f, int64_t retries, const Settings& s, double now) {
    RobotsOutcome o;
    bool ok = f.error_class.empty() && f.status >= 200 && f.status < 300;
    // 3xx (a redirect fetch did not follow: a 6th one, a loop, another
    // scheme) and 4xx: "unavailable", allow all (RFC 9309 2.3.1.2-3);
    // but a 429 asks the crawler to slow down, not to crawl without rules:
    // unreachable, as a 5xx (frontier(7), ROBOTS.TXT).
    // (An older fetch reported the first cases as too-many-redirects.)
    // A robots.txt the address guard would not fetch (or not follow to)
    // is unavailable too: the host's URLs then fail one by one with
    // blocked-address, each saying why (frontier(7), ADDRESS GUARD).
    bool allow_all = (f.error_class.empty() && f.status >= 300 && f.status < 500 && f.status != 429) ||
                     (f.error_class == "too-many-redirects" && f.status >= 300 && f.status < 400) ||
                     f.error_class == "blocked-address";
    if (ok || allow_all) {
        o.state = RobotsOutcome::HostState::known;
        o.parse_body = ok;
        o.result = "done";
    } else if (retries < s.retry_max) {
        o.state = RobotsOutcome::HostState::retry;
        o.result = "retry";
        o.retry_at = now + honoured_retry_after(f, s.max_retry_after).value_or(s.retry_delay);
    } else {
        o.state = RobotsOutcome::HostState::given_up;
        o.result = "failed";
        o.reason = "robots-unreachable";
    }
    o.unsuccessful = !(ok || allow_all);
    return o;
}

namespace {

// The news crawler's "try to serve from cache" on a 429 (frontier-done(1),
// RESULTS): the stored copy stands, no retry is spent, a revisit is due
// again after its stored interval; the queue still backs off for the 429
// (politeness_wait).
void served_cached(const UrlHistory& h, const Settings& s, double now, UrlOutcome& o) {
    UrlHistory& a = o.after;
    o.result = "cached";
    a.content_hash = h.content_hash;
    a.etag = h.etag;
    a.http_last_modified = h.http_last_modified;
    a.retries = 0;
    o.state = UrlState::done;
    if (h.recrawl) {
        double interval = std::clamp(h.interval.value_or(s.recrawl_interval), s.recrawl_min,
                                     std::max(s.recrawl_min, s.recrawl_max));
        o.due = now + interval;
        o.next_visit = o.due;
        a.next_visit = o.due;
    }
}

// A successful fetch: done, its links followed, and for a revisited URL
// the next visit from whether it changed.
void succeeded(const UrlHistory& h, const FetchFacts& f, const Settings& s, double now, uint64_t jitter_seed,
               UrlOutcome& o) {
    UrlHistory& a = o.after;
    o.result = "done";
    o.follow_links = true;
    ++a.successes;
    a.failures = 0;
    if (h.recrawl) {
        bool eventful = f.status != 304 && a.content_hash && h.content_hash && *a.content_hash != *h.content_hash;
        if (eventful) ++a.changes;
        // The estimate policy's observation window starts at the first
        // success (urls.first_success); the multiplicative one needs none.
        double observed = 0;
        if (!h.interval) o.first_success = now;
        else if (s.recrawl_policy == "estimate" && h.first_success) observed = now - *h.first_success;
        std::optional<double> since;
        if (h.last_success) since = std::max(0.0, now - *h.last_success);
        VisitFeedback fb = next_revisit(s, {h.interval, eventful, a.successes - 1, a.changes, observed, since},
                                        now, jitter_seed);
        o.counters = revisit_counter_deltas(h.interval, fb.interval, !h.interval, eventful);
        a.interval = fb.interval;
        a.next_visit = fb.next_visit;
        o.due = fb.next_visit;
        o.next_visit = fb.next_visit;
    }
    a.last_success = now;
}

// A failed fetch: retried while soft and retries are left, else failed, or
// for a revisited URL retried later until it has failed
// recrawl.max-failures times in a row. host-down is a try like any other:
// fetch judged the host from its own failures there, and a URL that never
// counted them would keep a crawl of a dead host alive for ever.
void failed(const UrlHistory& h, const FetchFacts& f, const Settings& s, double now, UrlOutcome& o) {
    UrlHistory& a = o.after;
    const std::string& ec = f.error_class;
    bool soft = s.is_soft(ec, f.status);
    if (soft && h.retries < s.retry_max) {
        o.result = "retry";
        o.state = UrlState::queued;
        ++a.retries;
        // A rate limit's Retry-After names when to come back (its queue
        // sleeps as long: politeness_wait); other results wait retry.delay.
        if (auto ra = honoured_retry_after(f, s.max_retry_after)) o.due = now + *ra;
        else o.due = now + std::max(s.retry_delay, f.retry_after.value_or(0));
        o.next_visit = o.due;
        return;
    }
    o.reason = !ec.empty() ? ec : "http-" + std::to_string(f.status);
    if (soft) o.reason += " (retries exhausted)";
    if (!h.recrawl) {
        o.state = UrlState::failed;
        o.result = "failed";
        return;
    }
    ++a.failures;
    a.retries = 0;
    if (a.failures >= s.recrawl_max_failures) {
        o.state = UrlState::disabled;
        o.result = "failed";
    } else {
        o.state = UrlState::failed;
        o.due = now + s.recrawl_fail_delay;
        o.next_visit = o.due;
        o.result = "retry";
    }
}

}  // namespace

UrlOutcome url_outcome(const UrlHistory& h, const FetchFacts& f, const Settings& s, double now,
                       uint64_t jitter_seed) {
    UrlOutcome o;
    UrlHistory& a = o.after;
    a = h;
    const std::string& ec = f.error_class;
    bool ok = ec.empty() && f.status >= 200 && f.status < 400;
    a.content_hash = f.content_hash;
    if (f.status == 304 && !a.content_hash) a.content_hash = h.content_hash;
    if (f.etag) a.etag = f.etag;
    if (f.http_last_modified) a.http_last_modified = f.http_last_modified;
    ++a.visits;
    if (served_from_cache(h, f)) {
        served_cached(h, s, now, o);
    } else if (ok) {
        succeeded(h, f, s, now, jitter_seed, o);
    } else {
        failed(h, f, s, now, o);
    }
    // A revisited URL keeps its place among the due revisits (frontier(7),
    // RECRAWL tiers), after a success and after a failure alike.
    // A fork keeps its place behind the non-forks until it is loaded.
    o.tier = recrawl_tier({h.recrawl, a.last_modified, a.last_success, a.successes, a.next_visit, false, now,
                           h.fork && a.successes == 0});
    return o;
}

double politeness_wait(const Politeness& p, const FetchFacts& f, std::optional<double> crawl_delay, int64_t n429,
                       double max_retry_after) {
    // fetch answered host-down without a request: the wait the host's last
    // request set stands, and the URLs fetch holds back as down use up their
    // retries one after the other, not one per wait.
    if (f.error_class == "host-down") return 0;
    double dur = f.duration_ms.value_or(0) / 1000.0;
    double wait = std::clamp(p.delay_factor * dur, p.min_delay, std::max(p.min_delay, p.max_delay));
    if (crawl_delay) wait = std::max(wait, std::min(*crawl_delay, p.max_crawl_delay));
    // A host whose connection failed is down for everyone leasing from the
    // frontier, not only for the fetch process that saw it (the Media Cloud
    // scoreboard, shared): its queue waits.
    if (f.error_class == "dns" || f.error_class == "connect") wait = std::max(wait, p.host_down_delay);
    return std::max(wait, rate_limit_wait(f.status, f.retry_after, n429, max_retry_after));
}

double rate_limit_wait(int64_t status, std::optional<double> retry_after, int64_t n429, double max_retry_after) {
    if (status != 429 && status != 503) return 0;
    if (retry_after) return std::clamp(*retry_after, 0.0, std::max(0.0, max_retry_after));
    if (status != 429) return 0;
    return std::min(60.0 * std::pow(2.0, static_cast<double>(std::min<int64_t>(n429, 20))), 86400.0);
}

double fetch_ended(const FetchFacts& f, double now) {
    if (!f.fetched_at) return now;
    return std::min(now, *f.fetched_at + f.duration_ms.value_or(0) / 1000.0);
}

QueueAfterFetch queue_after_fetch(const QueueBefore& q, const Settings& s, const Politeness& p, const FetchFacts& f,
                                  std::optional<double> crawl_delay, bool unsuccessful, double now) {
    QueueAfterFetch a;
    a.wake_at = std::max(q.wake_at,
                         fetch_ended(f, now) + politeness_wait(p, f, crawl_delay, q.n429, s.max_retry_after));
    a.n429 = f.status == 429 ? q.n429 + 1 : 0;
    a.retry_after_block = (f.status == 429 || f.status == 503) && f.retry_after;
    a.host_down = f.error_class == "host-down";
    a.error = unsuccessful;
    if (unsuccessful && !a.host_down) a.penalty = s.error_penalty;
    return a;
}

}  // namespace frontier
