// Recrawl scheduling (SPEC §9, the Software Heritage policy): the due-revisit
// tiers and the interval feedback. Pure functions; no SQL.
#pragma once

#include <cstdint>
#include <optional>

#include "settings.hpp"

namespace frontier {

struct RecrawlFacts {
    bool recrawl = false;
    std::optional<double> last_modified;  // the lister's date
    std::optional<double> last_success;   // last successful visit
    int64_t successes = 0;                // successful visits so far
    std::optional<double> next_visit;     // target of the next visit
    bool visit_now = false;
    double now = 0;
};

struct Tier {
    int tier = 0;      // 0 for URLs that are not revisited
    double key = 0;    // ascending within the tier
};

// The order of a due URL within its priority level: tier 1 never
// successfully visited (oldest last_modified first, else discovery order),
// tier 2 lister date newer than the last success (largest lag first) or,
// without lister dates, visited once (oldest visit first), tier 3 the rest
// by next-visit target. visit_now puts the URL first in its tier.
Tier recrawl_tier(const RecrawlFacts& f);

struct VisitFeedback {
    double interval = 0;     // new stored interval (no jitter)
    double next_visit = 0;   // now + interval +- 10% jitter
};

// Interval after a successful visit. `previous` is the stored interval
// (nullopt before the first success: recrawl.interval is used), `eventful`
// whether the content changed. Multiplicative policy: / adjust-factor when
// eventful (clamped to min-interval), x adjust-factor when not (clamped to
// max-interval). Estimate policy: Cho & Garcia-Molina change-rate estimate
// from `visits` and `changes`. `jitter_seed` makes the +-10% deterministic.
VisitFeedback next_revisit(const Settings& s, std::optional<double> previous, bool eventful, int64_t visits,
                           int64_t changes, double now, uint64_t jitter_seed);

}  // namespace frontier
