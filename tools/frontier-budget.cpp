// frontier-budget: show and change queue budgets, retire and unretire queues.
//
// frontier-budget: the budget settings and overrides (frontier(7), BUDGETS). See
// budget_cmd.hpp for the contract and man/frontier-budget.1 for the tool.

#include <cctype>
#include <map>
#include <tuple>
#include <utility>

#include "policy/budget_edit.hpp"
#include "core/error.hpp"
#include "json/json.hpp"
#include "core/output.hpp"
#include "policy/settings.hpp"
#include "core/signals.hpp"
#include "store/store.hpp"
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

namespace {

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

int64_t to_int(const std::string& json) { return std::stoll(json); }

// The budget.* settings the tool shows, in display order.
bool is_budget_key(std::string_view key) { return key.starts_with("budget."); }

// Prints {"budget.hold-queues":...,...,"overrides":[{"domain":D,...},{"queue":K,...}]}.
// Overrides come from frontier-budget (domain and queue scope) and from
// frontier-config --domain D budget.replenish|budget.total (merged per
// domain, the frontier-config value winning as it does in the Store).
void print_budgets(Store& store, const std::string& only_scope, const std::string& only_name) {
    auto stored = store.setting_values();
    JsonWriter w;
    w.begin();
    for (auto& d : setting_defs()) {
        if (!is_budget_key(d.key)) continue;
        auto it = stored.find(d.key);
        w.field_raw(d.key, it != stored.end() ? it->second : d.default_json);
    }
    struct Limits {
        std::optional<int64_t> replenish, total;
    };
    std::map<std::pair<std::string, std::string>, Limits> ov;  // (scope, name); "domain" sorts first
    for (auto& o : store.budget_overrides()) ov[{o.scope, o.name}] = {o.replenish, o.total};
    for (auto& [dom, kv] : store.domain_setting_values()) {
        for (auto& [k, v] : kv) {
            if (k == "budget.replenish") ov[{"domain", dom}].replenish = to_int(v);
            if (k == "budget.total") ov[{"domain", dom}].total = to_int(v);
        }
    }
    w.key("overrides");
    w.begin_array();
    for (auto& [sn, l] : ov) {
        if (!only_scope.empty() && (sn.first != only_scope || sn.second != only_name)) continue;
        w.begin_object();
        w.field(sn.first, sn.second);
        if (l.replenish) w.field("replenish", *l.replenish);
        if (l.total) w.field("total_budget", *l.total);
        w.end_object();
    }
    w.end_array();
    w.end();
    out().write_line(w.str());
}

// Applies one valid edit (each Store call is its own transaction). Returns
// the rejection reason, or "" when applied; `unretired` counts queues moved.
std::string apply_edit(Store& store, const BudgetEdit& e, int64_t& unretired, bool create) {
    // An override for a queue or domain the frontier does not know is most
    // likely a typo: refused unless --create (frontier-budget(1)).
    if (!create && (e.replenish || e.total_budget)) {
        if (!e.queue.empty() && !store.queue_exists(e.queue)) return "unknown-queue";
        if (!e.domain.empty() && !store.domain_has_queues(e.domain)) return "unknown-domain";
    }
    // Retire first: an unknown queue rejects the whole line before anything changed.
    if (e.retire && !store.retire_queue(e.queue)) return "unknown-queue";
    // Unretire before the override: an override moves budget-retired queues
    // to the inactive FIFO itself, and the count should say what --unretire did.
    if (e.unretire) unretired = store.unretire(e.queue);
    if (e.hold_queues) store.set_setting("budget.hold-queues", *e.hold_queues);
    if (e.cost_policy) store.set_setting("budget.cost-policy", *e.cost_policy);
    if (e.error_penalty) store.set_setting("budget.error-penalty", *e.error_penalty);
    bool scoped = !e.queue.empty() || !e.domain.empty();
    if (scoped && (e.replenish || e.total_budget)) {
        Store::BudgetOverride o;
        o.scope = e.queue.empty() ? "domain" : "queue";
        o.name = e.queue.empty() ? e.domain : e.queue;
        o.replenish = e.replenish;
        o.total = e.total_budget;
        store.set_budget_override(o);
    } else if (!scoped) {
        if (e.replenish) store.set_setting("budget.replenish", std::to_string(*e.replenish));
        if (e.total_budget) store.set_setting("budget.total", std::to_string(*e.total_budget));
    }
    return "";
}

int run_apply(const BudgetOptions& o) {
    Store store(frontier_path(o.common), Store::Mode::create);
    LineReader reader(o.inputs.empty() ? std::vector<std::string>{"-"} : o.inputs);
    InputLine line;
    JsonWriter w;
    int64_t rejected = 0;
    while (!stop_requested() && reader.next(line)) {
        BudgetEdit e;
        if (!line.error.empty()) e.reason = line.error;
        else e = parse_budget_edit(line.record);
        int64_t unretired = -1;
        if (e.reason.empty() && !e.empty()) e.reason = apply_edit(store, e, unretired, o.create);
        const char* status = !e.reason.empty() ? "rejected" : e.empty() ? "skipped" : "applied";
        if (!e.reason.empty()) ++rejected;
        else if (o.common.quiet) continue;
        w.begin();
        w.field("line", static_cast<int64_t>(line.line_no));
        w.field("status", status);
        if (!e.queue.empty()) w.field("queue", e.queue);
        if (!e.domain.empty()) w.field("domain", e.domain);
        if (!e.reason.empty()) {
            w.field("reason", e.reason);
            if (!e.field.empty()) w.field("field", e.field);
        } else if (e.empty()) {
            w.field("reason", "no-edit");
        } else {
            if (e.replenish) w.field("replenish", *e.replenish);
            if (e.total_budget) w.field("total_budget", *e.total_budget);
            if (e.hold_queues) w.field_raw("hold_queues", *e.hold_queues);
            if (e.cost_policy) w.field_raw("cost_policy", *e.cost_policy);
            if (e.error_penalty) w.field_raw("error_penalty", *e.error_penalty);
            if (e.retire) w.field("retire", true);
            if (e.unretire) w.field("unretired", unretired);
        }
        w.end();
        out().write_line(w.str());
        if (reader.idle()) out().flush();
    }
    out().flush();
    return rejected > 0 ? 1 : 0;
}

}  // namespace

int run_budget(const BudgetOptions& o) {
    // Validate everything before touching the file.
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
    bool flag_edits = o.replenish || o.total_budget || o.hold_queues || o.cost_policy || o.error_penalty ||
                      !o.retire.empty() || o.unretire;
    if (o.apply && (flag_edits || scoped)) throw UsageError("--apply reads its edits from input: give no other edit");
    if (!o.apply && !o.inputs.empty()) throw UsageError("input files are read only with --apply");
    std::optional<std::string> replenish, total, hold, policy, penalty;
    if (o.replenish) replenish = normalise_setting("budget.replenish", *o.replenish);
    if (o.total_budget) total = normalise_setting("budget.total", *o.total_budget);
    if (o.hold_queues) hold = normalise_setting("budget.hold-queues", *o.hold_queues);
    if (o.cost_policy) policy = normalise_setting("budget.cost-policy", *o.cost_policy);
    if (o.error_penalty) penalty = normalise_setting("budget.error-penalty", *o.error_penalty);

    if (o.apply) return run_apply(o);
    std::string scope = o.queue.empty() ? "domain" : "queue";
    std::string name = lower(o.queue.empty() ? o.domain : o.queue);
    if (!flag_edits) {
        Store store(frontier_path(o.common), Store::Mode::read);
        print_budgets(store, scoped ? scope : "", name);
        return 0;
    }

    Store store(frontier_path(o.common), Store::Mode::create);
    int rc = 0;
    if (hold) store.set_setting("budget.hold-queues", *hold);
    if (policy) store.set_setting("budget.cost-policy", *policy);
    if (penalty) store.set_setting("budget.error-penalty", *penalty);
    if (scoped && (replenish || total)) {
        // A queue or domain the frontier does not know is most likely a
        // typo: refused unless --create, before anything is written.
        bool known = scope == "queue" ? store.queue_exists(name) : store.domain_has_queues(name);
        if (!known && !o.create) {
            diag("no " + scope + " " + name + " in " + frontier_path(o.common) +
                 (scope == "queue" ? " (frontier-report --queues lists them)" : " (no queue of it or its subdomains)") +
                 "; --create sets the override ahead of its URLs");
            return 1;
        }
        Store::BudgetOverride ov;
        ov.scope = scope;
        ov.name = name;
        if (replenish) ov.replenish = to_int(*replenish);
        if (total) ov.total = to_int(*total);
        store.set_budget_override(ov);
    } else {
        if (replenish) store.set_setting("budget.replenish", *replenish);
        if (total) store.set_setting("budget.total", *total);
    }
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
