// frontier-config: show and change frontier settings.
#include "cmd/commands.hpp"

int main(int argc, char** argv) {
    frontier::ConfigOptions o;
    return frontier::run_tool(
        "frontier-config", argc, argv,
        [&](CLI::App& app) {
            frontier::add_common_options(app, o.common);
            app.add_option("--domain", o.domain, "show or set the override for this domain and its subdomains");
            app.add_flag("--unset", o.unset, "restore KEY to its default (or drop the --domain override)");
            app.add_flag("--keys", o.keys,
                         "list every setting (key, default, type, meaning) as JSON lines; no file needed");
            auto* k = app.add_option("key", o.key, "KEY to print one setting");
            app.add_option("value", o.value, "VALUE to set KEY to (JSON, or a bare word)")->needs(k);
        },
        [&] {
            if (!o.key.empty()) o.args.push_back(o.key);
            if (!o.value.empty()) o.args.push_back(o.value);
            return frontier::run_config(o);
        },
        "Show and change frontier settings (politeness, scope, priority, retries, recrawl, budgets).",
        "  # every setting, then one, then change one\n"
        "  frontier-config -f crawl.db\n"
        "  frontier-config -f crawl.db politeness.min-delay\n"
        "  frontier-config -f crawl.db politeness.min-delay 0.5\n"
        "  # a friendlier pace for one site and its subdomains\n"
        "  frontier-config -f crawl.db --domain example.org politeness.max-in-flight 2");
}
