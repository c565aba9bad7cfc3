// frontier-budget's edit records (frontier-budget(1), --apply): one JSON
// line decoded and validated into plain values, no I/O. The tool applies
// them (tools/frontier-budget.cpp); the options --domain, --queue,
// --total-budget ... are checked by the same functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "json/json.hpp"

namespace frontier {

// One --apply edit record, decoded and validated (no I/O). Exposed for unit
// tests. `reason` is non-empty when the record is rejected (and `field`
// then names the offending key when there is one).
struct BudgetEdit {
    std::string queue, domain;                   // scope (at most one)
    std::optional<int64_t> replenish, total_budget;
    std::optional<std::string> hold_queues, cost_policy, error_penalty;  // normalised JSON texts
    bool retire = false, unretire = false;
    std::string reason, field;
    bool empty() const {
        return !replenish && !total_budget && !hold_queues && !cost_policy && !error_penalty && !retire && !unretire;
    }
};
// Decodes the edit keys of `r` (queue, domain, replenish, total_budget,
// retire, unretire, hold_queues, cost_policy, error_penalty); every other key
// is ignored. Never throws for bad data: sets `reason` ("bad-field",
// "bad-value", "two-scopes", "needs-queue", "global-only", "conflict",
// "not-an-edit": neither an edit key nor a scope, e.g. a line that is not a
// JSON object). Values are checked by the same code as the options
// (budget_scope_problem, normalise_setting), so
// --apply refuses exactly what --domain, --queue, --total-budget ... refuse.
BudgetEdit parse_budget_edit(const Record& r);

// Why `name` (lower-cased) cannot be a --domain or --queue, or an --apply
// domain or queue: "" when it can. A queue key or domain is a host name in
// ASCII (an IDN in its xn-- form): letters, digits, '.', '-', '_', and ':'
// '[' ']' for a port or an IPv6 address; 1 to 260 bytes.
std::string budget_scope_problem(std::string_view name);

}  // namespace frontier
