// The frontier's data model shared by the storage module and the tools:
// URL and queue states, and the records that cross the storage interface.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "policy/url_record.hpp"
#include "web/url.hpp"

namespace frontier {

// URL states (frontier(7), URL STATES). Stored as integers; never renumber.
enum class UrlState : int { queued = 0, leased = 1, done = 2, failed = 3, blocked = 4, disabled = 5 };
const char* url_state_name(UrlState s);

// Queue membership in the budget rotation (frontier(7), BUDGETS). `active` queues are
// reported as in-process / snoozed / ready, and any queue without queued
// URLs as exhausted; those are derived, not stored.
enum class QueueState : int { active = 0, inactive = 1, retired = 2, retired_by_hand = 3 };

// Scheduling position of a queue (internal): the index a lease request reads.
enum class QueueSched : int {
    ready = 0,     // active, a due URL, awake, a slot free: in the ready index
    sleeping = 1,  // active with a due URL but wake_at in the future: in the wake index
    idle = 2,      // not active, nothing due, or at its in-flight cap
};

// One URL to add: the record as given (moved in, not copied) and what was
// computed from it (lib/frontier/enqueue.cpp builds it). The store reads
// the record's own fields (depth, type, discovery, via, meta, last_modified,
// visit_now, fork) through `record`.
struct AddRequest {
    UrlRecord record;
    Url url;  // canonical
    uint64_t fp = 0;
    std::string queue_key;
    std::string host_key;  // scheme://authority: robots.txt is per host
    double priority = 0;   // record.priority when given (record.priority set), else computed
    int64_t cost = 1;      // record.cost when given, else computed
    bool recrawl = false;  // record.recrawl, or its type is one of recrawl.types
    double now = 0;
};

enum class AddStatus { added, duplicate, updated, rejected };
const char* add_status_name(AddStatus s);

// Why a record was rejected on the add path: the input line (LineReader's
// reasons), the record's fields, canonicalize_url, scope and the store.
// add_reason_name gives the word the tools print; none is "".
enum class AddReason : uint8_t {
    none,
    bad_json, bad_utf8, nul_byte, line_too_long, not_object,  // the input line
    missing_url, bad_url, bad_scheme, bad_field,                // the record
    url_too_long, out_of_scope, max_depth, bad_priority,        // scope, score
    queue_full,                                                 // the store
};
const char* add_reason_name(AddReason r);
// The reason named `name` (add_reason_name's word; "" is none); nullopt
// for a word that is none of them.
std::optional<AddReason> add_reason_from_name(std::string_view name);

struct AddResult {
    AddStatus status = AddStatus::rejected;
    AddReason reason = AddReason::none;  // for rejected
};

struct LeaseRequest {
    int64_t n = 100;
    int64_t per_queue = 1;
    double host_discount = 0;
    double ttl = 600;
    std::string url_class;          // "", "acquisition" or "discovery"
    int64_t max_in_flight = -1;     // frontier-wide cap on leases out (--follow), -1: none
    double now = 0;
    // --follow (frontier-lease(1), Follow mode): `now` is read again once the
    // write lock is held (Store::lease sets it), not before BEGIN: a transaction waiting for the lock behind
    // another writer (frontier-done rescheduling the queue at its own, later
    // now) would otherwise find that queue not yet due and lease nothing.
    bool now_at_lock = false;
    // `ttl` is lease.ttl as the lease's own transaction reads the settings
    // (--follow without --ttl): no read of the settings before it.
    bool ttl_from_settings = false;
    // The lease holder recorded with every lease (Store::start_holder);
    // none: leases with no holder (frontier-lease --detached).
    std::optional<int64_t> holder;
    // URLs per queue id already taken by earlier transactions of the same
    // batch (frontier-lease splits a large -n), so --per-queue holds for the
    // whole batch. Null: this call is the whole batch.
    std::unordered_map<int64_t, int64_t>* taken = nullptr;
};

// The facts of one fetch result that the frontier uses (frontier-done(1)
// INPUT), read by frontier-done.
struct FetchFacts {
    std::string lease;
    std::string url;
    bool has_status = false;
    int64_t status = 0;
    std::string error_class;
    std::optional<double> duration_ms;
    std::optional<double> retry_after;
    std::optional<double> fetched_at;
    std::optional<int64_t> bytes;  // response body bytes, as fetch reports them
    std::optional<std::string> etag, http_last_modified, content_hash, content_type, body;
};

struct LeaseItem {
    std::string url, lease, queue;
    bool robots = false;
    double priority = 0;
    int64_t depth = 0, attempt = 0, cost = 0;
    std::string type, discovery, via, meta;
    double expires = 0;
    std::optional<std::string> etag, http_last_modified, content_hash;
    unsigned addresses = 0;  // address kinds it may connect to (lib/net/address_guard.hpp)
    std::string user_agent;  // the crawler's name (robots.user-agent's product token)
    std::optional<double> delay;  // seconds fetch keeps after the host's last request (lease-ahead)
};

enum class LeaseStatus { emitted, not_ready, paused, finished };

struct LeaseOutcome {
    std::vector<LeaseItem> items;
    LeaseStatus status = LeaseStatus::finished;
    std::optional<double> next_due;  // for not_ready: when the next URL is due
    int64_t in_flight = 0;           // leases out frontier-wide after this call
    int64_t retired_urls = 0;        // for paused: URLs held in retired queues
    // For emitted: a queue gave its --per-queue URLs while it had more
    // ready (a batch at once may take more; else this one took all there was
    // but for -n).
    bool more_ready = false;
    // For not_ready: queues were ready, but other writers running at once
    // held them all (partitions, frontier(7) POSTGRESQL): a race lost.
    bool contended = false;
    // With a cap on the leases out (--follow): when the first lease out
    // (URL or robots.txt) expires, or expired, as the call saw it, where
    // the backend knows that without a round trip more (none out, or not
    // known: nullopt). An expired lease keeps its slot until a call puts it
    // back, and no result will free it (its pipeline is gone): the
    // follower calls again then.
    std::optional<double> first_expiry;
};

}  // namespace frontier
