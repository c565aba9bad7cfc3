// Recrawl scheduling (frontier(7), RECRAWL, the Software Heritage policy): the due-revisit
// tiers, the interval feedback (multiplicative, or the Cho & Garcia-Molina
// change-rate estimate), lister updates, and the revisit counters behind
// frontier-report. Pure functions; no SQL.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "policy/settings.hpp"

namespace frontier {

struct RecrawlFacts {
    bool recrawl = false;
    std::optional<double> last_modified;  // the lister's date
    std::optional<double> last_success;   // last successful visit
    int64_t successes = 0;                // successful visits so far
    std::optional<double> next_visit;     // target of the next visit
    bool visit_now = false;
    double now = 0;
    // A lister's fork flag (frontier-add(1), fork): Software Heritage's
    // "non forks, then forks" among origins never loaded.
    bool fork = false;
};

struct Tier {
    int tier = 0;      // 0 for URLs that are not revisited
    double key = 0;    // ascending within the tier
};

// The order of a due URL within its priority level: tier 1 never
// successfully visited (oldest last_modified first, else discovery order),
// tier 2 lister date newer than the last success (largest lag first) or,
// without lister dates, visited once (oldest visit first), tier 3 the rest
// by next-visit target. visit_now puts the URL first in its tier. A fork
// never successfully visited (tier 1, or tier 0 for a URL not revisited)
// has kForkKey added to its key: behind every non-fork of its tier and
// priority, in the same order among forks.
Tier recrawl_tier(const RecrawlFacts& f);

// Above any date a tier-1 key holds (frontier-add refuses lister dates
// later than a day after now), below visit_now's -1e15 + now.
inline constexpr double kForkKey = 1e13;
// Does a stored tier and key say "a fork, never loaded"?
inline bool fork_tier(int tier, double key) { return tier <= 1 && key >= kForkKey / 2; }

// What a successful visit tells the interval rule.
struct VisitHistory {
    // The stored interval; nullopt at the first successful revisit-tracked
    // visit (recrawl.interval is used then).
    std::optional<double> previous;
    bool eventful = false;  // content hash changed (a 304 or equal hash: not)
    // Estimator inputs, this visit included: successful visits compared with
    // the one before them (n), how many of those saw a change (X), and the
    // time they span (seconds from the first successful visit to this one).
    int64_t compared = 0;
    int64_t changes = 0;
    double observed = 0;
    // Seconds since the last successful visit before this one (nullopt:
    // none): the multiplicative rule's base, as in the seed.
    std::optional<double> since_success;
};

struct VisitFeedback {
    double interval = 0;     // new stored interval (no jitter)
    double next_visit = 0;   // now + interval +- 10% jitter, never before now + min-interval
};

// Cho & Garcia-Molina (frontier(7), RECRAWL): from n visits with X changes at a
// regular interval I, r = -ln((n - X + 0.5)/(n + 0.5)) changes per interval
// and the change rate l = r / I. Visits here are not exactly regular, so I
// is the mean observed interval, observed / n. Returns changes per second,
// or nullopt when there is no evidence of change yet (n = 0, X = 0 or no
// observed time).
std::optional<double> estimated_change_rate(int64_t n, int64_t x, double observed);

// The interval after a successful visit, and the jittered next visit.
// Multiplicative policy (the seed's): / adjust-factor when eventful, x
// adjust-factor when not. Estimate policy: ln(2) / l with the estimated rate
// l, i.e. revisit when the page has changed with probability 1/2 since the
// last visit -- the point around which the multiplicative rule oscillates
// -- and x adjust-factor while no change has been seen. Both are clamped to
// [min-interval, max-interval]. `jitter_seed` makes the +-10% deterministic.
VisitFeedback next_revisit(const Settings& s, const VisitHistory& h, double now, uint64_t jitter_seed);

// A lister date newer than the last successful visit means the URL has
// changed: the earliest time it may be visited for that, the last success
// plus recrawl.min-interval. nullopt when the date says nothing new (never
// visited, no date, or not newer).
std::optional<double> listed_change_due(const Settings& s, std::optional<double> last_modified,
                                        std::optional<double> last_success, int64_t successes);

// --- report counters ------------------------------------------------------
// Maintained in the counters table so frontier-report reads them without a
// scan: "revisit:urls" (URLs marked for revisiting), "revisit:eventful" and
// "revisit:uneventful" (successful revisits, by outcome; the first visit is
// "revisit:first"), and "revisit:interval:<bucket>" (revisited URLs by their
// stored interval).

// Interval buckets, powers of two days: "<1d", "1-2d", "2-4d", ... "32-64d", ">=64d".
const std::vector<std::string>& interval_bucket_names();
const std::string& interval_bucket(double seconds);

// Counter deltas for one successful visit of a revisited URL: its bucket
// moves from `old_interval` (nullopt: none yet) to `new_interval`.
std::vector<std::pair<std::string, int64_t>> revisit_counter_deltas(std::optional<double> old_interval,
                                                                    double new_interval, bool first, bool eventful);

}  // namespace frontier
