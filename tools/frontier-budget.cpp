// frontier-budget: show and change queue budgets, retire and unretire
// queues (frontier-budget(1); frontier(7), BUDGETS). The listing and the
// --apply edits are lib/frontier/budget_apply.hpp.

#include <cctype>
#include <tuple>

#include "core/error.hpp"
#include "core/output.hpp"
#include "core/signals.hpp"
#include "core/tool.hpp"
#include "frontier/budget_apply.hpp"
#include "json/json.hpp"
#include "policy/budget_edit.hpp"
#include "policy/settings.hpp"
#include "store/store.hpp"

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

namespace {

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// The edit options, normalised (normalise_setting): nullopt when not given.
struct FlagEdits {
    std::optional<std::string> replenish, total, hold, policy, penalty;
    bool any = false;  // an edit option, --retire or --unretire given
};

// Checks the option combinations and values before the file is touched;
// throws UsageError.
FlagEdits check_options(const BudgetOptions& o) {
    if ((o.domain_given || !o.domain.empty()) && (o.queue_given || !o.queue.empty()))
        throw UsageError("give --domain or --queue, not both");
    for (auto [opt, given, name] : {std::tuple{"--domain", o.domain_given, &o.domain},
                                    std::tuple{"--queue", o.queue_given, &o.queue}})
        if (given || !name->empty())
            if (std::string p = budget_scope_problem(lower(*name)); !p.empty())
                throw UsageError(std::string(opt) + " '" + *name + "' " + p);
    bool scoped = !o.domain.empty() || !o.queue.empty();
    if (scoped && (o.hold_queues || o.cost_policy || o.error_penalty))
        throw UsageError("--hold-queues, --cost-policy and --error-penalty are global: drop --domain/--queue");
    if (o.all && !o.unretire) throw UsageError("--all goes with --unretire");
    if (o.unretire && o.all == !o.unretire_keys.empty())
        throw UsageError("--unretire needs a queue KEY or --all (not both)");
    FlagEdits e;
    e.any = o.replenish || o.total_budget || o.hold_queues || o.cost_policy || o.error_penalty ||
            !o.retire.empty() || o.unretire;
    if (o.apply && (e.any || scoped)) throw UsageError("--apply reads its edits from input: give no other edit");
    if (!o.apply && !o.inputs.empty()) throw UsageError("input files are read only with --apply");
    if (o.replenish) e.replenish = normalise_setting("budget.replenish", *o.replenish);
    if (o.total_budget) e.total = normalise_setting("budget.total", *o.total_budget);
    if (o.hold_queues) e.hold = normalise_setting("budget.hold-queues", *o.hold_queues);
    if (o.cost_policy) e.policy = normalise_setting("budget.cost-policy", *o.cost_policy);
    if (o.error_penalty) e.penalty = normalise_setting("budget.error-penalty", *o.error_penalty);
    return e;
}

int run_apply(const BudgetOptions& o) {
    Store store(frontier_path(o.common), Store::Mode::create);
    LineReader reader(o.inputs.empty() ? std::vector<std::string>{"-"} : o.inputs);
    InputLine line;
    int64_t rejected = 0;
    while (!stop_requested() && reader.next(line)) {
        BudgetEdit e;
        if (!line.error.empty()) e.reason = line.error;
        else e = parse_budget_edit(line.record);
        int64_t unretired = -1;
        if (e.reason.empty() && !e.empty()) e.reason = apply_budget_edit(store, e, unretired, o.create);
        if (!e.reason.empty()) ++rejected;
        else if (o.common.quiet) continue;
        out().write_line(budget_result_line(static_cast<int64_t>(line.line_no), e, unretired));
        if (reader.idle()) out().flush();
    }
    out().flush();
    return rejected > 0 ? 1 : 0;
}

// Retires and unretires the queues the options name; 1 when one is unknown.
int retire_and_unretire(const BudgetOptions& o, Store& store) {
    int rc = 0;
    for (auto& key : o.retire) {
        if (store.retire_queue(lower(key))) continue;
        diag("no queue " + key);
        rc = 1;
    }
    if (o.unretire && o.all) {
        int64_t n = store.unretire("");
        if (o.common.verbose) diag(std::to_string(n) + " queues moved to the inactive FIFO");
    }
    for (auto& key : o.unretire_keys) {
        if (store.unretire(lower(key)) > 0) continue;
        diag("no retired queue " + key);
        rc = 1;
    }
    return rc;
}

// The edits given as options, each in its own transaction.
int run_flags(const BudgetOptions& o, const FlagEdits& e) {
    const std::string scope = o.queue.empty() ? "domain" : "queue";
    const std::string name = lower(o.queue.empty() ? o.domain : o.queue);
    Store store(frontier_path(o.common), Store::Mode::create);
    if (e.hold) store.set_setting("budget.hold-queues", *e.hold);
    if (e.policy) store.set_setting("budget.cost-policy", *e.policy);
    if (e.penalty) store.set_setting("budget.error-penalty", *e.penalty);
    if (!name.empty() && (e.replenish || e.total)) {
        // A queue or domain the frontier does not know is most likely a
        // typo: refused unless --create, before anything is written.
        bool known = scope == "queue" ? store.queue_exists(name) : store.domain_has_queues(name);
        if (!known && !o.create) {
            diag("no " + scope + " " + name + " in " + frontier_path(o.common) +
                 (scope == "queue" ? " (frontier-report --queues lists them)" : " (no queue of it or its subdomains)") +
                 "; --create sets the override ahead of its URLs");
            return 1;
        }
        Store::BudgetOverride ov{scope, name, std::nullopt, std::nullopt};
        if (e.replenish) ov.replenish = std::stoll(*e.replenish);
        if (e.total) ov.total = std::stoll(*e.total);
        store.set_budget_override(ov);
    } else {
        if (e.replenish) store.set_setting("budget.replenish", *e.replenish);
        if (e.total) store.set_setting("budget.total", *e.total);
    }
    return retire_and_unretire(o, store);
}

}  // namespace

int run_budget(const BudgetOptions& o) {
    const FlagEdits e = check_options(o);  // everything checked before the file is touched
    if (o.apply) return run_apply(o);
    if (e.any) return run_flags(o, e);
    Store store(frontier_path(o.common), Store::Mode::read);
    const bool scoped = !o.domain.empty() || !o.queue.empty();
    out().write_line(budget_listing(store, scoped ? (o.queue.empty() ? "domain" : "queue") : "",
                                    lower(o.queue.empty() ? o.domain : o.queue)));
    return 0;
}

}  // namespace frontier

int main(int argc, char** argv) {
    frontier::BudgetOptions o;
    CLI::Option *unretire = nullptr, *domain = nullptr, *queue = nullptr;
    auto text = [](std::optional<std::string>& slot) { return [&slot](const std::string& v) { slot = v; }; };
    return frontier::run_tool(
        "frontier-budget", argc, argv,
        [&](CLI::App& app) {
            frontier::add_common_options(app, o.common);
            domain = app.add_option("--domain", o.domain,
                                    "scope --replenish/--total-budget to domain D and its subdomains");
            queue = app.add_option("--queue", o.queue, "scope --replenish/--total-budget to the queue KEY");
            app.add_option_function<std::string>("--replenish", text(o.replenish),
                                                 "session balance N given on activation (budget.replenish)");
            app.add_option_function<std::string>("--total-budget", text(o.total_budget),
                                                 "total spend N after which a queue retires, -1 none (budget.total)");
            app.add_option_function<std::string>("--hold-queues", text(o.hold_queues),
                                                 "on|off: new queues start inactive (budget.hold-queues)");
            app.add_option_function<std::string>("--cost-policy", text(o.cost_policy),
                                                 "zero|unit|wag|anticalendar|rules (budget.cost-policy)");
            app.add_option_function<std::string>("--error-penalty", text(o.error_penalty),
                                                 "spend N charged per failed fetch (budget.error-penalty)");
            app.add_option("--retire", o.retire, "retire the queue KEY by hand (stays retired until --unretire)")
                ->expected(1)
                ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
            unretire = app.add_option("--unretire", o.unretire_keys,
                                      "move the retired queue KEY (or, with --all, every one) to the inactive FIFO")
                           ->expected(0, 1)
                           ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
            app.add_flag("--all", o.all, "with --unretire: every retired queue");
            app.add_flag("--apply", o.apply, "read JSON-lines edits from FILEs or stdin");
            app.add_flag("--create", o.create,
                         "allow --domain / --queue overrides (and --apply lines) for a domain or queue with no "
                         "queue yet");
            app.add_option("inputs", o.inputs, "with --apply: input FILEs (- = stdin)");
        },
        [&] {
            o.unretire = unretire->count() > 0;
            o.domain_given = domain->count() > 0;
            o.queue_given = queue->count() > 0;
            std::erase(o.unretire_keys, std::string());  // a bare --unretire yields one empty value
            return frontier::run_budget(o);
        },
        "Show and change queue budgets (global, per domain, per queue); retire and unretire queues.",
        "  # cap one domain mid-crawl; site-first crawling\n"
        "  frontier-budget -f crawl.db --domain example.org --total-budget 5000\n"
        "  frontier-budget -f crawl.db --hold-queues on --cost-policy zero\n"
        "  # 500 more for every queue its budget retired\n"
        "  frontier-report -f crawl.db --queues --json --state retired |\n"
        "      jq -c '{queue, total_budget: (.total_spend + 500)}' | frontier-budget -f crawl.db --apply");
}
