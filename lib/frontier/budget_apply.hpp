// frontier-budget's work over a frontier (frontier-budget(1)): the listing
// of the budget settings and overrides, and edits applied. The tool parses
// options and input lines and prints; the edits are decoded and checked by
// lib/policy/budget_edit.hpp, merged by lib/policy/budget_limits.hpp.
#pragma once

#include <cstdint>
#include <string>

#include "policy/budget_edit.hpp"
#include "store/store.hpp"

namespace frontier {

// The budget settings and the merged overrides (BudgetOverrides) as one
// JSON object: {"budget.hold-queues":...,...,"overrides":[{"domain":D,
// "replenish":N,"total_budget":N},{"queue":K,...}]}, domains first. With
// `only_scope` ("domain" or "queue") non-empty, only the override of that
// scope named `only_name`. Reads only.
std::string budget_listing(Store& store, const std::string& only_scope, const std::string& only_name);

// Applies one valid edit of frontier-budget --apply (each Store call in its
// own transaction): a retire first (an unknown queue rejects the line
// before anything changed), an unretire (`unretired`: the queues it
// moved), the global settings, then the override. Returns the rejection
// reason ("unknown-queue", "unknown-domain": an override of a queue or
// domain the frontier does not know, unless `create`), or "" when applied.
// Throws DbError.
std::string apply_budget_edit(Store& store, const BudgetEdit& e, int64_t& unretired, bool create);

// frontier-budget --apply's output line for input line `line_no`:
// "applied" with the values applied, "skipped" (no edit) or "rejected"
// with its reason and field.
std::string budget_result_line(int64_t line_no, const BudgetEdit& e, int64_t unretired);

}  // namespace frontier
