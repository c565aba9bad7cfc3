// frontier-lease's batch and output (lease_session.hpp).

#include "frontier/lease_session.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <unordered_map>

#include "core/clock.hpp"
#include "json/json.hpp"
#include "net/address_guard.hpp"

namespace frontier {

std::string utc_time_text(double t) {
    time_t s = static_cast<time_t>(t);
    struct tm tmv;
    gmtime_r(&s, &tmv);
    char buf[32];
    strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%SZ", &tmv);
    return buf;
}

std::string lease_item_json(const LeaseItem& it) {
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
        if (number)
            w.field_raw("http_last_modified", v);
        else
            w.field("http_last_modified", v);
    }
    if (it.content_hash) w.field("content_hash", *it.content_hash);
    w.field("expires", it.expires);
    if (it.addresses) w.field("addresses", format_address_kinds(it.addresses));
    if (!it.user_agent.empty()) w.field("user_agent", it.user_agent);
    if (it.delay) w.field("delay", *it.delay);
    w.end();
    return w.str();
}

void explain_lease(const LeaseOutcome& r, double now, SessionSink& sink) {
    switch (r.status) {
        case LeaseStatus::emitted:
            break;
        case LeaseStatus::not_ready:
            if (r.next_due)
                sink.message(
                    "nothing is ready now; the next URL is due at " + utc_time_text(*r.next_due) + " (in " +
                    std::to_string(static_cast<int64_t>(std::ceil(std::max(0.0, *r.next_due - now)))) +
                    " s)");
            else
                sink.message("nothing is ready now; work remains (leases out)");
            break;
        case LeaseStatus::paused:
            sink.message(
                "finished, but " + std::to_string(r.retired_urls) +
                " URLs are held in retired queues (pause at finish): inspect them with frontier-report "
                "--queues --state retired, raise budgets with frontier-budget, then lease again");
            break;
        case LeaseStatus::finished:
            sink.message("finished: nothing remains to lease");
            break;
    }
}

int lease_exit_code(LeaseStatus s) {
    switch (s) {
        case LeaseStatus::emitted:
            return 0;
        case LeaseStatus::not_ready:
            return 3;
        case LeaseStatus::paused:
            return 4;
        case LeaseStatus::finished:
            return 5;
    }
    return 1;
}

namespace {
// Leases per transaction of a batch (about half a KiB each until printed).
constexpr int64_t kLeaseChunk = 10000;
}  // namespace

// A large -n is leased in transactions of kLeaseChunk, each printed once
// committed: memory stays flat (a transaction holds its leases until
// COMMIT), and --per-queue counts over the whole batch.
int lease_once(LeaseBackend& backend, LeaseRequest& req, std::optional<double> ttl, bool quiet,
               SessionSink& sink) {
    const int64_t n = req.n;
    req.ttl = ttl ? *ttl : backend.lease_ttl();
    req.now = frontier::now();
    std::unordered_map<int64_t, int64_t> taken;
    req.taken = &taken;
    LeaseOutcome r;
    bool emitted = false;
    for (int64_t left = n; left > 0;) {
        req.n = std::min(left, kLeaseChunk);
        r = backend.lease(req);
        for (auto& it : r.items) sink.line(lease_item_json(it));
        sink.flush();
        emitted = emitted || !r.items.empty();
        left -= static_cast<int64_t>(r.items.size());
        if (static_cast<int64_t>(r.items.size()) < req.n) break;  // nothing more ready now
    }
    req.taken = nullptr;
    if (emitted) return 0;
    if (!quiet) explain_lease(r, req.now, sink);
    return lease_exit_code(r.status);
}

int lease_once(Store& store, LeaseRequest& req, std::optional<double> ttl, bool quiet, SessionSink& sink) {
    StoreLeaseBackend backend(store);
    return lease_once(backend, req, ttl, quiet, sink);
}

}  // namespace frontier
