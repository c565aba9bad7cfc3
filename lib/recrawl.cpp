#include "recrawl.hpp"

#include <algorithm>
#include <cmath>

namespace frontier {

Tier recrawl_tier(const RecrawlFacts& f) {
    if (!f.recrawl) return {0, 0};
    Tier t;
    if (f.successes == 0) {
        t = {1, f.last_modified.value_or(0)};
    } else if (f.last_modified && f.last_success && *f.last_modified > *f.last_success) {
        t = {2, -(*f.last_modified - *f.last_success)};
    } else if (!f.last_modified && f.successes == 1) {
        t = {2, f.last_success.value_or(0)};
    } else {
        t = {3, f.next_visit.value_or(0)};
    }
    if (f.visit_now) t.key = -1e15 + f.now;
    return t;
}

VisitFeedback next_revisit(const Settings& s, std::optional<double> previous, bool eventful, int64_t visits,
                           int64_t changes, double now, uint64_t jitter_seed) {
    double interval;
    if (!previous) {
        interval = s.recrawl_interval;
    } else if (s.recrawl_policy == "estimate" && visits >= 2) {
        // Cho & Garcia-Molina: r = -ln((n - X + 0.5)/(n + 0.5)) changes per
        // interval; revisit about once per expected change.
        double n = static_cast<double>(visits), x = static_cast<double>(std::min(changes, visits));
        double r = -std::log((n - x + 0.5) / (n + 0.5));
        interval = r > 0 ? *previous / r : *previous * s.recrawl_adjust;
    } else if (eventful) {
        interval = *previous / s.recrawl_adjust;
    } else {
        interval = *previous * s.recrawl_adjust;
    }
    interval = std::clamp(interval, s.recrawl_min, std::max(s.recrawl_min, s.recrawl_max));
    // +-10% jitter from a hash of the seed, so bursts on one host spread.
    uint64_t h = jitter_seed * 0x9E3779B97F4A7C15ull;
    h ^= h >> 31;
    double u = static_cast<double>(h % 2000001) / 1000000.0 - 1.0;  // [-1, 1]
    return {interval, now + interval * (1.0 + 0.1 * u)};
}

}  // namespace frontier
