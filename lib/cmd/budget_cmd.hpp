// frontier-budget (frontier(7), BUDGETS): show and change queue budgets mid-crawl, retire
// and unretire queues. The options are filled by CLI11 in
// tools/frontier-budget.cpp (no I/O while parsing); run_budget() validates
// them, opens the frontier file and applies the edits.
//
// Every edit is its own short transaction in the Store (a settings change:
// the settings version is bumped and retired queues move back to the
// inactive FIFO), so edits are safe while lease/fetch/done run on the file.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "json/json.hpp"
#include "core/tool.hpp"

namespace frontier {

struct BudgetOptions {
    CommonOptions common;
    // Scope of --replenish / --total-budget: at most one of the two.
    std::string domain;  // this domain and its subdomains
    std::string queue;   // one queue key
    bool domain_given = false, queue_given = false;  // the option was on the command line (even empty)
    // Edits, as given on the command line (validated by run_budget with
    // normalise_setting). nullopt: not given.
    std::optional<std::string> replenish, total_budget;                  // scoped or global
    std::optional<std::string> hold_queues, cost_policy, error_penalty;  // global only
    std::vector<std::string> retire;     // queue keys to retire by hand
    bool unretire = false;               // --unretire given
    std::vector<std::string> unretire_keys;  // its KEYs (none: needs --all)
    bool all = false;                    // --unretire --all
    bool apply = false;                  // read JSON-lines edits from `inputs`
    bool create = false;                 // allow overrides for queues / domains with no queue yet
    std::vector<std::string> inputs;     // with --apply: files, "-" = stdin (default)
};

// Runs frontier-budget. With no edit: prints the budget settings and the
// overrides as one JSON object. With edits: applies them, prints nothing
// (flags) or one result line per input line (--apply).
// Exit codes: 0 ok; 1 an --apply line was rejected, or --retire/--unretire
// named no such (retired) queue, or a database/I/O error; 2 usage error
// (throws UsageError: bad option combination or value).
int run_budget(const BudgetOptions& o);

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
