// Private to lib/store/store_lease_heads.cpp: the statements that read a
// queue's next URLs (heads) for a lease, and a head row as read.
#pragma once

#include <string>

#include "policy/lease_order.hpp"
#include "store/lease_run.hpp"
#include "store/sql_codes.hpp"
#include "store/sql_columns.hpp"

namespace frontier {

// The next URL of a queue: the columns a head row has, in order.
#define HEAD_COLUMNS(X)                                                                                         \
    X(id, "id") X(url, "url") X(host_id, "host_id") X(priority, "priority") X(depth, "depth")                 \
    X(attempts, "attempts") X(type, "type") X(discovery, "discovery") X(via, "via") X(meta, "meta")         \
    X(cost, "cost") X(etag, "etag") X(http_last_modified, "http_last_modified")                             \
    X(content_hash, "content_hash") X(lease_seq, "lease_seq") X(rank, "rank") X(tier, "tier")               \
    X(tier_key, "tier_key")
enum class HeadCol { HEAD_COLUMNS(SQL_COLUMN_NAME) };
inline const std::string kHead = sql_column_list({HEAD_COLUMNS(SQL_COLUMN_EXPR)});
#define HEAD_ORDER " ORDER BY rank, tier, tier_key, cost, id"

// A queue's next due URL, read one at a time (next_head): of every class,
// of the class asked (--class), or of a class among the first few
// (alternation).
struct NextSql {
    std::string all, of_class, in_scan;
};
// Over the index urls_next (PostgreSQL). Alternation looks for the other
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
// Where the order is kept in tables (SQLite, frontier(7), FILE FORMAT): a
// merge of the queue's key ranges in url_next and url_next_new (each in
// key order, so SQLite merges them without a sort), then the head's row
// by id.
inline std::string order_entries(const char* cls, const char* limit) {
    std::string sql;
    for (const char* t : {"url_next", "url_next_new"})
        sql += std::string(sql.empty() ? "" : " UNION ALL ") +
               "SELECT rank, tier, tier_key, cost, id, cls FROM " + t + " WHERE queue_id = ?1" + cls;
    return sql + " ORDER BY 1, 2, 3, 4, 5" + limit;
}
inline std::string head_by_id(const std::string& id) {
    return "SELECT " + kHead + " FROM urls WHERE id = (" + id + ")";
}
// An entry whose row is not queued and due (a hand-made UPDATE of urls, which
// frontier-report --check reports as lease-order) is passed over, so that it
// can neither be leased nor stop its queue (the merge is read as it comes:
// a co-routine, one row probe per entry read).
#define ENTRY_ROW_DUE " EXISTS (SELECT 1 FROM urls u WHERE u.id = e.id AND " SQL_URL_DUE("u.") ")"
inline const NextSql kNextByTables{
    head_by_id("SELECT id FROM (" + order_entries("", "") + ") e WHERE" ENTRY_ROW_DUE " LIMIT 1"),
    head_by_id("SELECT id FROM (" + order_entries(" AND cls = ?2", "") +
               ") e WHERE" ENTRY_ROW_DUE " LIMIT 1"),
    head_by_id("SELECT id FROM (" + order_entries("", " LIMIT 64") +
               ") e WHERE cls = ?2 AND" ENTRY_ROW_DUE HEAD_ORDER " LIMIT 1")};
#undef ENTRY_ROW_DUE
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
#define SQL_INACTIVE_AHEAD "FROM queues WHERE state = " SQL_QUEUE_INACTIVE " ORDER BY inactive_seq LIMIT ?"
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
#undef HEAD_COLUMNS
#undef HEAD_ORDER

// A head row whose columns start at column `first`.
inline LeaseHead read_head(const Stmt& st, int first) {
    using C = HeadCol;
    SqlRow<C> row(st, first);
    LeaseHead h;
    h.id = row.i64(C::id);
    h.it.url = row.str(C::url);
    h.hid = row.i64(C::host_id);
    h.it.priority = row.dbl(C::priority);
    h.it.depth = row.i64(C::depth);
    h.it.attempt = row.i64(C::attempts) + 1;
    h.it.type = row.str(C::type);
    h.it.discovery = row.str(C::discovery);
    h.it.via = row.str(C::via);
    h.it.meta = row.str(C::meta);
    h.it.cost = row.i64(C::cost);
    if (!row.is_null(C::etag)) h.it.etag = row.str(C::etag);
    if (!row.is_null(C::http_last_modified)) h.it.http_last_modified = row.str(C::http_last_modified);
    if (!row.is_null(C::content_hash)) h.it.content_hash = row.str(C::content_hash);
    h.seq = row.i64(C::lease_seq) + 1;
    h.rank = row.dbl(C::rank);
    h.tier = row.i64(C::tier);
    h.tier_key = row.dbl(C::tier_key);
    return h;
}


}  // namespace frontier
