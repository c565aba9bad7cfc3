// Private to lib/store/pg/: the partitions of a PostgreSQL frontier
// (frontier(7), POSTGRESQL). A queue belongs to partition `id % 1024`; a
// writer that runs beside others (Db::begin_write_shared) locks the
// partitions it writes with transaction advisory locks and keeps their
// numbers in the setting frontier.parts (an int[] as text, this
// transaction's), which its statements that look for rows to change read,
// so that they find only rows it holds. A statement that locks runs before
// those that read the rows, in its own snapshot: they see every commit of
// the partition's last holder.
#pragma once

#include <string>
#include <string_view>

#include <xxhash.h>

#include "store/partitions.hpp"
#include "store/sql_codes.hpp"

namespace frontier {

#define PG_PARTITIONS "1024"
static_assert(kQueuePartitions == 1024, "PG_PARTITIONS is kQueuePartitions");
// The two-key advisory locks of partitions ("fron" in ASCII, the partition).
#define PG_PART_LOCK_CLASS "1718775150"
// The partitions this transaction holds, as rows.
#define PG_HELD_PARTS "SELECT unnest(CAST(current_setting('frontier.parts') AS int[]))"

// Of the partitions `candidates` yields (a query of one column, in the
// order to try them), those this transaction could lock without waiting
// (another writer holds the others), at most `limit` of them (SQL; "": all).
inline std::string pg_try_lock(const std::string& candidates, const char* limit = "") {
    return std::string("(SELECT p FROM (") + candidates + ") AS c(p) WHERE pg_try_advisory_xact_lock(" +
           PG_PART_LOCK_CLASS ", CAST(p AS integer))" + (*limit ? " LIMIT " : "") + limit + ")";
}
// The partitions `locked` yields added to frontier.parts. One row.
inline std::string pg_add_parts_sql(const std::string& locked) {
    return "SELECT set_config('frontier.parts', CAST(ARRAY(" + locked + " UNION " PG_HELD_PARTS
           ") AS TEXT), true)";
}

// The ready order's queues after the keyset `after` (SQL, "" for the
// first), each with its partition, at most `limit` (SQL): rows (id, p).
inline std::string pg_ready_order(const char* after, const std::string& limit) {
    return std::string("SELECT id, id % " PG_PARTITIONS " AS p FROM queues WHERE sched = " SQL_SCHED_READY) + after +
           " ORDER BY best, served LIMIT " + limit;
}

// The ready queues a lease may take from (SQL_HELD_READY), in order after
// the keyset `after` (SQL, "" for the first), each with its partition:
// those whose partitions this transaction could lock without waiting, at
// most `limit` of them (SQL), looked for among the next PG_READY_WINDOW times
// `limit` ready queues (the scan stops at the limit). A CTE of (id, p).
#define PG_READY_WINDOW "32"
inline std::string pg_lock_ready(const char* after, const char* limit) {
    return "(SELECT id, p FROM (" + pg_ready_order(after, std::string(PG_READY_WINDOW " * ") + limit) +
           ") AS c WHERE pg_try_advisory_xact_lock(" PG_PART_LOCK_CLASS ", CAST(p AS integer)) LIMIT " + limit + ")";
}
// The queues that `queues` yields (a query of one column, in the order to
// try them) whose partitions this transaction could lock without waiting,
// each with its partition. A CTE of (id, p).
inline std::string pg_try_lock_queues(const std::string& queues) {
    return std::string("(SELECT q AS id, q % " PG_PARTITIONS " AS p FROM (") + queues +
           ") AS c(q) WHERE pg_try_advisory_xact_lock(" PG_PART_LOCK_CLASS ", CAST(q % " PG_PARTITIONS
           " AS integer)))";
}
// The queues a lease may take from (`ids`: those of pg_lock_ready, and
// those whose work came due, which its housekeeping may make ready) kept
// in the setting frontier.ready (a bigint[] as text), which the page reads
// probe by id: a read of the ready index filtered by partition would walk
// all of it whenever the held partitions hold less than a page of it.
inline std::string pg_set_ready_sql(const std::string& ids) {
    return "set_config('frontier.ready', CAST(ARRAY(" + ids + ") AS TEXT), true)";
}

// The time as a scalar subquery (as in the housekeeping scan): the cached
// plan, with its index scans, is used, not one made for the value. Each
// scan for work due (the housekeeping scan's conditions, sql_codes.hpp)
// goes in its index's order, so a LIMIT stops it early.
#define PG_PART_NOW "(SELECT CAST(?1 AS REAL))"
// A lease's first lock (parameters: ?1 the time, ?2 how many ready queues
// it may take from): the partitions with work that came due (expired
// leases, retries and revisits, sleeping queues whose wake time passed),
// then those of the inactive FIFO's first queues, then those of the first
// ready queues, skipping any another writer holds; if it could lock none
// of them, it waits for the first ready queue's partition (holding no
// other, it waits for no one who waits for it), as a lease under the
// writers' lock waits for that lock. One row: the partitions held, how
// many it locked of ready queues, and whether any queue is ready (locked
// or not).
// clang-format off
inline const std::string kLockLeaseParts =
    "WITH due AS MATERIALIZED (" +
    pg_try_lock_queues("SELECT queue_id FROM urls WHERE " SQL_LEASE_EXPIRED(PG_PART_NOW)
                " ORDER BY lease_expires LIMIT 64") +
    " UNION ALL " + pg_try_lock_queues("SELECT robots_queue FROM hosts WHERE "
                SQL_ROBOTS_EXPIRED(PG_PART_NOW) " ORDER BY robots_lease_expires LIMIT 64") +
    " UNION ALL " + pg_try_lock_queues("SELECT queue_id FROM urls WHERE " SQL_DUE_AT(PG_PART_NOW)
                " ORDER BY due_at LIMIT 64") +
    " UNION ALL " + pg_try_lock_queues("SELECT id FROM queues WHERE " SQL_TO_WAKE(PG_PART_NOW)
                " ORDER BY wake_at LIMIT 64") +
    " UNION ALL " + pg_try_lock_queues("SELECT id FROM queues WHERE state = " SQL_QUEUE_INACTIVE
                " ORDER BY inactive_seq LIMIT 16") +
    "), ready AS MATERIALIZED " + pg_lock_ready("", "?2") +
    ", waited AS MATERIALIZED (SELECT id, p FROM (" + pg_ready_order("", "1") +
    ") AS h WHERE CASE WHEN EXISTS (SELECT 1 FROM due) OR EXISTS (SELECT 1 FROM ready) THEN false ELSE (SELECT true FROM pg_advisory_xact_lock(" PG_PART_LOCK_CLASS
    ", CAST(h.p AS integer))) END)"
    " SELECT set_config('frontier.parts', CAST(ARRAY(SELECT p FROM due UNION SELECT p FROM ready UNION "
    "SELECT p FROM waited UNION " PG_HELD_PARTS ") AS TEXT), true), (SELECT count(*) FROM ready) + "
    "(SELECT count(*) FROM waited), EXISTS (SELECT 1 FROM queues WHERE sched = " SQL_SCHED_READY "), " +
    pg_set_ready_sql("SELECT id FROM due UNION SELECT id FROM ready UNION SELECT id FROM waited");
// A lease's next page (parameters: ?1, ?2 the keyset, ?3 the page size):
// the partitions of the ready queues after it, and those queues.
inline const std::string kLockPageParts =
    "WITH locked AS MATERIALIZED " + pg_lock_ready(" AND (best, served) > (?1, ?2)", "?3") +
    " SELECT set_config('frontier.parts', CAST(ARRAY(SELECT p FROM locked UNION " PG_HELD_PARTS
    ") AS TEXT), true), " + pg_set_ready_sql("SELECT id FROM locked");
// The next queues of the inactive FIFO that a lease activates (parameter:
// how many it reads ahead): their partitions.
inline const std::string kLockFifoParts = pg_add_parts_sql(pg_try_lock(
    "SELECT id % " PG_PARTITIONS " FROM queues WHERE state = " SQL_QUEUE_INACTIVE " ORDER BY inactive_seq"
    " LIMIT 8 * ?1", "?1"));
// clang-format on

// A result batch's lock (parameters: ?1 the URL ids of its leases, ?2
// the keys of the queues its new links go to, ?3 the key locks of those
// keys, pg_key_lock, ?4 the hosts of its robots.txt leases): the
// partitions of their queues, and the key locks,
// waiting for each, in increasing order (a partition before any key
// lock), so that two batches never wait for each other; the partitions
// added to frontier.parts. A queue of those keys made after this
// statement's snapshot is found by kUnheldLinkQueues.
inline const std::string kLockResultParts =
    "SELECT set_config('frontier.parts', CAST(ARRAY(SELECT p FROM (SELECT p, pg_advisory_xact_lock(" PG_PART_LOCK_CLASS
    ", CAST(p AS integer)) AS locked FROM (SELECT DISTINCT p FROM (SELECT queue_id % " PG_PARTITIONS " AS p FROM urls "
    "WHERE id = ANY(CAST(?1 AS bigint[])) UNION ALL SELECT id % " PG_PARTITIONS " FROM queues "
    "WHERE key = ANY(CAST(?2 AS TEXT[])) UNION ALL SELECT unnest(CAST(?3 AS bigint[])) UNION ALL SELECT robots_queue % "
    PG_PARTITIONS " FROM hosts WHERE id = ANY(CAST(?4 AS bigint[])) AND robots_queue IS NOT NULL) AS a "
    "ORDER BY p) AS d OFFSET 0) AS l WHERE p < " PG_PARTITIONS " UNION " PG_HELD_PARTS ") AS TEXT), true)";
// The lock of a queue key (the partition lock class, past the
// partitions): held by the writer that may make a queue of that key or
// add a URL to it, so that two writers never both find a URL new.
inline int64_t pg_key_lock(std::string_view key) {
    return kQueuePartitions + static_cast<int64_t>(XXH3_64bits(key.data(), key.size()) % kQueuePartitions);
}
// After kLockResultParts (parameter: its ?2): the partitions of queues of
// those keys that this transaction does not hold (made by others
// meanwhile), locked if no one holds them and added to frontier.parts;
// one row: how many of them another writer holds.
inline const std::string kUnheldLinkQueues =
    "WITH u AS MATERIALIZED (SELECT DISTINCT id % " PG_PARTITIONS " AS p FROM queues WHERE key = ANY(CAST(? AS TEXT[])) "
    "AND (id % " PG_PARTITIONS ") NOT IN (" PG_HELD_PARTS ")), l AS MATERIALIZED (SELECT p, pg_try_advisory_xact_lock("
    PG_PART_LOCK_CLASS ", CAST(p AS integer)) AS ok FROM u) SELECT (SELECT count(*) FROM l WHERE NOT ok), "
    "set_config('frontier.parts', CAST(ARRAY(SELECT p FROM l WHERE ok UNION " PG_HELD_PARTS ") AS TEXT), true)";

}  // namespace frontier
