// The stored codes of the states (lib/policy/model.hpp) as SQL text, so a
// statement names a state instead of a bare number:
//   "UPDATE urls SET state = " SQL_URL_QUEUED " WHERE state = " SQL_URL_LEASED
// Macros, because only adjacent string literals join at compile time; the
// static_asserts keep them equal to the enums. Private to lib/store/.
#pragma once

#include <string>

#include "policy/model.hpp"

#define SQL_URL_QUEUED "0"
#define SQL_URL_LEASED "1"
#define SQL_URL_DONE "2"
#define SQL_URL_FAILED "3"
#define SQL_URL_BLOCKED "4"
#define SQL_URL_DISABLED "5"

#define SQL_QUEUE_ACTIVE "0"
#define SQL_QUEUE_INACTIVE "1"
#define SQL_QUEUE_RETIRED "2"
#define SQL_QUEUE_RETIRED_BY_HAND "3"

#define SQL_SCHED_READY "0"
#define SQL_SCHED_SLEEPING "1"
#define SQL_SCHED_IDLE "2"

// Marks where a statement that looks for rows to change takes a condition
// on a queue id column (`col`) in a transaction that runs in partitions:
// only rows of the partitions it holds (Store::Impl::held,
// StoreBackend::held_condition). Elsewhere a comment.
#define SQL_HELD(col) " /*held:" col "*/"
// Marks the queues table (in place of its name, after FROM) in a read of
// ready queues to lease from: in partitions, only the ready queues the
// lease locked.
#define SQL_HELD_READY SQL_HELD("ready") " queues"

// The work that comes due by time `t` (SQL): expired URL leases (urls),
// expired robots.txt leases (hosts), retries and revisits (urls), sleeping
// queues to wake (queues). What housekeeping finds and the partitions a
// lease locks for it (lib/store/pg/pg_partitions.hpp) are the same rows.
// IS NOT NULL names the partial indexes' conditions: a plan made without
// the time's value can use them.
#define SQL_LEASE_EXPIRED(t) "state = " SQL_URL_LEASED " AND lease_expires <= " t
#define SQL_ROBOTS_EXPIRED(t) "robots_lease_expires IS NOT NULL AND robots_lease_expires <= " t
#define SQL_DUE_AT(t) "due_at IS NOT NULL AND due_at <= " t
#define SQL_TO_WAKE(t) "sched = " SQL_SCHED_SLEEPING " AND wake_at <= " t

// The condition that a URL row is in the lease order: queued and due
// (frontier(7), FILE FORMAT). `r`: its qualifier with the dot ("", "u.").
#define SQL_URL_DUE(r) r "state = " SQL_URL_QUEUED " AND " r "due_at IS NULL"

namespace frontier::sql_codes_check {
constexpr int code(const char* s) { return s[0] - '0'; }
static_assert(code(SQL_URL_QUEUED) == static_cast<int>(UrlState::queued));
static_assert(code(SQL_URL_LEASED) == static_cast<int>(UrlState::leased));
static_assert(code(SQL_URL_DONE) == static_cast<int>(UrlState::done));
static_assert(code(SQL_URL_FAILED) == static_cast<int>(UrlState::failed));
static_assert(code(SQL_URL_BLOCKED) == static_cast<int>(UrlState::blocked));
static_assert(code(SQL_URL_DISABLED) == static_cast<int>(UrlState::disabled));
static_assert(code(SQL_QUEUE_ACTIVE) == static_cast<int>(QueueState::active));
static_assert(code(SQL_QUEUE_INACTIVE) == static_cast<int>(QueueState::inactive));
static_assert(code(SQL_QUEUE_RETIRED) == static_cast<int>(QueueState::retired));
static_assert(code(SQL_QUEUE_RETIRED_BY_HAND) == static_cast<int>(QueueState::retired_by_hand));
static_assert(code(SQL_SCHED_READY) == static_cast<int>(QueueSched::ready));
static_assert(code(SQL_SCHED_SLEEPING) == static_cast<int>(QueueSched::sleeping));
static_assert(code(SQL_SCHED_IDLE) == static_cast<int>(QueueSched::idle));
}  // namespace frontier::sql_codes_check

namespace frontier {

// queue_sched (lib/policy/lease_order.hpp) as an SQL expression, so that
// an UPDATE of a queue row sets `sched` with its other changes instead of
// reading the row back to reschedule it (one round trip fewer on
// PostgreSQL). `state`, `best`, `in_flight` and `wake_at` are the SQL of
// the row's new values; `max_in_flight` and `now` are parameters ("?15").
// tests/unit/test_queue_sched.cpp compares the two.
inline std::string queue_sched_sql(const std::string& state, const std::string& best,
                                   const std::string& in_flight, const std::string& wake_at,
                                   const std::string& max_in_flight, const std::string& now) {
    return "CASE WHEN (" + state + ") != " SQL_QUEUE_ACTIVE " OR (" + best + ") IS NULL OR (" + in_flight +
           ") >= " + max_in_flight + " THEN " SQL_SCHED_IDLE " WHEN (" + wake_at + ") > " + now +
           " THEN " SQL_SCHED_SLEEPING " ELSE " SQL_SCHED_READY " END";
}

}  // namespace frontier
