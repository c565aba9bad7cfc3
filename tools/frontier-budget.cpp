// frontier-budget: show and change queue budgets, retire and unretire queues.
#include "cmd/budget_cmd.hpp"

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
