// The per-host scoreboard of the Media Cloud queue fetcher (seed 004) with
// Scrapy-style AutoThrottle: which hosts are down after a connection failure
// (or after response timeouts in a row, the same rule for a host that
// connects but no longer answers), how many fetches each has active, a latency EWMA, and the delay between
// request starts. Pure logic over HostState values (no I/O, no clock of its
// own), so it is testable without a network. Not thread-safe: one owner.
#pragma once

#include <limits>
#include <optional>

namespace frontier {

// What the scoreboard knows about one host (host:port).
struct HostState {
    int active = 0;            // fetches in flight
    double down_until = 0;     // epoch seconds; fail fast as host-down before it
    bool down_for_timeouts = false;  // down after timeouts, not a connection failure
    int timeouts = 0;          // transfers in a row that timed out without a response
    double latency = -1;       // EWMA of time to first byte, seconds; -1 = no sample yet
    double delay = 0;          // autothrottle delay between request starts, seconds
    double next_start = 0;     // earliest epoch second the next request may start
    double last_end = -1e300;  // when the host's last request ended (-1e300: none yet)
    double delay_seen = 0;     // the longest "delay" of a job started: how long last_end matters
    double hold_until = 0;     // a 429 or 503's Retry-After holds "delay" jobs until then
    bool initialised = false;  // set by HostScoreboard::init
};

struct ScoreboardConfig {
    int per_host = 2;                // most active fetches per host
    double conn_retry = 600;         // seconds a host stays down after a connection failure
    int down_after_timeouts = 2;     // timeouts in a row that put a host down too; 0 = never
    double autothrottle_target = 0;  // target concurrency per host; 0 = autothrottle off
    double start_delay = 5;          // autothrottle delay before the first response (Scrapy's)
    double max_delay = 60;           // autothrottle upper clamp (Scrapy's AUTOTHROTTLE_MAX_DELAY)
    double min_delay = 0;            // autothrottle lower clamp (Scrapy's DOWNLOAD_DELAY)
};

class HostScoreboard {
public:
    explicit HostScoreboard(const ScoreboardConfig& cfg) : cfg_(cfg) {}

    // Prepares a fresh state (autothrottle's start delay). Idempotent.
    void init(HostState& h) const;

    // True while a recent connection failure keeps the host down.
    bool down(const HostState& h, double now) const { return now < h.down_until; }

    // Earliest time a new request may start: `now` when it may start at once,
    // a later time when autothrottle spaces requests, +infinity while the host
    // is at its per-host cap (retry after one of its fetches finishes). A job
    // with a `delay` (lease-ahead, frontier(7) POLITENESS) waits until that
    // long after the host's last request ended, and until hold_until.
    double earliest_start(const HostState& h, double now, std::optional<double> delay = std::nullopt) const;

    // A request starts now: counts it and sets the next start time; `delay`
    // is its job's (kept while it may hold the host's next job).
    void started(HostState& h, double now, std::optional<double> delay = std::nullopt) const;

    // A fetch finished. `status` is the HTTP code (0: none); `latency` the
    // seconds to the first byte (ignored when status is 0); `conn_failed`
    // when DNS, connect or a connect timeout failed: the host is then down
    // for conn_retry seconds. `timed_out` when it connected but timed out
    // before a response: the down_after_timeouts-th such fetch in a row
    // puts the host down for conn_retry seconds as well. EWMA: avg += 0.25 (sec - avg), only a 200 may
    // lower it, a 429 sets it to 30 s. Autothrottle: target = avg / TARGET,
    // new = max(target, (old + target) / 2) clamped to [min, max]; a non-200
    // may raise the delay but never lower it.
    void finished(HostState& h, double now, int status, double latency, bool conn_failed,
                  bool timed_out = false) const;
    // A 429 or 503 answer's Retry-After (`retry_after` seconds; none: 60 s
    // for a 429, the frontier's least back-off, nothing for a 503): the
    // host's "delay" jobs wait that long from `now`, as its queue in the
    // frontier does.
    void retry_after(HostState& h, double now, int status, std::optional<double> retry_after) const;

    // True when the state carries nothing worth keeping (no fetches, not
    // down, no timeouts counted, no pending spacing), so its map entry may
    // be dropped.
    bool idle(const HostState& h, double now) const {
        return h.active == 0 && h.down_until <= now && h.next_start <= now && h.timeouts == 0 &&
               h.hold_until <= now && h.last_end + h.delay_seen <= now;
    }

    const ScoreboardConfig& config() const { return cfg_; }

private:
    ScoreboardConfig cfg_;
};

}  // namespace frontier
