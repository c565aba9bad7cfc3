// The frontier file's invariants, checked by reading everything: the
// storage side of `frontier-report --check` (SQL in lib/store/store_check.cpp,
// part of the storage module). Tests run it after crashes, concurrent runs
// and hostile input; users run it when they doubt a file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace frontier {

class Store;

// One broken invariant: the check's name and a human-readable detail
// ("queue example.com: queued stored 5, recount 6").
struct CheckViolation {
    std::string check;
    std::string detail;
};

struct CheckResult {
    // Every check that ran, in order, with its number of violations (the
    // details of at most a few per check are kept in `violations`).
    std::vector<std::pair<std::string, int64_t>> checks;
    std::vector<CheckViolation> violations;
    int64_t urls = 0, queues = 0, hosts = 0;
    bool ok() const {
        for (auto& c : checks)
            if (c.second) return false;
        return true;
    }
};

// Checks, in one read transaction (a consistent snapshot, safe while a crawl
// runs; it only reads):
//   integrity      PRAGMA integrity_check says ok (PostgreSQL: every identity
//                  sequence is at or past its table's largest id)
//   schema         user_version is this build's, the meta sequences exist
//   settings       stored settings parse and validate
//   url-state      every URL is queued, leased, done, failed, blocked or disabled
//   url-refs       every URL's queue and host exist
//   duplicate-url  no canonical URL is stored twice
//   fingerprint    every URL's fingerprint is XXH3-64 of its text
//   lease          every leased URL (and robots.txt lease) has an expiry,
//                  at most lease.ttl's bound (7 days) from `now`; an expired
//                  lease that no tool has taken back yet is normal, not a
//                  violation
//   counters       the global URL counters (queued, leased, done, failed,
//                  blocked, disabled, robots_leased, added, queues, depth:*,
//                  heat:*) equal a recount from the urls, hosts and queues tables
//   queue-counts   each queue's queued, in_flight, done, failed, blocked and
//                  enqueued equal a recount
//   queue-state    each queue's state is known; an inactive queue has a FIFO
//                  place; a queue holding due URLs has a best rank (else it
//                  would never be scheduled)
// `max_details` bounds the details kept per check. Throws DbError when the
// file cannot be read at all.
CheckResult check_frontier(Store& store, double now, int64_t max_details = 10);

}  // namespace frontier
