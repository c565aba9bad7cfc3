// Private to lib/store/pg/: the PostgreSQL store's set-based reads (many
// rows per statement, each found by an index probe) and its lease's
// statements over the index urls_next (frontier(7), POSTGRESQL).
#pragma once

#include <string>

#include "policy/lease_order.hpp"
#include "store/lease_heads_sql.hpp"
#include "store/lease_run.hpp"
#include "store/sql_codes.hpp"
#include "store/sql_columns.hpp"

namespace frontier {

// An array of integers as the one parameter, in a scalar subquery: a plan
// made for the array's length is then no better than the prepared
// statement's cached plan, which PostgreSQL uses, where it planned most
// runs again for their array (with 16 pipelines, 9 of 10 runs of
// probe_of_urls_sql).
#define SQL_ARRAY_PARAM "(SELECT CAST(? AS bigint[]))"

// The rows of `table` whose `key` is one of an array of integers (the one
// parameter, a PostgreSQL array literal: PgArray), `columns` of each: one
// index probe per key, a LATERAL subquery that OFFSET 0 keeps apart
// (`key = ANY(...)` alone got a generic plan while the table was small,
// then scanned the whole table on every call). Round-trip backends only.
// The array is a scalar subquery (SQL_ARRAY_PARAM).
inline std::string probe_each_sql(const char* table, const char* key, const std::string& columns) {
    return std::string("SELECT u.* FROM unnest(" SQL_ARRAY_PARAM ") AS k(key), LATERAL (SELECT ") + columns +
           " FROM " + table + " WHERE " + table + "." + key + " = k.key OFFSET 0) AS u";
}

// The rows of `table` that URLs point to by `column` (queue_id, host_id),
// each once, for the URL ids in an array (the one parameter): `columns` of
// each, every row found by a primary-key probe as in probe_each_sql.
inline std::string probe_of_urls_sql(const char* table, const char* column, const std::string& columns) {
    return std::string("SELECT u.* FROM (SELECT DISTINCT x.") + column +
           " AS key FROM unnest(" SQL_ARRAY_PARAM ") AS k(id), LATERAL (SELECT " + column +
           " FROM urls WHERE urls.id = k.id OFFSET 0) AS x) AS k, LATERAL (SELECT " + columns + " FROM " +
           table + " WHERE " + table + ".id = k.key OFFSET 0) AS u";
}

// A queue's next due URL over the index urls_next. Alternation looks for the other
// class among a queue's first LeaseOrder::kClassScan due URLs only: a
// bounded index range, however long the queue.
inline const NextSql kNextByIndex{
    "SELECT " + kHead + " FROM urls WHERE queue_id = ? AND " SQL_URL_DUE("") HEAD_ORDER " LIMIT 1",
    "SELECT " + kHead +
        " FROM urls WHERE queue_id = ? AND " SQL_URL_DUE("") " AND cls = ?" HEAD_ORDER " LIMIT 1",
    "SELECT " + kHead +
        " FROM (SELECT * FROM urls WHERE queue_id = ? AND " SQL_URL_DUE("") HEAD_ORDER
        " LIMIT 64) AS h WHERE cls = ?" HEAD_ORDER " LIMIT 1"};
static_assert(LeaseOrder::kClassScan == 64, "NextSql::in_scan scans kClassScan URLs");
// The heads (of those columns) of many queues at once: a LATERAL join of
// the queues (`queues`, aliased q with their ids in q.id) with each
// queue's ordered due URLs (each side an index range scan).
inline std::string heads_of(const char* queues, const std::string& columns, const char* cls) {
    return std::string(queues) + " CROSS JOIN LATERAL (SELECT " + columns +
           " FROM urls WHERE queue_id = q.id AND " + SQL_URL_DUE("") + cls + HEAD_ORDER " LIMIT ?) u";
}
// The queues: given by id, or a page of ready queues (load_page's keyset,
// as a subquery: what load_page_ahead sends).
inline const char* const kQueueIds = "unnest(CAST(? AS bigint[])) AS q(id)";
inline const char* const kPageQueues = "(SELECT id " SQL_READY_PAGE ") AS q";
inline const std::string kHeadsAll = "SELECT q.id, u.* FROM " + heads_of(kQueueIds, kHead, "");
inline const std::string kHeadsOfClass = "SELECT q.id, u.* FROM " + heads_of(kQueueIds, kHead, " AND cls = ?");
// The first queues of the inactive FIFO (the queues_inactive index), as
// activate_one takes them.
#define SQL_INACTIVE_AHEAD \
    "FROM queues WHERE state = " SQL_QUEUE_INACTIVE SQL_HELD("id") " ORDER BY inactive_seq LIMIT ?"
inline const char* const kInactiveQueues = "(SELECT id " SQL_INACTIVE_AHEAD ") AS q";
// The statements that read queues ahead (send_ahead), for one selection of
// queues: their rows, their heads (of every class, of one) and their heads'
// host rows (of every class, of one).
struct AheadSql {
    std::string rows, heads, heads_of_class, hosts, hosts_of_class;
    AheadSql(const std::string& queue_columns, const char* from, const char* queues,
             const std::string& host_columns)
        : rows("SELECT " + queue_columns + " " + from),
          heads("SELECT q.id, u.* FROM " + heads_of(queues, kHead, "")),
          heads_of_class("SELECT q.id, u.* FROM " + heads_of(queues, kHead, " AND cls = ?")),
          hosts("SELECT " + host_columns + " FROM hosts WHERE id IN (SELECT u.host_id FROM " +
                heads_of(queues, "host_id", "") + ")"),
          hosts_of_class("SELECT " + host_columns + " FROM hosts WHERE id IN (SELECT u.host_id FROM " +
                         heads_of(queues, "host_id", " AND cls = ?") + ")") {}
};
// The heads of many queues, each after a given one (a keyset per queue
// over the urls_next index): a refill of several queues at once.
// clang-format off
inline const std::string kHeadsAfter =
    "SELECT k.qid, u.* FROM unnest(CAST(? AS bigint[]), CAST(? AS double precision[]), CAST(? AS bigint[]), "
    "CAST(? AS double precision[]), CAST(? AS bigint[]), CAST(? AS bigint[]), CAST(? AS bigint[])) "
    "AS k(qid, rank, tier, tier_key, cost, id, n) "
    "CROSS JOIN LATERAL (SELECT " + kHead + " FROM urls WHERE queue_id = k.qid AND " SQL_URL_DUE("")
    " AND (rank, tier, tier_key, cost, id) > (k.rank, k.tier, k.tier_key, k.cost, k.id)" HEAD_ORDER " LIMIT k.n) u";
// clang-format on

}  // namespace frontier
