// The budget rule (lib/policy/budget_limits.hpp).
#include "policy/budget_limits.hpp"

namespace frontier {

BudgetOverrides::BudgetOverrides(const std::vector<BudgetOverride>& rows, const DomainSettingValues& domains) {
    for (const BudgetOverride& r : rows) (r.scope == "queue" ? queues_ : domains_)[r.name] = {r.replenish, r.total};
    for (const auto& [domain, kv] : domains)
        for (const auto& [key, value] : kv) {
            if (key == "budget.replenish") domains_[domain].replenish = std::stoll(value);
            if (key == "budget.total") domains_[domain].total = std::stoll(value);
        }
}

std::vector<BudgetOverride> BudgetOverrides::list() const {
    std::vector<BudgetOverride> v;
    v.reserve(domains_.size() + queues_.size());
    for (const auto& [name, f] : domains_) v.push_back({"domain", name, f.replenish, f.total});
    for (const auto& [name, f] : queues_) v.push_back({"queue", name, f.replenish, f.total});
    return v;
}

BudgetLimits BudgetOverrides::limits_for(std::string_view queue_key, const BudgetLimits& global) const {
    Fields r;
    auto fill = [&r](const Fields& o) {
        if (!r.replenish) r.replenish = o.replenish;
        if (!r.total) r.total = o.total;
    };
    if (auto it = queues_.find(queue_key); it != queues_.end()) fill(it->second);
    if (!domains_.empty()) {
        std::string_view h = queue_key;
        // A port is dropped; an IPv6 address ("[::1]:8080") keeps its colons.
        if (auto colon = h.rfind(':'); colon != std::string_view::npos && h.find(']') == std::string_view::npos)
            h = h.substr(0, colon);
        while (!h.empty() && (!r.replenish || !r.total)) {
            if (auto it = domains_.find(h); it != domains_.end()) fill(it->second);
            auto dot = h.find('.');
            if (dot == std::string_view::npos) break;
            h = h.substr(dot + 1);
        }
    }
    return {r.replenish.value_or(global.replenish), r.total.value_or(global.total)};
}

}  // namespace frontier
