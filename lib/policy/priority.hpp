// Priority scoring (the news-crawler seed's formula) and cost policies
// (Heritrix). Pure functions of settings and record; thread-safe.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/settings.hpp"
#include "policy/url_record.hpp"
#include "web/url.hpp"

namespace frontier {

// A priority and how it came about (the seed's prioritySource and
// bonusApplied): "base", "discovery-bonus", "gap-prediction",
// "cluster-boost" (the last step that lowered it), or "focus".
struct PriorityResult {
    double priority = 0;
    std::string_view source = "base";
    double bonus_applied = 0;
};

// The seed's discovery aliases: intelligent-seed and hub-seed count as
// adaptive-seed, validated-hub as hub-validated, link-discovery as link.
std::string_view canonical_discovery(std::string_view discovery);

// "acquisition" for article, refresh, history; else "discovery".
std::string_view url_class(std::string_view type);

// The seed's computeEnhancedPriority for the record `rec` of the canonical
// URL `url`, in its order (frontier(7), PRIORITY):
// base = (type_weight[type] + depth + bias) x priority.base-weight, with
// priority.unknown-depth as the depth of a record without one
// (!rec.depth_given);
// - discovery_bonus[discovery];
// - gap score (confidence_score x 10 + expected_coverage_lift x 5) x
//   bonus_weight["gap-score"];
// - cluster boost min(log2(cluster_count) x priority.cluster-boost-factor, 20);
// - sum(bonus x bonus_weight[name]) for the record's bonuses (weight 1 when
//   not configured);
// then, with priority.cost-aware, estimated_cost_ms < 100: -10%, > 500:
// +10%; then focus: the first rule with a token among the URL's host/path
// tokens, the type or meta strings sets the priority to its floor;
// focus-other for no match.
// The record's own priority (rec.priority) is not looked at: the caller
// uses it instead of calling this.
PriorityResult compute_priority_detail(const Settings& s, const Url& url, const UrlRecord& rec);
inline double compute_priority(const Settings& s, const Url& url, const UrlRecord& rec) {
    return compute_priority_detail(s, url, rec).priority;
}

// Cost per budget.cost-policy: zero 0; unit 1; wag 1 (+1 with a query
// string, +1 more when `via` without its query equals this URL without its
// query); anticalendar 1 (+1 when it looks like a calendar URL); rules 1 plus
// the cost of every matching budget.cost-rules regex.
int64_t compute_cost(const Settings& s, const Url& url, std::string_view via);

}  // namespace frontier
