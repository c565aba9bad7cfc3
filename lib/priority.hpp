// Priority scoring (the news-crawler seed's formula) and cost policies
// (Heritrix). Pure functions of settings and record; thread-safe.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "settings.hpp"
#include "url.hpp"

namespace frontier {

struct PriorityInput {
    const Url* url = nullptr;
    std::string_view type;
    int64_t depth = 0;
    std::string_view discovery;
    double bias = 0;
    std::vector<std::pair<std::string, double>> bonuses;  // the record's named scores
    std::optional<double> estimated_cost_ms;
    std::vector<std::string> meta_strings;                // string values of the record's meta
};

// The seed's discovery aliases: intelligent-seed and hub-seed count as
// adaptive-seed, validated-hub as hub-validated, link-discovery as link.
std::string_view canonical_discovery(std::string_view discovery);

// "acquisition" for article, refresh, history; else "discovery".
std::string_view url_class(std::string_view type);

// priority = type_weight[type] + depth + bias - discovery_bonus[discovery]
//            - sum(bonus * bonus_weight[name])  (weight 1 when not configured)
// then cost-aware (estimated_cost_ms < 100: -10%, > 500: +10%), then focus:
// the first rule with a token among the URL's host/path tokens, the type or
// meta strings sets the priority to its floor; focus-other for no match.
double compute_priority(const Settings& s, const PriorityInput& in);

// Cost per budget.cost-policy: zero 0; unit 1; wag 1 (+1 with a query
// string, +1 more when `via` without its query equals this URL without its
// query); anticalendar 1 (+1 when it looks like a calendar URL); rules 1 plus
// the cost of every matching budget.cost-rules regex.
int64_t compute_cost(const Settings& s, const Url& url, std::string_view via);

}  // namespace frontier
