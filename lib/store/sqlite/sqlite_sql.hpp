// Private to lib/store/sqlite/: the SQLite store's reads of a queue's
// next URL over the lease order tables (frontier(7), FILE FORMAT).
#pragma once

#include <string>

#include "policy/lease_order.hpp"
#include "store/lease_heads_sql.hpp"
#include "store/sql_codes.hpp"

namespace frontier {

// A queue's next due URL where the order is kept in tables: a
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
static_assert(LeaseOrder::kClassScan == 64, "NextSql::in_scan scans kClassScan URLs");

}  // namespace frontier
