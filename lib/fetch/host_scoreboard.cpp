#include "fetch/host_scoreboard.hpp"

#include <algorithm>

#include "policy/outcome.hpp"

namespace frontier {

void HostScoreboard::init(HostState& h) const {
    if (h.initialised) return;
    h.initialised = true;
    h.delay = cfg_.autothrottle_target > 0 ? std::clamp(cfg_.start_delay, cfg_.min_delay, cfg_.max_delay) : 0;
}

double HostScoreboard::earliest_start(const HostState& h, double now, std::optional<double> delay) const {
    if (h.active >= cfg_.per_host) return std::numeric_limits<double>::infinity();
    double at = std::max(now, h.next_start);
    if (delay) at = std::max({at, h.last_end + *delay, h.hold_until});
    return at;
}

void HostScoreboard::retry_after(HostState& h, double now, int status, std::optional<double> retry_after) const {
    h.hold_until = std::max(h.hold_until, now + rate_limit_wait(status, retry_after, 0));
}

void HostScoreboard::started(HostState& h, double now, std::optional<double> delay) const {
    ++h.active;
    if (delay) h.delay_seen = std::max(h.delay_seen, *delay);
    h.next_start = h.delay > 0 ? now + h.delay : 0;
}

void HostScoreboard::finished(HostState& h, double now, int status, double latency, bool conn_failed,
                              bool timed_out) const {
    if (h.active > 0) --h.active;
    h.last_end = now;
    if (conn_failed) {
        h.down_until = now + cfg_.conn_retry;
        h.down_for_timeouts = false;
        h.timeouts = 0;
        return;
    }
    if (timed_out) {
        // A host that connects but does not answer costs a whole timeout a
        // page: after a few in a row it is down like one that refuses.
        if (cfg_.down_after_timeouts > 0 && ++h.timeouts >= cfg_.down_after_timeouts) {
            h.down_until = now + cfg_.conn_retry;
            h.down_for_timeouts = true;
            h.timeouts = 0;
        }
        return;
    }
    h.timeouts = 0;
    if (status == 0) return;  // no response: nothing learnt about latency
    if (latency < 0) latency = 0;
    if (status == 429) {
        h.latency = 30;
    } else if (h.latency < 0) {
        h.latency = latency;
    } else {
        double next = h.latency + 0.25 * (latency - h.latency);
        if (next > h.latency || status == 200) h.latency = next;
    }
    if (cfg_.autothrottle_target <= 0) return;
    double target = h.latency / cfg_.autothrottle_target;
    double next = std::max(target, (h.delay + target) / 2);
    next = std::clamp(next, cfg_.min_delay, cfg_.max_delay);
    if (status != 200 && next <= h.delay) return;
    h.delay = next;
}

}  // namespace frontier
