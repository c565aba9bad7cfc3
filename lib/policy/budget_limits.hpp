// The budget rule (frontier(7), BUDGETS): which replenish amount and total
// budget are in force for a queue, from the global settings and the
// overrides of domains and queues. Plain values, no database: the Store
// reads the rows, frontier-budget lists them, both through this.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace frontier {

// The replenish amount and total budget in force for a queue.
struct BudgetLimits {
    int64_t replenish = 3000;
    int64_t total = -1;  // -1: none
};

// A budget override (frontier-budget(1)): a domain and its subdomains, or
// one queue, with the fields it sets (nullopt: not set by it).
struct BudgetOverride {
    std::string scope;  // "domain" or "queue"
    std::string name;
    std::optional<int64_t> replenish, total;
};

// Domain -> (setting key -> JSON value), as frontier-config --domain stores them.
using DomainSettingValues = std::map<std::string, std::map<std::string, std::string>>;

// A frontier's budget overrides, merged once: the stored overrides
// (frontier-budget --domain/--queue) and the domain settings
// budget.replenish and budget.total (frontier-config --domain), which count
// as domain overrides and win over the stored override's field of the same
// domain. Copyable; no I/O.
class BudgetOverrides {
public:
    BudgetOverrides() = default;
    // Any scope but "queue" is a domain. Throws std::invalid_argument or
    // std::out_of_range for a domain setting that is not an integer (they
    // are validated when stored).
    BudgetOverrides(const std::vector<BudgetOverride>& rows, const DomainSettingValues& domains);

    // The merged overrides, domains first, each scope in name order.
    std::vector<BudgetOverride> list() const;

    // The limits in force for the queue `queue_key`, field by field: the
    // queue's own override, then that of its host (the key without a port),
    // then of each parent domain, then `global` (budget.replenish,
    // budget.total). A queue override of the total alone keeps a domain's
    // replenish.
    BudgetLimits limits_for(std::string_view queue_key, const BudgetLimits& global) const;

private:
    struct Fields {
        std::optional<int64_t> replenish, total;
    };
    std::map<std::string, Fields, std::less<>> domains_, queues_;
};

}  // namespace frontier
