// frontier-config: show and change frontier settings.
#include "commands.hpp"

int main(int argc, char** argv) {
    frontier::ConfigOptions o;
    return frontier::run_tool(
        "frontier-config", argc, argv,
        [&](CLI::App& app) {
            frontier::add_common_options(app, o.common);
            app.add_option("--domain", o.domain, "show or set the override for this domain and its subdomains");
            app.add_flag("--unset", o.unset, "restore KEY to its default (or drop the --domain override)");
            app.add_option("args", o.args, "KEY to print one setting; KEY VALUE to set it");
        },
        [&] { return frontier::run_config(o); },
        "Show and change frontier settings (politeness, scope, priority, retries, recrawl, budgets).",
        "  frontier-config -f crawl.db politeness.min-delay 0.5\n  frontier-config -f crawl.db --domain example.org "
        "politeness.max-in-flight 2");
}
