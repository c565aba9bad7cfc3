#include "policy/recrawl.hpp"

#include <algorithm>
#include <cmath>

namespace frontier {

Tier recrawl_tier(const RecrawlFacts& f) {
    if (!f.recrawl) return {0, f.fork ? kForkKey : 0};
    Tier t;
    if (f.successes == 0) {
        t = {1, f.last_modified.value_or(0) + (f.fork ? kForkKey : 0)};
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

std::optional<double> estimated_change_rate(int64_t n, int64_t x, double observed) {
    if (n <= 0 || x <= 0 || !(observed > 0)) return std::nullopt;
    double nn = static_cast<double>(n), xx = static_cast<double>(std::min(x, n));
    double r = -std::log((nn - xx + 0.5) / (nn + 0.5));  // changes per (mean) interval
    double mean_interval = observed / nn;
    return r / mean_interval;
}

VisitFeedback next_revisit(const Settings& s, const VisitHistory& h, double now, uint64_t jitter_seed) {
    double interval;
    if (!h.previous) {
        interval = s.recrawl_interval;
    } else if (s.recrawl_policy == "estimate") {
        std::optional<double> rate = estimated_change_rate(h.compared, h.changes, h.observed);
        interval = rate && *rate > 0 ? std::log(2.0) / *rate : *h.previous * s.recrawl_adjust;
    } else {
        // The seed's rule: the duration since the last successful visit,
        // divided by the adjust factor when this visit was eventful, else
        // multiplied; "stored-interval" adjusts the stored interval instead.
        double base = s.recrawl_policy == "stored-interval" || !h.since_success ? *h.previous : *h.since_success;
        interval = h.eventful ? base / s.recrawl_adjust : base * s.recrawl_adjust;
    }
    if (!std::isfinite(interval)) interval = s.recrawl_max;
    interval = std::clamp(interval, s.recrawl_min, std::max(s.recrawl_min, s.recrawl_max));
    // +-10% jitter from a hash of the seed, so bursts on one host spread; the
    // stored interval excludes it, and it never brings a visit before the
    // minimum interval.
    uint64_t x = jitter_seed * 0x9E3779B97F4A7C15ull;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    double u = static_cast<double>(x % 2000001) / 1000000.0 - 1.0;  // [-1, 1]
    double wait = std::max(interval * (1.0 + 0.1 * u), s.recrawl_min);
    return {interval, now + wait};
}

std::optional<double> listed_change_due(const Settings& s, std::optional<double> last_modified,
                                        std::optional<double> last_success, int64_t successes) {
    if (successes <= 0 || !last_modified || !last_success || *last_modified <= *last_success) return std::nullopt;
    return *last_success + s.recrawl_min;
}

const std::vector<std::string>& interval_bucket_names() {
    static const std::vector<std::string> names = {"<1d",    "1-2d",   "2-4d",   "4-8d",
                                                   "8-16d",  "16-32d", "32-64d", ">=64d"};
    return names;
}

const std::string& interval_bucket(double seconds) {
    const auto& names = interval_bucket_names();
    double days = seconds / 86400.0;
    size_t i = 0;
    // A tolerance of a millisecond keeps 64 days in ">=64d" whatever the rounding.
    for (double edge = 1; i + 1 < names.size() && days + 1e-8 >= edge; edge *= 2) ++i;
    return names[i];
}

std::vector<std::pair<std::string, int64_t>> revisit_counter_deltas(std::optional<double> old_interval,
                                                                    double new_interval, bool first, bool eventful) {
    std::vector<std::pair<std::string, int64_t>> d;
    d.emplace_back(first ? "revisit:first" : eventful ? "revisit:eventful" : "revisit:uneventful", 1);
    const std::string& to = interval_bucket(new_interval);
    if (old_interval) {
        const std::string& from = interval_bucket(*old_interval);
        if (from == to) return d;
        d.emplace_back("revisit:interval:" + from, -1);
    }
    d.emplace_back("revisit:interval:" + to, 1);
    return d;
}

}  // namespace frontier
