// frontier-lease --follow (lease_follower.hpp).

#include "frontier/lease_follower.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/output.hpp"

namespace frontier {

LeaseFollower::LeaseFollower(LeaseBackend& backend, LeaseRequest& req, SessionSink& sink, FollowOptions o)
    : backend_(backend),
      req_(req),
      sink_(sink),
      o_(std::move(o)),
      started_(monotonic_seconds()),
      last_report_(started_),
      last_poll_(started_),
      rng_(static_cast<unsigned>(::getpid()) ^ static_cast<unsigned>(monotonic_seconds() * 1e6)) {
    req_.now_at_lock = true;  // the clock read once the write lock is held (frontier-lease(1))
    // lease.ttl as each lease's transaction reads the settings: no read of
    // them before it (where a read is a round trip, one per batch).
    req_.ttl_from_settings = !o_.ttl;
    if (o_.ttl) req_.ttl = *o_.ttl;
}

int follow_leases(Store& store, LeaseRequest& req, SessionSink& sink, FollowOptions o) {
    StoreLeaseBackend backend(store);
    return LeaseFollower(backend, req, sink, std::move(o)).run();
}

int LeaseFollower::run() {
    seen_version_ = backend_.data_version();
    for (;;) {
        if (o_.stop()) {
            if (o_.progress) summary(true);
            return 0;
        }
        sleep_for(backoff_.delay(unit_(rng_), o_.poll_interval));  // 0 unless it lost a race; ends at SIGTERM
        req_.now = frontier::now();
        bool too_soon = false;
        LeaseOutcome r = next_leases(too_soon);
        for (auto& it : r.items) sink_.line(lease_item_json(it));
        emitted_ += static_cast<int64_t>(r.items.size());
        sink_.flush();
        if (o_.progress && monotonic_seconds() - last_report_ >= 2) report(r);
        if (r.status == LeaseStatus::emitted) {
            known_out_ = r.in_flight;
            last_full_ = static_cast<int64_t>(r.items.size()) >= req_.n || r.more_ready;
            continue;
        }
        if ((r.status == LeaseStatus::finished || r.status == LeaseStatus::paused) && !o_.forever) {
            if (o_.progress) summary(false);
            if (!o_.quiet) explain_lease(r, req_.now, sink_);
            return r.status == LeaseStatus::paused ? 4 : 0;
        }
        wait_for_work(r, too_soon);
    }
}

// Iudex's GenericWorkPollStrategy: poll when the orders out fall under
// --refill-ratio of --max-in-flight, or the hosts being fetched under
// --host-ratio of those right after the last poll, but not sooner than
// --min-poll-interval after it (`too_soon`). Right after a batch, where the
// backend can wait for a change (a read costs a round trip there), the
// leases out are those it counted under the lock (known_out_) when they
// say to wait (results committed since then end the wait), or when the
// batch was full (-n URLs, or a queue held to --per-queue with more ready:
// another batch may take more now). After a short batch, which took all
// that was ready, they are read again, as before a wait: another batch at
// once would find nothing, and hold the writer lock that the results
// coming back need.
LeaseOutcome LeaseFollower::next_leases(bool& too_soon) {
    const double threshold = o_.refill_ratio * static_cast<double>(o_.max_in_flight);
    auto is_low = [&](int64_t out) { return static_cast<double>(out) < threshold || out == 0; };
    const bool known = known_out_ && backend_.can_wait_for_change() && (!is_low(*known_out_) || last_full_);
    const int64_t out_now = known ? *known_out_ : backend_.leases_out();
    known_out_.reset();
    bool low = is_low(out_now);
    if (!low && o_.host_ratio > 0 && hosts_at_poll_ > 0 && out_now < o_.max_in_flight)
        low = static_cast<double>(backend_.queues_in_flight()) <
              o_.host_ratio * static_cast<double>(hosts_at_poll_);
    // The leases out count those that expired until a batch puts them back:
    // a batch runs at the first one's expiry (and at the start, to learn
    // it), or a follower at --max-in-flight whose leases all expired (their
    // pipeline gone) would wait for another process.
    if (!low && (!polled_ || (next_due_ && req_.now >= *next_due_))) low = true;
    too_soon = polled_ && monotonic_seconds() - last_poll_ < o_.min_poll_interval;
    if (low && !too_soon) return poll();
    LeaseOutcome r;
    r.status = LeaseStatus::not_ready;
    r.in_flight = out_now;
    if (next_due_ && *next_due_ > req_.now) r.next_due = next_due_;  // a batch runs at it
    return r;
}

// One lease batch, and what it teaches about the next.
LeaseOutcome LeaseFollower::poll() {
    // Commits from here on end the next wait: those the batch sees too (a
    // wake for nothing), and those it does not.
    seen_version_ = backend_.data_version();
    req_.max_in_flight = o_.max_in_flight;
    req_.n = std::min<int64_t>(o_.n, o_.max_in_flight);
    const double began = monotonic_seconds();
    LeaseOutcome r = lease_riding_out_lost_connections();
    last_poll_ = monotonic_seconds();
    // Nothing, with --max-in-flight leases out, or every ready queue held by
    // leases at once (partitions): another follower took what this one saw
    // free (FollowBackoff).
    if (!r.items.empty())
        backoff_.won();
    else if (r.in_flight >= o_.max_in_flight || r.contended)
        backoff_.lost(last_poll_ - began);
    next_due_ = r.items.empty() ? r.next_due : std::nullopt;
    // The leases out count expired ones until a batch puts them back: one
    // runs when the first expires, whatever this one did, or followers held
    // at --max-in-flight by the leases of a pipeline that died would wait
    // for each other for ever. One that had expired as this batch began was
    // put back by it, unless another writer held its partition: the next
    // batch after a poll interval looks again. Where the batch took URLs
    // and did not say, those out before it expire by the time its own do
    // (at one lease.ttl), and that batch learns of those out after it.
    std::optional<double> at;
    if (r.first_expiry)
        at = *r.first_expiry > req_.now ? *r.first_expiry : req_.now + o_.poll_interval;
    else if (!r.items.empty())
        at = req_.now + req_.ttl;
    if (at && (!next_due_ || *at < *next_due_)) next_due_ = at;
    polled_ = true;
    if (o_.host_ratio > 0) hosts_at_poll_ = backend_.queues_in_flight();
    return r;
}

// A connection lost inside a batch's transaction: nothing of the batch was
// printed, so it is leased again, once the next BEGIN has connected again
// (bounded by FRONTIER_PG_RECONNECT); leases the server may have committed
// just before the loss expire as usual. Exit 75 after kMaxLostBatches in a
// row (frontier-lease(1), EXIT STATUS).
LeaseOutcome LeaseFollower::lease_riding_out_lost_connections() {
    for (int lost = 0;; ++lost) {
        try {
            return backend_.lease(req_);
        } catch (const ConnectionLost& e) {
            if (!backend_.in_transaction() || lost + 1 >= kMaxLostBatches) throw;
            backend_.rollback();
            sink_.message(std::string(e.what()) + "; --follow leases that batch again");
        }
    }
}

// A progress line (every 2 s of real time) with the lease rate since the last.
void LeaseFollower::report(const LeaseOutcome& r) {
    double t = monotonic_seconds();
    sink_.message(
        "leased " + std::to_string(emitted_) + " (" + per_second(emitted_ - last_emitted_, t - last_report_) +
        "), " + std::to_string(r.in_flight) + " in flight, " + std::to_string(backend_.queued()) + " queued");
    last_report_ = t;
    last_emitted_ = emitted_;
}

// The closing line with progress.
void LeaseFollower::summary(bool stopped) {
    double secs = monotonic_seconds() - started_;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", secs);
    std::string line = (stopped ? "stopped by a signal after leasing " : "leased ") +
                       std::to_string(emitted_) + " URLs in " + buf + " s (" + per_second(emitted_, secs) +
                       ")";
    if (stopped) line += "; leases not answered expire and are handed out again";
    sink_.message(line);
}

// Sleeps until the next URL is due or another process commits (results
// coming back, new URLs), checking the data version cheaply: a commit since
// the last batch began ends it at once (one that batch already saw costs a
// look for nothing; none is missed).
void LeaseFollower::wait_for_work(const LeaseOutcome& r, bool too_soon) {
    double wait = o_.poll_interval;
    if (r.next_due) wait = std::min(wait, std::max(0.0, *r.next_due - req_.now));
    if (too_soon)
        wait = std::min(wait, std::max(0.0, last_poll_ + o_.min_poll_interval - monotonic_seconds()));
    if (backend_.can_wait_for_change()) {  // blocks until a commit, no polling
        const double until = monotonic_seconds() + wait;
        for (double left = wait; left > 0 && !o_.stop(); left = until - monotonic_seconds())
            if (backend_.wait_for_change(std::min(left, 0.05))) break;
        return;
    }
    // Often at first, where a result that frees a slot is most likely to
    // come while transfers wait for it, then every 2 ms.
    for (double slept = 0; slept < wait && !o_.stop();) {
        if (int64_t v = backend_.data_version(); v != seen_version_) {
            seen_version_ = v;
            break;
        }
        double step = slept < 0.02 ? 0.00025 : 0.002;
        sleep_for(step);
        slept += step;
    }
}

}  // namespace frontier
