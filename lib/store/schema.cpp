#include "store/schema.hpp"

#include <string>

#include "core/error.hpp"
#include "store/lease_order_storage.hpp"
#include "store/schema_def.hpp"
#include "store/sql_codes.hpp"
#include "store/store.hpp"

namespace frontier {

namespace {

// A new frontier gets the current schema in one step, from its one
// declaration (lib/store/schema_def.hpp); an older file is migrated forward
// by the steps in ensure_schema, whose effect never changes once released:
// a step's SQL may be reworded (one text for both dialects) only with
// tests/e2e/test_migration.sh and tests/pg's migration cases showing the
// same migrated file.
const char* const kMetaRows =
    "INSERT INTO meta(key, value) VALUES ('settings_version', 1), ('serve_seq', 0), ('fifo_seq', 0)";

int user_version(Db& db) { return db.schema_version(); }

// 2: the first successful visit of revisited URLs (recrawl.policy estimate).
void migrate_to_2(Db& db) { db.exec("ALTER TABLE urls ADD COLUMN first_success REAL"); }

// 3: hosts of seeds, which may be on local addresses (net.seed-hosts).
void migrate_to_3(Db& db) {
    db.exec(std::string("ALTER TABLE hosts ADD COLUMN seed ") + db.ddl().integer);
    db.exec("UPDATE hosts SET seed = 1 WHERE id IN "
            "(SELECT DISTINCT host_id FROM urls WHERE coalesce(discovery, '') IN ('', 'seed'))");
}

// 4: the crawl's aggregates for frontier-report (frontier-report(1), CRAWL
// SUMMARY), back-filled from what a URL row keeps of its last result: its
// status (codes), its fetch time (one timeline row per minute, pages and
// errors; bytes and MIME types were not stored before, so they start at 0),
// its visits, and discovery x depth of added URLs.
void migrate_to_4(Db& db) {
    const std::string integer = db.ddl().integer;
    db.exec("ALTER TABLE queues ADD COLUMN bytes " + integer + " NOT NULL DEFAULT 0");
    db.exec("CREATE TABLE timeline(minute " + integer + " PRIMARY KEY, pages " + integer + " NOT NULL DEFAULT 0, "
            "bytes " + integer + " NOT NULL DEFAULT 0, errors " + integer + " NOT NULL DEFAULT 0)");
    // The failures report reads the latest failed URLs, the seeds report
    // the seeds, each from a partial index (bounded reads).
    db.exec("CREATE INDEX urls_failed ON urls(fetched_at) WHERE state = " SQL_URL_FAILED);
    db.exec("CREATE INDEX urls_seed ON urls(id) WHERE depth = 0 AND coalesce(discovery, '') IN ('', 'seed')");
    std::string err = "(error_class IS NOT NULL OR status >= 400)";
    db.exec("INSERT INTO timeline(minute, pages, bytes, errors) SELECT " + db.whole_part_sql("fetched_at / 60") +
            ", count(*), 0, count(CASE WHEN " + err + " THEN 1 END) FROM urls WHERE fetched_at >= 0 "
            "GROUP BY 1");
    db.exec("INSERT INTO counters(name, n) SELECT 'status:' || CAST(status AS TEXT), count(*) FROM urls "
            "WHERE status > 0 GROUP BY status");
    db.exec("INSERT INTO counters(name, n) SELECT 'crawl:pages', count(*) FROM urls WHERE fetched_at >= 0");
    db.exec("INSERT INTO counters(name, n) SELECT 'crawl:errors', count(*) FROM urls WHERE fetched_at >= 0 AND " + err);
    db.exec("INSERT INTO counters(name, n) SELECT 'visit:novel', count(*) FROM urls WHERE successes > 0 "
            "AND status >= 200 AND status < 300");
    db.exec("INSERT INTO counters(name, n) SELECT 'visit:revisit', coalesce(sum(successes - 1), 0) FROM urls "
            "WHERE successes > 1");
    // A tab between discovery and depth (a literal: the same in both dialects).
    db.exec("INSERT INTO counters(name, n) SELECT 'heatd:' || (CASE WHEN coalesce(discovery, '') = '' THEN 'seed' "
            "WHEN discovery IN ('intelligent-seed', 'hub-seed') THEN 'adaptive-seed' "
            "WHEN discovery = 'validated-hub' THEN 'hub-validated' WHEN discovery = 'link-discovery' THEN 'link' "
            "ELSE discovery END) || '\t' || (CASE WHEN depth >= 3 THEN '3+' WHEN depth <= 0 THEN '0' "
            "ELSE CAST(depth AS TEXT) END), count(*) FROM urls GROUP BY 1");
    db.exec("DELETE FROM counters WHERE n = 0 AND (name LIKE 'crawl:%' OR name LIKE 'visit:%')");
}

// 5: who holds leases (frontier(7), LEASES): a process group on a host,
// recorded with every lease from now on; leases of older versions have
// none (NULL) and end by frontier-done or expiry only.
void migrate_to_5(Db& db) {
    const Db::Ddl& ddl = db.ddl();
    const std::string integer = ddl.integer;
    db.exec(std::string("CREATE TABLE lease_holders(\n    \"id\"") + ddl.id_key + ",\n    \"host\" TEXT NOT NULL,\n    "
            "\"boot_id\" TEXT NOT NULL,\n    \"pgid\" " + integer + " NOT NULL,\n    \"leader_start\" " + integer +
            " NOT NULL,\n    \"created_at\" " + ddl.real + "\n)");
    db.exec("ALTER TABLE hosts ADD COLUMN robots_holder " + integer);
    db.exec("ALTER TABLE urls ADD COLUMN holder " + integer);
}

// 6: urls_next ends with `recrawl` (kUrlsNextIndexSql), so frontier-report
// counts the revisited URLs that may be visited now from the index alone
// instead of reading every queued URL's row. After the unique `id` the
// column leaves the lease order as it was. On a large file this rebuilds
// the index once: a sort of the queued URLs (with the connection's
// large-sort settings, see ensure_schema).
void migrate_to_6(Db& db) {
    db.exec("DROP INDEX urls_next");
    db.exec(kUrlsNextIndexSql);
}

// 7: a URL's fingerprint and id leave the urls_fp index for the tables
// url_fps and url_fps_new (schema_def.cpp, fingerprint_table):
// every known fingerprint goes to url_fps, in key order.
void migrate_to_7(Db& db) {
    const Db::Ddl& ddl = db.ddl();
    for (const char* t : {"url_fps", "url_fps_new"})
        db.exec(std::string("CREATE TABLE ") + t + "(\n    \"fp\" " + ddl.integer + " NOT NULL,\n    \"id\" " +
                ddl.integer + " NOT NULL,\n    PRIMARY KEY(fp, id)\n)" + ddl.keyed_table);
    db.exec("INSERT INTO url_fps(fp, id) SELECT fp, id FROM urls ORDER BY fp, id");
    db.exec("DROP INDEX urls_fp");
}

// 8: where the backend keeps the lease order in tables (SQLite), the
// queued URLs that are due leave the index urls_next for the tables
// url_next and url_next_new, kept from now on by a trigger and by the code
// that inserts URL rows (lib/store/lease_order_storage.hpp).
void migrate_to_8(Db& db) { db.lease_order().migrate_to_8(db); }

// 9: where the lease order is kept in tables, the code that changes a URL
// row moves its entry, not a trigger on every update: that trigger goes.
void migrate_to_9(Db& db) { db.lease_order().migrate_to_9(db); }

// The connection's sorts go to disk while a migration's back-fill groups
// and indexes the whole URL table (as in frontier-report --check); its
// usual settings come back after.
struct LargeSorts {
    Db& db;
    bool on;
    LargeSorts(Db& d, bool o) : db(d), on(o) {
        if (on) db.prepare_for_large_sorts();
    }
    ~LargeSorts() {
        if (!on) return;
        try {
            db.end_large_sorts();
        } catch (...) {
        }
    }
};

}  // namespace

void ensure_schema(Db& db, bool may_write) {
    int v = user_version(db);
    if (v > kSchemaVersion)
        throw DbError("the frontier file has schema version " + std::to_string(v) + ", newer than this tool knows (" +
                      std::to_string(kSchemaVersion) + "); use a newer frontier toolkit");
    if (v == kSchemaVersion) return;
    if (!may_write)
        throw DbError("the frontier file has schema version " + std::to_string(v) + " and needs migrating to " +
                      std::to_string(kSchemaVersion) + "; run any writing tool (e.g. frontier-config) once");
    // The back-fill of version 4 groups and indexes the whole URL table;
    // version 6 rebuilds urls_next (a sort of the queued URLs), version 7
    // sorts every URL's fingerprint, version 8 the queued URLs' lease order.
    LargeSorts sorts(db, v < 8);
    Transaction tx(db);
    v = user_version(db);  // another process may have migrated meanwhile
    if (v == 0) {
        db.exec(create_schema_sql(db));
        db.exec(kMetaRows);
        v = kSchemaVersion;
    }
    // Forward migrations from released versions, one step each.
    if (v == 1) {
        migrate_to_2(db);
        v = 2;
    }
    if (v == 2) {
        migrate_to_3(db);
        v = 3;
    }
    if (v == 3) {
        migrate_to_4(db);
        v = 4;
    }
    if (v == 4) {
        migrate_to_5(db);
        v = 5;
    }
    if (v == 5) {
        migrate_to_6(db);
        v = 6;
    }
    if (v == 6) {
        migrate_to_7(db);
        v = 7;
    }
    if (v == 7) {
        migrate_to_8(db);
        v = 8;
    }
    if (v == 8) {
        migrate_to_9(db);
        v = 9;
    }
    db.set_schema_version(kSchemaVersion);
    tx.commit();
}

}  // namespace frontier
