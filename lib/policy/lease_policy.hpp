// Lease decisions (frontier-lease(1); frontier(7), BUDGETS, ROBOTS.TXT):
// plain functions over a queue's or a host's stored values. Store::lease
// reads the rows, asks these, and writes what they return.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace frontier {

// ---- budgets (Heritrix's queue rotation)


// What happens to an inactive queue whose turn has come.
enum class Activation { activate, retire };
// Retired when its total spend reached a total budget (>= 0), or when its
// replenish is 0 or less; else activated with a session balance of
// `replenish`.
Activation activation(int64_t total_spend, int64_t replenish, int64_t total);

// What happens to an active queue after a lease spent on it.
enum class AfterSpend { keep, retire, rotate_out, refill };
// Retired when its total spend reached its total budget; when its session
// balance is spent: to the back of the inactive FIFO if another queue is
// inactive, else it keeps going with a fresh balance (`refill`, replenish)
// or is retired when replenish is 0 or less.
AfterSpend after_spend(int64_t total_spend, int64_t session_balance, int64_t replenish, int64_t total,
                       bool others_inactive);

// Checked before leasing from an active queue: over its total budget (a
// budget lowered mid-crawl, or reached through error penalties)?
inline bool over_total(int64_t total_spend, int64_t total) { return total >= 0 && total_spend >= total; }

// Does after_spend's answer depend on whether another queue is inactive
// (its session balance spent, its total budget not reached)? Only then
// need the caller find out.
inline bool rotation_asks_others(int64_t total_spend, int64_t session_balance, int64_t total) {
    return session_balance <= 0 && !over_total(total_spend, total);
}

// ---- alternating URL classes (frontier(7), URL STATES; the news
// crawler's "alternate between queues with burst limit")

// URL classes as stored (urls.cls): 0 discovery, 1 acquisition.
inline constexpr int kClassDiscovery = 0;
inline constexpr int kClassAcquisition = 1;
// The stored code of a class name ("acquisition" or "discovery", as
// url_class and --class name them).
inline int class_code(std::string_view class_name) {
    return class_name == "acquisition" ? kClassAcquisition : kClassDiscovery;
}

// The run of leases of one class in a row, frontier-wide (class -1: none
// yet). Kept in the meta row 'class_run' as run x 2 + class.
struct ClassRun {
    int cls = -1;
    int64_t run = 0;
};
int64_t encode_class_run(const ClassRun& r);
ClassRun decode_class_run(int64_t v);

// The class the next lease should take: after `burst` (lease.class-burst)
// URLs of one class in a row, the other one; -1 (any, priority order) while
// the run is shorter, or when burst is 0 (off).
int forced_class(const ClassRun& r, int64_t burst);

// The run after leasing a URL of class `cls`.
ClassRun after_class_lease(ClassRun r, int cls);

// ---- the robots.txt prerequisite

// hosts.robots_state values.
enum class RobotsState : int64_t { unknown = 0, known = 1, unreachable = 2, given_up = 3 };

// What a URL's host's robots.txt state means for leasing the URL.
enum class RobotsStep {
    fetch_robots,  // lease the robots.txt first (none known, stale after a day, or a retry due)
    wait_lease,    // that robots.txt is leased already: nothing from this queue now
    hold,          // unreachable, its retry not due: hold the queue until then
    fail_url,      // given up: the URL fails robots-unreachable
    check_rules,   // known: match the URL against the stored rules
};
// `outstanding`: a robots.txt lease of the host is out. A known robots.txt
// is fetched again once it is a day old (kRobotsMaxAge).
RobotsStep robots_step(RobotsState state, double robots_at, double retry_at, bool outstanding, double now);

inline constexpr double kRobotsMaxAge = 86400;

// frontier-lease --follow: a follower that lost a race for the last free
// --max-in-flight slots (its lease found them taken by another follower
// woken by the same commit) waits a random part of a window before it
// looks again, so that followers do not all take the writer lock for
// nothing at every result (frontier-lease(1), Follow mode). The window is
// its last lease call's duration, doubled per race lost in a row (at most
// 16 times), never more than the poll interval; a lease that takes URLs
// closes it.
class FollowBackoff {
public:
    void lost(double call_seconds) {
        losses_ = losses_ < kMaxDoublings ? losses_ + 1 : kMaxDoublings;
        call_ = call_seconds;
    }
    void won() { losses_ = 0; }
    // Seconds to wait before the next look; `unit` uniform in [0, 1).
    double delay(double unit, double poll_interval) const {
        if (losses_ == 0) return 0;
        const double window = call_ * static_cast<double>(int64_t{1} << losses_);
        return unit * (window < poll_interval ? window : poll_interval);
    }

private:
    static constexpr int kMaxDoublings = 4;
    int losses_ = 0;
    double call_ = 0;
};

}  // namespace frontier
