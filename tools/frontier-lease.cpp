// frontier-lease: hand out URLs that may be fetched now, each with a lease.
#include "cmd/commands.hpp"

int main(int argc, char** argv) {
    frontier::LeaseOptions o;
    return frontier::run_tool(
        "frontier-lease", argc, argv,
        [&](CLI::App& app) {
            frontier::add_common_options(app, o.common);
            app.add_option("-n", o.n, "URLs per batch (default 100)");
            app.add_option("--per-queue", o.per_queue, "at most K URLs per queue in one batch (default 1)");
            app.add_option("--host-discount", o.host_discount,
                           "add k x D to the priority of the k-th URL taken from one queue (default 0)");
            app.add_option_function<double>(
                "--ttl", [&](double v) { o.ttl = v; },
                "lease lifetime in seconds, above 0 and at most 604800 (default: lease.ttl, 600)");
            app.add_option("--class", o.url_class, "acquisition|discovery: lease only URLs of this class");
            app.add_flag("--follow", o.follow, "keep leasing as URLs become ready until the crawl is finished");
            app.add_flag("--forever", o.forever, "with --follow: keep running after the crawl is finished (revisits)");
            app.add_option("--max-in-flight", o.max_in_flight, "with --follow: leases out frontier-wide (default 64)");
            app.add_option("--refill-ratio", o.refill_ratio,
                           "with --follow: top up when fewer than ratio x max-in-flight are out (default 1)");
            app.add_option("--host-ratio", o.host_ratio,
                           "with --follow: also top up when fewer than ratio x the hosts leased from at the last "
                           "batch still have leases out (default 0: off)");
            app.add_option("--min-poll-interval", o.min_poll_interval,
                           "with --follow: at least this many seconds between two batches (default 0)");
            app.add_option("--poll-interval", o.poll_interval,
                           "with --follow: check for new work at least this often, seconds (default 0.2)");
            app.add_flag("--reclaim", o.reclaim,
                         "end every lease out now (after a crash: no one fetches them), then exit");
        },
        [&] { return frontier::run_lease(o); },
        "Hand out URLs that may be fetched now, honouring priority, politeness, budgets and robots.txt.",
        "  # what is ready now (exit 3: nothing yet, stderr says when)\n"
        "  frontier-lease -f crawl.db -n 10\n"
        "  # a whole crawl: lease until finished (exit 4: paused at finish, budgets)\n"
        "  frontier-lease -f crawl.db --follow | fetch --links | frontier-done -f crawl.db\n"
        "  # after a crash: hand the dead pipeline's leases out again now\n"
        "  frontier-lease -f crawl.db --reclaim");
}
