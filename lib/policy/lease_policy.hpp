// Lease decisions (frontier-lease(1); frontier(7), BUDGETS, ROBOTS.TXT):
// plain functions over a queue's or a host's stored values. Store::lease
// reads the rows, asks these, and writes what they return.
#pragma once

#include <cstdint>
#include <optional>

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

}  // namespace frontier
