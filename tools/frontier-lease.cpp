// frontier-lease: hand out URLs that may be fetched now, each with a lease.

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/output.hpp"
#include "core/process_group.hpp"
#include "core/tool.hpp"
#include "frontier/lease_follower.hpp"
#include "policy/lease_policy.hpp"
#include "store/store.hpp"

namespace frontier {

struct LeaseOptions {
    CommonOptions common;
    // -n, --ttl and the --follow options, bound straight to what the
    // follower takes (lib/frontier/lease_follower.hpp): one set of defaults.
    FollowOptions batch;
    int64_t per_queue = 1;
    double host_discount = 0;
    std::string url_class;
    bool follow = false;
    bool reclaim = false;  // end every lease out now, then exit
    bool detached = false; // leases with no holder (handed to another process group)
};
int run_lease(const LeaseOptions& o);

namespace {

void check_options(const LeaseOptions& o) {
    if (o.batch.n < 1) throw UsageError("-n must be at least 1");
    if (o.per_queue < 1) throw UsageError("--per-queue must be at least 1");
    if (!o.url_class.empty() && o.url_class != "acquisition" && o.url_class != "discovery")
        throw UsageError("--class must be acquisition or discovery");
    if (o.batch.refill_ratio <= 0 || o.batch.refill_ratio > 1)
        throw UsageError("--refill-ratio must be in (0, 1]");
    if (!(o.batch.host_ratio >= 0 && o.batch.host_ratio <= 1))
        throw UsageError("--host-ratio must be in [0, 1]");
    if (!(o.batch.min_poll_interval >= 0 && o.batch.min_poll_interval <= 3600))
        throw UsageError("--min-poll-interval must be 0 to 3600 seconds");
    // NaN fails the test too.
    if (o.batch.ttl && !(*o.batch.ttl > 0 && *o.batch.ttl <= kMaxLeaseTtl))
        throw UsageError("--ttl must be a number of seconds above 0 and at most 604800 (7 days)");
}

FollowOptions follow_options(const LeaseOptions& o) {
    FollowOptions f = o.batch;
    f.quiet = o.common.quiet;
    f.progress = show_progress(o.common);  // a terminal, or --progress
    return f;
}

// --reclaim: ends every lease out.
int reclaim(const LeaseOptions& o, Store& store) {
    if (o.follow) throw UsageError("--reclaim ends leases and exits: give it without --follow");
    int64_t n = store.reclaim_leases(frontier::now());
    if (!o.common.quiet)
        diag("reclaimed " + std::to_string(n) + " lease" + (n == 1 ? "" : "s") +
             ": their URLs are queued again (a result that comes back for one is applied while the URL is "
             "not leased again)");
    return 0;
}

// Before the first lease: the leases of pipelines of this host that are
// provably gone (their process group no longer exists) end now, as if they
// had expired, and said so; this process group is recorded as the holder of
// the leases to come (none with --detached).
void start_holder(const LeaseOptions& o, Store& store, LeaseRequest& req) {
    GroupRecord me = this_group();
    Store::HolderStart h = store.start_holder(
        me, !o.detached, [](const GroupRecord& g) { return provably_gone(judge_group(g, probe_group(g.pgid))); },
        frontier::now());
    req.holder = h.holder;
    if (o.common.quiet || h.reclaimed.empty()) return;
    int64_t n = 0;
    std::string groups;
    for (const Store::GoneHolder& g : h.reclaimed) {
        n += g.leases;
        groups += (groups.empty() ? "" : ", ") + std::to_string(g.pgid);
    }
    bool one = h.reclaimed.size() == 1;
    diag("reclaimed " + std::to_string(n) + " lease" + (n == 1 ? "" : "s") + " of " +
         (one ? "a pipeline that is" : std::to_string(h.reclaimed.size()) + " pipelines that are") + " gone (host " +
         me.host + ", process group" + (one ? " " : "s ") + groups + "): their URLs are queued again");
}

// Leases out before this run (a crashed or stopped pipeline, or another
// worker): said, since they hold their queues until they expire.
void warn_leases_out(Store& store) {
    int64_t before = store.count("leased") + store.count("robots_leased");
    if (before <= 0) return;
    std::optional<double> until = store.last_lease_expiry();
    bool one = before == 1;
    diag(std::to_string(before) + (one ? " lease is" : " leases are") +
         " out from before this run (another worker, or a pipeline that stopped); " +
         (one ? "its URL waits until it expires" : "their URLs wait until they expire") +
         (until ? ", at the latest " + utc_time_text(*until) : std::string()) +
         (one ? "; if no one is fetching it, frontier-lease --reclaim hands it out again now"
              : "; if no one is fetching them, frontier-lease --reclaim hands them out again now"));
}

}  // namespace

int run_lease(const LeaseOptions& o) {
    check_options(o);
    Store store(frontier_path(o.common), Store::Mode::write);
    if (o.reclaim) return reclaim(o, store);
    LeaseRequest req;
    req.n = o.batch.n;
    req.per_queue = o.per_queue;
    req.host_discount = o.host_discount;
    req.url_class = o.url_class;
    start_holder(o, store, req);
    StdoutSink sink;
    if (!o.follow) return lease_once(store, req, o.batch.ttl, o.common.quiet, sink);
    if (!o.common.quiet) warn_leases_out(store);
    return follow_leases(store, req, sink, follow_options(o));
}

}  // namespace frontier

int main(int argc, char** argv) {
    frontier::LeaseOptions o;
    return frontier::run_tool(
        "frontier-lease", argc, argv,
        [&](CLI::App& app) {
            frontier::add_common_options(app, o.common);
            app.add_option("-n", o.batch.n, "URLs per batch (default 100)");
            app.add_option("--per-queue", o.per_queue, "at most K URLs per queue in one batch (default 1)");
            app.add_option("--host-discount", o.host_discount,
                           "add k x D to the priority of the k-th URL taken from one queue (default 0)");
            app.add_option_function<double>(
                "--ttl", [&](double v) { o.batch.ttl = v; },
                "lease lifetime in seconds, above 0 and at most 604800 (default: lease.ttl, 600)");
            app.add_option("--class", o.url_class, "acquisition|discovery: lease only URLs of this class");
            app.add_flag("--follow", o.follow, "keep leasing as URLs become ready until the crawl is finished");
            app.add_flag("--forever", o.batch.forever,
                         "with --follow: keep running after the crawl is finished (revisits)");
            app.add_option("--max-in-flight", o.batch.max_in_flight,
                           "with --follow: leases out frontier-wide (default 64)");
            app.add_option("--refill-ratio", o.batch.refill_ratio,
                           "with --follow: top up when fewer than ratio x max-in-flight are out (default 1)");
            app.add_option("--host-ratio", o.batch.host_ratio,
                           "with --follow: also top up when fewer than ratio x the hosts leased from at the last "
                           "batch still have leases out (default 0: off)");
            app.add_option("--min-poll-interval", o.batch.min_poll_interval,
                           "with --follow: at least this many seconds between two batches (default 0)");
            app.add_option("--poll-interval", o.batch.poll_interval,
                           "with --follow: check for new work at least this often, seconds (default 0.2)");
            app.add_flag("--detached", o.detached,
                         "leases with no holder, for another process group (a later job): they end only by "
                         "frontier-done or expiry, never when this pipeline is gone");
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
