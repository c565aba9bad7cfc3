// A URL added again (frontier-add(1), OUTPUT: duplicate and updated;
// frontier(7), RECRAWL): plain code over the stored row's values and the
// new record. Store::add_url reads the row, asks readd, and writes what it
// returns.
#pragma once

#include <cstdint>
#include <optional>

#include "policy/model.hpp"
#include "policy/recrawl.hpp"
#include "policy/settings.hpp"

namespace frontier {

// The stored values of a known URL that a new record of it may change.
struct StoredUrl {
    UrlState state = UrlState::queued;
    double priority = 0;
    bool recrawl = false;
    bool fork = false;
    int64_t successes = 0;
    std::optional<double> last_modified, due_at, last_success, next_visit;
};

struct Readd {
    bool changed = false;       // false: a duplicate, nothing is written
    bool recrawl_on = false;    // the record made it a revisited URL (revisit:urls counter)
    bool relisted = false;      // a disabled revisit listed again: its failures and reason are cleared
    double priority = 0;
    bool recrawl = false;
    std::optional<double> last_modified;
    Tier tier;
    UrlState state = UrlState::queued;  // requeued when != the stored state
    std::optional<double> due_at;       // set: it waits until then (a retry or revisit not due yet)
};

// What the record changes:
// - a newer lister date (last_modified), a given priority that differs,
//   revisiting turned on, the fork flag of a URL never loaded;
// - a disabled revisit is requeued when it is listed again (frontier-add, a
//   sitemap), not when a crawled page links to it;
// - visit_now requeues it now unless it is leased or blocked;
// - a lister date newer than the last success makes a waiting revisit due
//   as soon as recrawl.min-interval allows (requeued now if that is past).
Readd readd(const StoredUrl& k, const AddRequest& r, const Settings& s);

}  // namespace frontier
