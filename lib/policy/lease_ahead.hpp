// Lease-ahead (frontier(7), POLITENESS): a queue whose wait between fetches
// is none or a constant (delay-factor 0) may have politeness.lease-ahead
// leases out beyond politeness.max-in-flight. They wait in fetch, whose
// --per-host keeps the connections to the host at max-in-flight and which
// holds each lease carrying a "delay" until that long after the host's
// previous request ended, so a transfer starts when politeness allows
// instead of when frontier-done and frontier-lease have turned the last
// result into a new lease. Plain code over settings: the lease side
// (Store::lease) and the schedule (queue_sched and its SQL twin) both take
// the cap from here.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "policy/settings.hpp"

namespace frontier {

// No wait between fetches comes from the settings: min-delay and
// delay-factor both 0 (frontier(7), POLITENESS). A host's Crawl-delay is
// checked per lease (ahead_allowed); Retry-After, 429 back-off and
// host-down waits set the queue's wake time, so it leases nothing then.
inline bool delay_free(const Politeness& p) { return p.min_delay <= 0 && p.delay_factor <= 0; }

// The leases a queue may have out at once: max-in-flight, plus lease-ahead
// when the settings give it no delay; with a constant delay (delay-factor
// 0, min-delay > 0) at most max-in-flight more, one waiting per transfer
// (more would only wait longer in fetch, and keep other hosts' leases out).
inline int64_t lease_cap(const Politeness& p) {
    if (p.delay_factor > 0) return p.max_in_flight;
    int64_t ahead = std::max<int64_t>(p.lease_ahead, 0);
    return p.max_in_flight + (delay_free(p) ? ahead : std::min(ahead, std::max<int64_t>(p.max_in_flight, 0)));
}

// The "delay" a queue's leases carry (seconds): where lease-ahead applies,
// min-delay (0 without delay); fetch holds such a lease until that long
// after its host's previous request ended, and past a 429 or 503's
// Retry-After (fetch(1)). None where lease-ahead does not apply: the wake
// time alone spaces those leases.
inline std::optional<double> lease_delay(const Politeness& p) {
    if (lease_cap(p) <= p.max_in_flight) return std::nullopt;
    return std::max(p.min_delay, 0.0);
}

// May a queue with `in_flight` leases out take one more, its host's
// robots.txt Crawl-delay being `crawl_delay`? Below max-in-flight always
// (the wake time has spaced it already); beyond it (an ahead lease) only
// when no Crawl-delay applies, as fetch would not space the extra ones.
inline bool ahead_allowed(const Politeness& p, int64_t in_flight, std::optional<double> crawl_delay) {
    if (in_flight < p.max_in_flight) return true;
    return !crawl_delay || std::min(*crawl_delay, p.max_crawl_delay) <= 0;
}

// fetch's --per-host for one fetch process serving every host of a
// frontier whose settings are `s` with `concurrency` transfers: the
// smallest max-in-flight of a place where lease-ahead applies (the global
// values and every --domain override), as fetch has one limit for all
// hosts; `concurrency` when lease-ahead applies nowhere (the frontier then
// caps every host itself).
inline int64_t fetch_per_host(const Settings& s, int64_t concurrency) {
    int64_t per_host = concurrency;
    auto take = [&](const Politeness& p) {
        if (lease_cap(p) > p.max_in_flight) per_host = std::min(per_host, std::max<int64_t>(p.max_in_flight, 1));
    };
    take(s.politeness);
    for (const auto& [domain, p] : s.domain_politeness) take(p);
    return per_host;
}

// frontier-lease --max-in-flight for a pipeline of `queued` leases out
// (fetch's transfers and the leases it queues) whose global politeness is
// `p`. Where lease-ahead gives a site with a constant delay one lease
// waiting in fetch per transfer, each host served needs room for both
// (else the next lease of a host waits for its last result to come back
// through frontier-done, and the host idles past its delay); a site
// without delay needs room for its ahead leases once.
inline int64_t pipeline_leases_out(int64_t queued, const Politeness& p) {
    const int64_t cap = lease_cap(p), mif = std::max<int64_t>(p.max_in_flight, 1);
    if (cap <= p.max_in_flight) return queued;
    if (delay_free(p)) return queued + cap - p.max_in_flight;
    return queued * cap / mif;
}

}  // namespace frontier
