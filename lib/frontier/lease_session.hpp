// frontier-lease's work over the frontier (frontier-lease(1)): one batch of
// -n, and what both it and --follow (lease_follower.hpp) print. The lease
// calls go through LeaseBackend, so tests can run them over a stand-in.
#pragma once

#include <cstdint>
#include <string>

#include "frontier/session_io.hpp"
#include "policy/model.hpp"
#include "store/store.hpp"

namespace frontier {

// What leasing needs of the frontier.
class LeaseBackend {
public:
    virtual ~LeaseBackend() = default;
    // One lease batch in its own transaction (Store::lease). Throws
    // ConnectionLost when the connection dropped inside it: then
    // in_transaction() is still true until rollback().
    virtual LeaseOutcome lease(LeaseRequest& req) = 0;
    virtual bool in_transaction() = 0;
    virtual void rollback() = 0;
    virtual int64_t leases_out() = 0;        // URLs and robots.txt
    virtual int64_t queues_in_flight() = 0;  // queues with leases out
    virtual int64_t queued() = 0;            // URLs queued
    virtual double lease_ttl() = 0;          // the lease.ttl setting
    // Changes whenever another connection commits (Store::data_version).
    virtual int64_t data_version() = 0;
    // Where the backend can block until that changes (Store::wait_for_change).
    virtual bool can_wait_for_change() = 0;
    virtual bool wait_for_change(double seconds) = 0;
};

class StoreLeaseBackend : public LeaseBackend {
public:
    explicit StoreLeaseBackend(Store& store) : store_(store) {}
    LeaseOutcome lease(LeaseRequest& req) override { return store_.lease(req); }
    bool in_transaction() override { return store_.in_transaction(); }
    void rollback() override { store_.rollback(); }
    int64_t leases_out() override { return store_.leases_out(); }
    int64_t queues_in_flight() override { return store_.queues_in_flight(); }
    int64_t queued() override { return store_.count("queued"); }
    double lease_ttl() override { return store_.settings().bounded_lease_ttl(); }
    int64_t data_version() override { return store_.data_version(); }
    bool can_wait_for_change() override { return store_.can_wait_for_change(); }
    bool wait_for_change(double seconds) override { return store_.wait_for_change(seconds); }

private:
    Store& store_;
};

// "2026-11-29 06:00:00Z" for epoch seconds.
std::string utc_time_text(double t);

// A lease's output record (frontier-lease(1), OUTPUT).
std::string lease_item_json(const LeaseItem& it);

// Why nothing was leased, said on the sink (nothing for `emitted`).
void explain_lease(const LeaseOutcome& r, double now, SessionSink& sink);

// The exit code of a batch that leased nothing: 3 not ready, 4 paused,
// 5 finished (frontier-lease(1), EXIT STATUS).
int lease_exit_code(LeaseStatus s);

// One batch of req.n URLs (no --follow): printed once each transaction
// commits; said why when none. `ttl`: --ttl, else the lease.ttl setting.
// Returns the exit code.
int lease_once(LeaseBackend& backend, LeaseRequest& req, std::optional<double> ttl, bool quiet,
               SessionSink& sink);
// lease_once over `store` (StoreLeaseBackend).
int lease_once(Store& store, LeaseRequest& req, std::optional<double> ttl, bool quiet, SessionSink& sink);

}  // namespace frontier
