// frontier-lease: hand out URLs that may be fetched now, each with a lease.

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <random>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/output.hpp"
#include "core/process_group.hpp"
#include "core/signals.hpp"
#include "core/tool.hpp"
#include "json/json.hpp"
#include "net/address_guard.hpp"
#include "policy/lease_policy.hpp"
#include "store/store.hpp"

namespace frontier {

struct LeaseOptions {
    CommonOptions common;
    int64_t n = 100;
    int64_t per_queue = 1;
    double host_discount = 0;
    std::optional<double> ttl;  // nullopt: the lease.ttl setting
    std::string url_class;
    bool follow = false;
    bool forever = false;
    int64_t max_in_flight = 64;
    double refill_ratio = 1.0;
    double host_ratio = 0;         // also top up when queues with leases out < ratio x those after the last poll
    double min_poll_interval = 0;  // seconds between two polls at least
    double poll_interval = 0.2;
    bool reclaim = false;  // end every lease out now, then exit
    bool detached = false; // leases with no holder (handed to another process group)
};
int run_lease(const LeaseOptions& o);

namespace {

std::string human_time(double t) {
    time_t s = static_cast<time_t>(t);
    struct tm tmv;
    gmtime_r(&s, &tmv);
    char buf[32];
    strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%SZ", &tmv);
    return buf;
}

void print_item(const LeaseItem& it) {
    JsonWriter w;
    w.begin();
    w.field("url", it.url);
    if (it.robots) w.field("robots", true);
    w.field("lease", it.lease);
    w.field("queue", it.queue);
    if (!it.robots) {
        w.field("priority", it.priority);
        w.field("depth", it.depth);
    }
    w.field("attempt", it.attempt);
    if (!it.type.empty()) w.field("type", it.type);
    if (!it.discovery.empty()) w.field("discovery", it.discovery);
    if (!it.via.empty()) w.field("via", it.via);
    if (!it.meta.empty()) w.field_raw("meta", it.meta);
    if (it.etag) w.field("etag", *it.etag);
    if (it.http_last_modified) {
        // Stored as given by fetch: epoch seconds (a number) or an HTTP date.
        const std::string& v = *it.http_last_modified;
        bool number = !v.empty() && v.find_first_not_of("0123456789.") == std::string::npos;
        if (number) w.field_raw("http_last_modified", v);
        else w.field("http_last_modified", v);
    }
    if (it.content_hash) w.field("content_hash", *it.content_hash);
    w.field("expires", it.expires);
    if (it.addresses) w.field("addresses", format_address_kinds(it.addresses));
    if (!it.user_agent.empty()) w.field("user_agent", it.user_agent);
    w.end();
    out().write_line(w.str());
}

void explain(const LeaseOutcome& r, double now, bool quiet) {
    if (quiet) return;
    switch (r.status) {
        case LeaseStatus::emitted: break;
        case LeaseStatus::not_ready:
            if (r.next_due)
                diag("nothing is ready now; the next URL is due at " + human_time(*r.next_due) + " (in " +
                     std::to_string(static_cast<int64_t>(std::ceil(std::max(0.0, *r.next_due - now)))) + " s)");
            else
                diag("nothing is ready now; work remains (leases out)");
            break;
        case LeaseStatus::paused:
            diag("finished, but " + std::to_string(r.retired_urls) +
                 " URLs are held in retired queues (pause at finish): inspect them with frontier-report --queues "
                 "--state retired, raise budgets with frontier-budget, then lease again");
            break;
        case LeaseStatus::finished: diag("finished: nothing remains to lease"); break;
    }
}

// --follow's closing line with --progress (or on a terminal).
void follow_summary(int64_t emitted, double started, bool stopped) {
    double secs = monotonic_seconds() - started;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", secs);
    std::string line = (stopped ? "stopped by a signal after leasing " : "leased ") + std::to_string(emitted) +
                       " URLs in " + buf + " s (" + per_second(emitted, secs) + ")";
    if (stopped) line += "; leases not answered expire and are handed out again";
    diag(line);
}

int exit_code(LeaseStatus s) {
    switch (s) {
        case LeaseStatus::emitted: return 0;
        case LeaseStatus::not_ready: return 3;
        case LeaseStatus::paused: return 4;
        case LeaseStatus::finished: return 5;
    }
    return 1;
}

// Leases per transaction of a non-follow batch (~0.5 KiB each until printed).
constexpr int64_t kLeaseChunk = 10000;

// The lease lifetime of a batch: --ttl, else the lease.ttl setting.
double lease_ttl(const LeaseOptions& o, Store& store) {
    return o.ttl ? *o.ttl : store.settings().bounded_lease_ttl();
}

void check_options(const LeaseOptions& o) {
    if (o.n < 1) throw UsageError("-n must be at least 1");
    if (o.per_queue < 1) throw UsageError("--per-queue must be at least 1");
    if (!o.url_class.empty() && o.url_class != "acquisition" && o.url_class != "discovery")
        throw UsageError("--class must be acquisition or discovery");
    if (o.refill_ratio <= 0 || o.refill_ratio > 1) throw UsageError("--refill-ratio must be in (0, 1]");
    if (!(o.host_ratio >= 0 && o.host_ratio <= 1)) throw UsageError("--host-ratio must be in [0, 1]");
    if (!(o.min_poll_interval >= 0 && o.min_poll_interval <= 3600))
        throw UsageError("--min-poll-interval must be 0 to 3600 seconds");
    // NaN fails the test too.
    if (o.ttl && !(*o.ttl > 0 && *o.ttl <= kMaxLeaseTtl))
        throw UsageError("--ttl must be a number of seconds above 0 and at most 604800 (7 days)");
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

// One batch of -n. A large -n is leased in transactions of kLeaseChunk, each
// printed once committed: memory stays flat (a transaction holds its leases
// until COMMIT), and --per-queue counts over the whole batch.
int lease_batch(const LeaseOptions& o, Store& store, LeaseRequest& req) {
    req.ttl = lease_ttl(o, store);
    req.now = frontier::now();
    std::unordered_map<int64_t, int64_t> taken;
    req.taken = &taken;
    LeaseOutcome r;
    bool emitted = false;
    for (int64_t left = o.n; left > 0;) {
        req.n = std::min(left, kLeaseChunk);
        r = store.lease(req);
        for (auto& it : r.items) print_item(it);
        out().flush();
        emitted = emitted || !r.items.empty();
        left -= static_cast<int64_t>(r.items.size());
        if (static_cast<int64_t>(r.items.size()) < req.n) break;  // nothing more ready now
    }
    if (emitted) return 0;
    explain(r, req.now, o.common.quiet);
    return exit_code(r.status);
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
         (until ? ", at the latest " + human_time(*until) : std::string()) +
         (one ? "; if no one is fetching it, frontier-lease --reclaim hands it out again now"
              : "; if no one is fetching them, frontier-lease --reclaim hands them out again now"));
}

// --follow: keep at most max_in_flight leases out frontier-wide.
// Progress (a terminal, or --progress): a line every 2 s of real time with
// the lease rate since the last line, and a closing summary.
class Follower {
public:
    Follower(const LeaseOptions& o, Store& store, LeaseRequest& req)
        : o_(o), store_(store), req_(req), progress_(show_progress(o.common)), started_(monotonic_seconds()),
          last_report_(started_), last_poll_(started_) {
        req_.now_at_lock = true;  // the clock read once the write lock is held (frontier-lease(1))
        // lease.ttl as each lease's transaction reads the settings: no read
        // of them before it (on PostgreSQL a round trip per batch).
        req_.ttl_from_settings = !o_.ttl;
        if (o_.ttl) req_.ttl = *o_.ttl;
    }

    int run() {
        if (!o_.common.quiet) warn_leases_out(store_);
        seen_version_ = store_.data_version();
        for (;;) {
            if (stop_requested()) {
                if (progress_) follow_summary(emitted_, started_, true);
                return 0;
            }
            sleep_for(
                backoff_.delay(unit_(rng_), o_.poll_interval));  // 0 unless it lost a race; ends at SIGTERM
            req_.now = frontier::now();
            bool too_soon = false;
            LeaseOutcome r = next_leases(too_soon);
            for (auto& it : r.items) print_item(it);
            emitted_ += static_cast<int64_t>(r.items.size());
            out().flush();
            if (progress_ && monotonic_seconds() - last_report_ >= 2) report(r);
            if (r.status == LeaseStatus::emitted) {
                known_out_ = r.in_flight;
                last_full_ = static_cast<int64_t>(r.items.size()) >= req_.n || r.more_ready;
                continue;
            }
            if ((r.status == LeaseStatus::finished || r.status == LeaseStatus::paused) && !o_.forever) {
                if (progress_) follow_summary(emitted_, started_, false);
                explain(r, req_.now, o_.common.quiet);
                return r.status == LeaseStatus::paused ? 4 : 0;
            }
            wait_for_work(r, too_soon);
        }
    }

private:
    // Iudex's GenericWorkPollStrategy: poll when the orders out fall
    // under --refill-ratio of --max-in-flight, or the hosts being
    // fetched under --host-ratio of those right after the last poll,
    // but not sooner than --min-poll-interval after it (`too_soon`).
    // Right after a batch, on PostgreSQL (where a read costs a round trip),
    // the leases out are those it counted under the lock (known_out_) when
    // they say to wait (results committed since then end the wait), or when
    // the batch was full (-n URLs, or a queue held to --per-queue with more
    // ready: another batch may take more now). After a short batch, which
    // took all that was ready, they are read again, as before a wait:
    // another batch at once would find nothing, and hold the writer lock
    // that the results coming back need.
    LeaseOutcome next_leases(bool& too_soon) {
        const double threshold = o_.refill_ratio * static_cast<double>(o_.max_in_flight);
        auto is_low = [&](int64_t out) { return static_cast<double>(out) < threshold || out == 0; };
        const bool known = known_out_ && store_.can_wait_for_change() && (!is_low(*known_out_) || last_full_);
        const int64_t out_now = known ? *known_out_ : store_.leases_out();
        known_out_.reset();
        bool low = is_low(out_now);
        if (!low && o_.host_ratio > 0 && hosts_at_poll_ > 0 && out_now < o_.max_in_flight)
            low = static_cast<double>(store_.queues_in_flight()) < o_.host_ratio * static_cast<double>(hosts_at_poll_);
        // The leases out count those that expired until a batch puts them
        // back: a batch runs at the first one's expiry (and at the start,
        // to learn it), or a follower at --max-in-flight whose leases all
        // expired (their pipeline gone) would wait for another process.
        if (!low && (!polled_ || (next_due_ && req_.now >= *next_due_))) low = true;
        too_soon = polled_ && monotonic_seconds() - last_poll_ < o_.min_poll_interval;
        LeaseOutcome r;
        if (low && !too_soon) {
            // Commits from here on end the next wait: those the batch sees
            // too (a wake for nothing), and those it does not.
            seen_version_ = store_.data_version();
            req_.max_in_flight = o_.max_in_flight;
            req_.n = std::min<int64_t>(o_.n, o_.max_in_flight);
            const double began = monotonic_seconds();
            r = lease_riding_out_lost_connections();
            last_poll_ = monotonic_seconds();
            // Nothing, with --max-in-flight leases out: another follower
            // took what this one saw free (FollowBackoff).
            if (!r.items.empty())
                backoff_.won();
            else if (r.in_flight >= o_.max_in_flight)
                backoff_.lost(last_poll_ - began);
            next_due_ = r.items.empty() ? r.next_due : std::nullopt;
            polled_ = true;
            if (o_.host_ratio > 0) hosts_at_poll_ = store_.queues_in_flight();
        } else {
            r.status = LeaseStatus::not_ready;
            r.in_flight = out_now;
            if (next_due_ && *next_due_ > req_.now) r.next_due = next_due_;  // a batch runs at it
        }
        return r;
    }

    // A PostgreSQL connection lost inside a batch's transaction: nothing of
    // the batch was printed, so it is leased again, once the next BEGIN has
    // connected again (bounded by FRONTIER_PG_RECONNECT); leases the server
    // may have committed just before the loss expire as usual. Exit 75
    // after kMaxLostBatches in a row (frontier-lease(1), EXIT STATUS).
    LeaseOutcome lease_riding_out_lost_connections() {
        for (int lost = 0;; ++lost) {
            try {
                return store_.lease(req_);
            } catch (const ConnectionLost& e) {
                if (!store_.in_transaction() || lost + 1 >= kMaxLostBatches) throw;
                store_.rollback();
                diag(std::string(e.what()) + "; --follow leases that batch again");
            }
        }
    }
    static constexpr int kMaxLostBatches = 5;

    void report(const LeaseOutcome& r) {
        double t = monotonic_seconds();
        diag("leased " + std::to_string(emitted_) + " (" + per_second(emitted_ - last_emitted_, t - last_report_) +
             "), " + std::to_string(r.in_flight) + " in flight, " + std::to_string(store_.count("queued")) +
             " queued");
        last_report_ = t;
        last_emitted_ = emitted_;
    }

    // Sleeps until the next URL is due or another process commits (results
    // coming back, new URLs), checking the file's data version cheaply: a
    // commit since the last batch began ends it at once (one that batch
    // already saw costs a look for nothing; none is missed).
    void wait_for_work(const LeaseOutcome& r, bool too_soon) {
        double wait = o_.poll_interval;
        if (r.next_due) wait = std::min(wait, std::max(0.0, *r.next_due - req_.now));
        if (too_soon) wait = std::min(wait, std::max(0.0, last_poll_ + o_.min_poll_interval - monotonic_seconds()));
        if (store_.can_wait_for_change()) {  // PostgreSQL: blocks on LISTEN, no polling
            const double until = monotonic_seconds() + wait;
            for (double left = wait; left > 0 && !stop_requested(); left = until - monotonic_seconds())
                if (store_.wait_for_change(std::min(left, 0.05))) break;
            return;
        }
        for (double slept = 0; slept < wait && !stop_requested(); slept += 0.002) {
            if (int64_t v = store_.data_version(); v != seen_version_) {
                seen_version_ = v;
                break;
            }
            sleep_for(0.002);
        }
    }

    const LeaseOptions& o_;
    Store& store_;
    LeaseRequest& req_;
    const bool progress_;
    const double started_;
    double last_report_, last_poll_;
    bool polled_ = false;
    std::optional<int64_t> known_out_;  // leases out as the last batch left them
    bool last_full_ = false;            // that batch took -n URLs, or left more ready
    int64_t seen_version_ = 0;          // the data version as the last batch began (wait_for_work)
    int64_t hosts_at_poll_ = 0;
    int64_t emitted_ = 0, last_emitted_ = 0;
    FollowBackoff backoff_;
    std::optional<double> next_due_;  // when the last batch of nothing said the next URL comes due
    std::minstd_rand rng_{static_cast<unsigned>(::getpid()) ^
                          static_cast<unsigned>(monotonic_seconds() * 1e6)};
    std::uniform_real_distribution<double> unit_{0.0, 1.0};
};

}  // namespace

int run_lease(const LeaseOptions& o) {
    check_options(o);
    Store store(frontier_path(o.common), Store::Mode::write);
    if (o.reclaim) return reclaim(o, store);
    LeaseRequest req;
    req.n = o.n;
    req.per_queue = o.per_queue;
    req.host_discount = o.host_discount;
    req.url_class = o.url_class;
    start_holder(o, store, req);
    if (!o.follow) return lease_batch(o, store, req);
    return Follower(o, store, req).run();
}

}  // namespace frontier

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
