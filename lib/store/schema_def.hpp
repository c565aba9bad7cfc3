// The frontier's schema, declared once (frontier(7), FILES): every table,
// its columns with their types, NOT NULL and defaults, its keys and its
// indexes. From this one list come both dialects' CREATE statements for a
// new file (lib/store/schema.cpp), the tables and columns of
// frontier-export / frontier-import (lib/store/store_export.hpp), and the
// check that a migrated file matches a new one (tests/unit/test_schema.cpp,
// tests/e2e/test_migration.sh). Columns are listed in the order a migrated
// file has them: a column added by a migration is appended to its table.
#pragma once

#include <string>
#include <vector>

namespace frontier {

// `any`: SQLite keeps the value's own storage class (meta.value);
// PostgreSQL declares it BIGINT.
enum class ColumnType { integer, real, text, any };

struct ColumnDef {
    const char* name;
    ColumnType type;
    bool not_null;                   // an import row must give it (the schema has no NULL for it)
    const char* dflt = nullptr;      // DEFAULT expression, the same in both dialects
    bool zero_when_missing = false;  // added by a migration: an older export's row without it imports 0
    // In frontier-export / frontier-import: false for what means nothing in
    // another frontier (the lease holders of this one, frontier(7), LEASES).
    bool exported = true;
};

struct TableDef {
    const char* name;
    const char* key;  // the primary key: one integer column (the row id; "id" is an identity
                      // on PostgreSQL), or columns ("domain, key")
    std::vector<ColumnDef> columns;
    std::vector<const char*> unique = {};   // the other UNIQUE keys (one column each)
    std::vector<const char*> indexes = {};  // CREATE INDEX statements, valid in both dialects
    bool exported = true;                   // as ColumnDef::exported
    bool lease_order = false;               // the lease order in tables (lease_order_storage.hpp)
};

// Every table, in the order of the export stream: settings before the rows
// that depend on them, urls last (a table not exported anywhere). Thread-safe (built once).
const std::vector<TableDef>& schema_tables();

// The CREATE INDEX statement of urls_next, the queued URLs in their queue's
// lease order (a new file's urls table and the migration to version 6 both
// use this one text). `recrawl` is its last column since version 6, after
// the unique `id`: it leaves the order as it was and makes the report's count
// of revisited URLs that may be visited now an index-only scan. Since
// version 8 PostgreSQL only (lib/store/lease_order_storage.hpp).
extern const char* const kUrlsNextIndexSql;
// Since version 8, where the lease order is kept in tables (SQLite): the same
// order in the tables url_next and url_next_new, kept by the code that
// inserts URL rows (kLeaseEntrySql) and changes them (kLeaseLeaveSql, then
// kLeaseEntrySql), and by the trigger of this text for deleted rows
// (frontier(7), FILE FORMAT). A URL that enters the
// order enters the small url_next_new, whose pages stay in the page cache;
// Store::commit moves its entries into url_next in key order, a slice at
// a time, with the fingerprints (move_lease_order). Adding a URL then
// changes a cached page instead of a random page of a large index.
extern const char* const kLeaseOrderSql;
// The lease order's key (url_next, url_next_new: the order, then the
// unique id), an entry's columns in their table's order, and the condition
// that rows `a` and `b` (aliases) have the same entry.
#define SQL_ORDER_KEY "queue_id, rank, tier, tier_key, cost, id"
#define SQL_ORDER_ENTRY SQL_ORDER_KEY ", recrawl, cls"
#define SQL_SAME_ORDER_ENTRY(a, b)                                                                          \
    "(" a ".queue_id = " b ".queue_id AND " a ".rank = " b ".rank AND " a ".tier = " b ".tier AND " a       \
    ".tier_key = " b ".tier_key AND " a ".cost = " b ".cost AND " a ".id = " b ".id AND " a ".recrawl = " b \
    ".recrawl AND " a ".cls = " b ".cls)"
// The entry of the URL row whose id is the parameter, put in url_next_new
// if that URL is queued and due: run after a statement that inserts the
// row or may make it queued and due.
extern const char* const kLeaseEntrySql;
// The entry of the URL row whose id is the parameter taken out of url_next
// ([0]) and url_next_new ([1]), if it has one: run before a statement that
// may change that row's state, due time or order.
extern const char* const kLeaseLeaveSql[2];
// The same for an entry whose key (SQL_ORDER_KEY, parameters 1-6) is known
// (a lease's head): no read of the row.
extern const char* const kLeaseLeaveByKeySql[2];

class Db;

// The CREATE TABLE and CREATE INDEX statements of a new frontier, in the
// words of `db`'s backend (Db::ddl), without the meta rows.
std::string create_schema_sql(const Db& db);
// Where the lease order is kept in tables: the CREATE statements of url_next and
// url_next_new, then `fill` (statements that fill them), then their
// trigger (kLeaseOrderSql).
std::string create_lease_order_sql(const Db& db, const std::string& fill);

}  // namespace frontier
