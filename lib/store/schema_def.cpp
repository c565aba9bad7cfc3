#include "store/schema_def.hpp"

#include <string_view>

#include "store/db.hpp"
#include "store/lease_order_storage.hpp"
#include "store/sql_codes.hpp"

namespace frontier {

const char* const kUrlsNextIndexSql =
    "CREATE INDEX urls_next ON urls(queue_id, rank, tier, tier_key, cost, id, recrawl) WHERE " SQL_URL_DUE("");

// The key of url_next and url_next_new of a URL row (`r`: old), as a
// condition on their columns; and the condition that a row has an entry.
#define LEASE_KEY_OF(r)                                                                       \
    "queue_id = " r ".queue_id AND rank = " r ".rank AND tier = " r ".tier AND tier_key = " r \
    ".tier_key "                                                                              \
    "AND cost = " r ".cost AND id = " r ".id"
#define LEASE_DUE(r) "(" SQL_URL_DUE(r ".") ")"
// The lease order (url_next, url_next_new: schema_def.cpp, lease_order_table)
// is exact: one entry per queued URL that is due, none for any other. The
// code that inserts a URL row inserts its entry (kLeaseEntrySql), as it
// does its fingerprint; the code that changes a row's state, due time or
// order (QueueRows::leave_lease_order, enter_lease_order: a lease, a
// result, a re-add, the housekeeping) moves its entry; this trigger takes
// the entry of a deleted row. No trigger runs on updates or inserts: an
// update trigger would run for every row a result updates (a leased URL,
// which has no entry), and an insert trigger copies every column of the new
// row. frontier-report --check verifies the entries (lease-order).
// clang-format off
const char* const kLeaseOrderSql =
    "CREATE TRIGGER url_next_delete AFTER DELETE ON urls WHEN " LEASE_DUE("old") " BEGIN "
    "DELETE FROM url_next WHERE " LEASE_KEY_OF("old") "; DELETE FROM url_next_new WHERE " LEASE_KEY_OF("old") "; END";
const char* const kLeaseEntrySql =
    "INSERT INTO url_next_new SELECT " SQL_ORDER_ENTRY " FROM urls WHERE id = ? AND " LEASE_DUE("urls");
#define LEASE_LEAVE_FROM(t, key) "DELETE FROM " t " WHERE (" SQL_ORDER_KEY ") " key
#define LEASE_ROW_KEY "IN (SELECT " SQL_ORDER_KEY " FROM urls WHERE id = ? AND " LEASE_DUE("urls") ")"
const char* const kLeaseLeaveSql[2] = {LEASE_LEAVE_FROM("url_next", LEASE_ROW_KEY),
                                       LEASE_LEAVE_FROM("url_next_new", LEASE_ROW_KEY)};
const char* const kLeaseLeaveByKeySql[2] = {LEASE_LEAVE_FROM("url_next", "= (?, ?, ?, ?, ?, ?)"),
                                            LEASE_LEAVE_FROM("url_next_new", "= (?, ?, ?, ?, ?, ?)")};
#undef LEASE_ROW_KEY
#undef LEASE_LEAVE_FROM
// clang-format on
#undef LEASE_KEY_OF
#undef LEASE_DUE

namespace {

using T = ColumnType;

// A column kept out of frontier-export (ColumnDef::exported).
ColumnDef local(ColumnDef c) {
    c.exported = false;
    return c;
}

// The small tables: metadata, settings, budgets, counters.
std::vector<TableDef> small_tables() {
    return {
    {"meta",
     "key",
     {{"key", T::text, true},
      {"value", T::any, false}}},
    {"settings",
     "key",
     {{"key", T::text, true},
      {"value", T::text, true}}},
    {"domain_settings",
     "domain, key",
     {{"domain", T::text, true},
      {"key", T::text, true},
      {"value", T::text, true}}},
    {"queue_budgets",
     "scope, name",
     {{"scope", T::text, true},
      {"name", T::text, true},
      {"replenish", T::integer, false},
      {"total", T::integer, false}}},
    {"seed_domains",
     "domain",
     {{"domain", T::text, true}}},
    {"counters",
     "name",
     {{"name", T::text, true},
      {"n", T::integer, true}}},
    {"timeline",
     "minute",
     {{"minute", T::integer, true},
      {"pages", T::integer, true, "0"},
      {"bytes", T::integer, true, "0"},
      {"errors", T::integer, true, "0"}}},
    // Who holds leases (frontier(7), LEASES): a process group on a host,
    // referenced by urls.holder and hosts.robots_holder. Meaningless in
    // another frontier: not exported.
    {"lease_holders",
     "id",
     {{"id", T::integer, true},
      {"host", T::text, true},
      {"boot_id", T::text, true},
      {"pgid", T::integer, true},
      {"leader_start", T::integer, true},
      {"created_at", T::real, false}},
     {},
     {},
     false},
    };
}

// One row per queue (frontier(7), QUEUES): its scheduling position, budget
// rotation and the counters of frontier-report.
TableDef queues_table() {
    return
    {"queues",
     "id",
     {{"id", T::integer, true},
      {"key", T::text, true},
      {"state", T::integer, true, "0"},
      {"sched", T::integer, true, "2"},
      {"best", T::real, false},
      {"wake_at", T::real, true, "0"},
      {"served", T::integer, true, "0"},
      {"in_flight", T::integer, true, "0"},
      {"queued", T::integer, true, "0"},
      {"enqueued", T::integer, true, "0"},
      {"done", T::integer, true, "0"},
      {"failed", T::integer, true, "0"},
      {"blocked", T::integer, true, "0"},
      {"inactive_seq", T::integer, false},
      {"retired_seq", T::integer, false},
      {"session_balance", T::integer, true, "0"},
      {"total_spend", T::integer, true, "0"},
      {"last_cost", T::integer, false},
      {"cost_count", T::integer, true, "0"},
      {"error_count", T::integer, true, "0"},
      {"last_dequeue_at", T::real, false},
      {"last_peek_url", T::text, false},
      {"last_queued_url", T::text, false},
      {"latency_sum", T::real, true, "0"},
      {"latency_n", T::integer, true, "0"},
      {"n429", T::integer, true, "0"},
      {"retry_after_blocks", T::integer, true, "0"},
      {"host_down", T::integer, true, "0"},
      {"created_at", T::real, false},
      {"bytes", T::integer, true, "0", true}},
     {"key"},
     {"CREATE INDEX queues_ready ON queues(best, served) WHERE sched = " SQL_SCHED_READY,
      "CREATE INDEX queues_wake ON queues(wake_at) WHERE sched = " SQL_SCHED_SLEEPING,
      "CREATE INDEX queues_inactive ON queues(inactive_seq) WHERE state = " SQL_QUEUE_INACTIVE,
      "CREATE INDEX queues_retired ON queues(retired_seq) WHERE state >= " SQL_QUEUE_RETIRED}};
}

// One row per scheme://authority: its robots.txt state and crawl delay.
TableDef hosts_table() {
    return
    {"hosts",
     "id",
     {{"id", T::integer, true},
      {"name", T::text, true},
      {"robots_state", T::integer, true, "0"},
      {"robots_rules", T::text, false},
      {"robots_at", T::real, false},
      {"robots_status", T::integer, false},
      {"robots_retries", T::integer, true, "0"},
      {"robots_retry_at", T::real, false},
      {"robots_lease_seq", T::integer, true, "0"},
      {"robots_lease_expires", T::real, false},
      {"robots_queue", T::integer, false},
      {"crawl_delay", T::real, false},
      {"seed", T::integer, false},
      local({"robots_holder", T::integer, false})},
     {"name"},
     {"CREATE INDEX hosts_robots_lease ON hosts(robots_lease_expires) WHERE robots_lease_expires IS NOT NULL"}};
}

// One row per URL: where it is queued, its state, lease, last fetch and
// revisit history.
TableDef urls_table() {
    return {
        "urls",
        "id",
        {{"id", T::integer, true},
         {"fp", T::integer, true},
         {"url", T::text, true},
         {"queue_id", T::integer, true},
         {"host_id", T::integer, true},
         {"state", T::integer, true, "0"},
         {"due_at", T::real, false},
         {"rank", T::real, true},
         {"priority", T::real, true},
         {"tier", T::integer, true, "0"},
         {"tier_key", T::real, true, "0"},
         {"cost", T::integer, true},
         {"cls", T::integer, true, "0"},
         {"depth", T::integer, true, "0"},
         {"type", T::text, false},
         {"discovery", T::text, false},
         {"via", T::text, false},
         {"meta", T::text, false},
         {"recrawl", T::integer, true, "0"},
         {"last_modified", T::real, false},
         {"added_at", T::real, false},
         {"attempts", T::integer, true, "0"},
         {"retries", T::integer, true, "0"},
         {"lease_seq", T::integer, true, "0"},
         {"lease_expires", T::real, false},
         {"reason", T::text, false},
         {"status", T::integer, false},
         {"error_class", T::text, false},
         {"fetched_at", T::real, false},
         {"etag", T::text, false},
         {"http_last_modified", T::text, false},
         {"content_hash", T::text, false},
         {"last_visit", T::real, false},
         {"last_success", T::real, false},
         {"visits", T::integer, true, "0"},
         {"successes", T::integer, true, "0"},
         {"changes", T::integer, true, "0"},
         {"interval", T::real, false},
         {"next_visit", T::real, false},
         {"failures", T::integer, true, "0"},
         {"eventful", T::integer, false},
         {"first_success", T::real, false},
         local({"holder", T::integer, false})},
        {},
        {"CREATE INDEX urls_due ON urls(due_at) WHERE due_at IS NOT NULL",
         "CREATE INDEX urls_lease ON urls(lease_expires) WHERE state = " SQL_URL_LEASED,
         "CREATE INDEX urls_failed ON urls(fetched_at) WHERE state = " SQL_URL_FAILED,
         "CREATE INDEX urls_seed ON urls(id) WHERE depth = 0 AND coalesce(discovery, '') IN ('', 'seed')"}};
}

// A URL's fingerprint and id (frontier(7), FILE FORMAT): those of the URLs
// added lately in url_fps_new, a small table that stays in the page cache,
// moved into the large url_fps in key order once it holds FRONTIER_FP_BUFFER
// of them (UrlRows::count_fingerprints, Store::Impl::move_fingerprints). A new URL
// then changes a cached page instead of a random page of a large index.
// Derived from urls: not exported (frontier-import builds them).
TableDef fingerprint_table(const char* name) {
    TableDef t{name, "fp, id", {{"fp", T::integer, true}, {"id", T::integer, true}}};
    t.exported = false;
    return t;
}

// The queued URLs' lease order where it is kept in tables (SQLite, see
// kLeaseOrderSql): url_next, large, and url_next_new, small. The key is
// urls_next's (the order, then the unique id); `recrawl` and `cls` let the
// report's count of revisits and a lease of one class (--class) read no
// URL row. Derived from urls: not exported (the tools that insert URL
// rows and the triggers fill them).
TableDef lease_order_table(const char* name) {
    TableDef t{name,
               SQL_ORDER_KEY,
               {{"queue_id", T::integer, true},
                {"rank", T::real, true},
                {"tier", T::integer, true},
                {"tier_key", T::real, true},
                {"cost", T::integer, true},
                {"id", T::integer, true},
                {"recrawl", T::integer, true},
                {"cls", T::integer, true}}};
    t.exported = false;
    t.lease_order = true;
    return t;
}

std::vector<TableDef> make_tables() {
    std::vector<TableDef> tables = small_tables();
    tables.push_back(queues_table());
    tables.push_back(hosts_table());
    tables.push_back(urls_table());
    tables.push_back(fingerprint_table("url_fps"));
    tables.push_back(fingerprint_table("url_fps_new"));
    tables.push_back(lease_order_table("url_next"));
    tables.push_back(lease_order_table("url_next_new"));
    return tables;
}

const char* type_name(ColumnType t, const Db::Ddl& ddl) {
    switch (t) {
        case T::integer: return ddl.integer;
        case T::real: return ddl.real;
        case T::text: return "TEXT";
        case T::any: return ddl.any;
    }
    return "";
}

}  // namespace

const std::vector<TableDef>& schema_tables() {
    static const std::vector<TableDef> tables = make_tables();
    return tables;
}

// One table's CREATE TABLE and CREATE INDEX statements.
static std::string create_table_sql(const Db& db, const TableDef& t) {
    const Db::Ddl& ddl = db.ddl();
    std::string sql;
    // One integer key column: SQLite's row id (INTEGER PRIMARY KEY);
    // an identity on PostgreSQL when it is "id".
    const ColumnDef* key_col = nullptr;
    for (const ColumnDef& c : t.columns)
        if (c.name == std::string_view(t.key) && c.type == ColumnType::integer) key_col = &c;
    const bool row_id = key_col != nullptr;
    sql += "CREATE TABLE ";
    sql += t.name;
    sql += "(";
    for (size_t i = 0; i < t.columns.size(); ++i) {
        const ColumnDef& c = t.columns[i];
        sql += i ? ",\n    " : "\n    ";
        // Quoted: "interval" is a keyword in PostgreSQL.
        sql += std::string("\"") + c.name + "\"";
        if (&c == key_col) {
            sql += c.name == std::string_view("id") ? ddl.id_key : ddl.key;
            continue;
        }
        if (*type_name(c.type, ddl)) sql += std::string(" ") + type_name(c.type, ddl);
        if (c.not_null) sql += " NOT NULL";
        if (c.dflt) sql += std::string(" DEFAULT ") + c.dflt;
        for (const char* u : t.unique)
            if (c.name == std::string_view(u)) sql += " UNIQUE";
    }
    if (!row_id) sql += std::string(",\n    PRIMARY KEY(") + t.key + ")";
    sql += "\n)";
    // SQLite: a table keyed by text is its own key's B-tree.
    if (!row_id) sql += ddl.keyed_table;
    sql += ";\n";
    for (const char* ix : t.indexes) sql += std::string(ix) + ";\n";
    return sql;
}

std::string create_schema_sql(const Db& db) {
    std::string sql;
    for (const TableDef& t : schema_tables())
        if (!t.lease_order) sql += create_table_sql(db, t);
    return sql + db.lease_order().create_sql(db);
}

std::string create_lease_order_sql(const Db& db, const std::string& fill) {
    std::string sql;
    for (const TableDef& t : schema_tables())
        if (t.lease_order) sql += create_table_sql(db, t);
    return sql + fill + kLeaseOrderSql + ";\n";
}

}  // namespace frontier
