// frontier-lease --follow (frontier-lease(1), Follow mode): keeps at most
// --max-in-flight leases out frontier-wide, leasing as URLs come due and
// results come back, until the crawl is finished or a stop is asked for.
// The polling strategy lives here; the frontier is reached through
// LeaseBackend (lease_session.hpp), so tests can run it over a stand-in.
#pragma once

#include <cstdint>
#include <optional>
#include <random>

#include "frontier/lease_session.hpp"
#include "policy/lease_policy.hpp"

namespace frontier {

struct FollowOptions {
    int64_t n = 100;            // URLs per batch at most
    std::optional<double> ttl;  // nullopt: the lease.ttl setting, as each batch reads it
    int64_t max_in_flight = 64;
    double refill_ratio = 1.0;     // top up under ratio x max_in_flight leases out
    double host_ratio = 0;         // or under ratio x the queues in flight after the last poll
    double min_poll_interval = 0;  // seconds between two polls at least
    double poll_interval = 0.2;    // look for new work at least this often
    bool forever = false;          // keep running after the crawl is finished
    bool quiet = false;
    bool progress = false;  // a line every 2 s, and a closing summary
    StopCheck stop = signal_stop();
};

class LeaseFollower {
public:
    // `req` carries -n's companions (--per-queue, --class, the holder...).
    LeaseFollower(LeaseBackend& backend, LeaseRequest& req, SessionSink& sink, FollowOptions o);

    // Runs until finished (0; 4 paused at finish) or stopped (0). Throws
    // ConnectionLost after kMaxLostBatches lost batches in a row.
    int run();

    static constexpr int kMaxLostBatches = 5;

private:
    LeaseOutcome next_leases(bool& too_soon);
    LeaseOutcome poll();
    LeaseOutcome lease_riding_out_lost_connections();
    void report(const LeaseOutcome& r);
    void summary(bool stopped);
    void wait_for_work(const LeaseOutcome& r, bool too_soon);

    LeaseBackend& backend_;
    LeaseRequest& req_;
    SessionSink& sink_;
    const FollowOptions o_;
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
    std::minstd_rand rng_;
    std::uniform_real_distribution<double> unit_{0.0, 1.0};
};

// A LeaseFollower over `store` (StoreLeaseBackend): frontier-lease --follow.
int follow_leases(Store& store, LeaseRequest& req, SessionSink& sink, FollowOptions o);

}  // namespace frontier
