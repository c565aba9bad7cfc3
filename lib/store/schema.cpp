#include "store/schema.hpp"

#include <string>

#include "core/error.hpp"
#include "store/schema_def.hpp"
#include "store/store.hpp"

namespace frontier {

namespace {

// A new frontier gets the current schema in one step, from its one
// declaration (lib/store/schema_def.hpp); an older file is migrated forward
// by the steps in ensure_schema, which are never edited once released.
const char* const kMetaRows =
    "INSERT INTO meta(key, value) VALUES ('settings_version', 1), ('serve_seq', 0), ('fifo_seq', 0)";

int user_version(Db& db) { return db.schema_version(); }

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
    // The back-fill of version 4 groups and indexes the whole URL table:
    // sorted on disk, with the sorter and page cache at 16 MiB, so memory
    // stays flat on a large frontier (as in frontier-report --check); the
    // connection's usual settings come back after.
    bool big_sorts = !db.postgres() && v < 4;
    if (big_sorts) {
        db.exec("PRAGMA temp_store=FILE");
        db.set_page_cache_mib(16);
    }
    struct Restore {
        Db& db;
        bool on;
        ~Restore() {
            if (!on) return;
            try {
                db.exec("PRAGMA temp_store=MEMORY");
                db.set_page_cache_mib(32);
            } catch (...) {
            }
        }
    } restore{db, big_sorts};
    Transaction tx(db);
    v = user_version(db);  // another process may have migrated meanwhile
    if (v == 0) {
        db.exec(create_schema_sql(db.postgres()));
        db.exec(kMetaRows);
        v = kSchemaVersion;
    }
    // Forward migrations from released versions go here: if (v == 1) { ...; v = 2; }
    if (v == 1) {  // 2: the first successful visit of revisited URLs (recrawl.policy estimate)
        db.exec("ALTER TABLE urls ADD COLUMN first_success REAL");
        v = 2;
    }
    if (v == 2) {  // 3: hosts of seeds, which may be on local addresses (net.seed-hosts)
        db.exec(db.postgres() ? "ALTER TABLE hosts ADD COLUMN seed BIGINT" : "ALTER TABLE hosts ADD COLUMN seed INTEGER");
        db.exec("UPDATE hosts SET seed = 1 WHERE id IN "
                "(SELECT DISTINCT host_id FROM urls WHERE coalesce(discovery, '') IN ('', 'seed'))");
        v = 3;
    }
    if (v == 3) {  // 4: the crawl's aggregates for frontier-report (frontier-report(1), CRAWL SUMMARY)
        bool pg = db.postgres();
        db.exec(pg ? "ALTER TABLE queues ADD COLUMN bytes BIGINT NOT NULL DEFAULT 0"
                   : "ALTER TABLE queues ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0");
        db.exec(pg ? "CREATE TABLE timeline(minute BIGINT PRIMARY KEY, pages BIGINT NOT NULL DEFAULT 0, "
                     "bytes BIGINT NOT NULL DEFAULT 0, errors BIGINT NOT NULL DEFAULT 0)"
                   : "CREATE TABLE timeline(minute INTEGER PRIMARY KEY, pages INTEGER NOT NULL DEFAULT 0, "
                     "bytes INTEGER NOT NULL DEFAULT 0, errors INTEGER NOT NULL DEFAULT 0)");
        // The failures report reads the latest failed URLs, the seeds report
        // the seeds, each from a partial index (bounded reads).
        db.exec("CREATE INDEX urls_failed ON urls(fetched_at) WHERE state = 3");
        db.exec("CREATE INDEX urls_seed ON urls(id) WHERE depth = 0 AND coalesce(discovery, '') IN ('', 'seed')");
        // Back-filled from what a URL row keeps of its last result: its
        // status (codes), its fetch time (one timeline row per minute, pages
        // and errors; bytes and MIME types were not stored before, so they
        // start at 0), its visits, and discovery x depth of added URLs.
        std::string minute = pg ? "CAST(floor(fetched_at / 60) AS BIGINT)" : "CAST(fetched_at / 60 AS INTEGER)";
        std::string err = "(error_class IS NOT NULL OR status >= 400)";
        db.exec("INSERT INTO timeline(minute, pages, bytes, errors) SELECT " + minute + ", count(*), 0, "
                "count(CASE WHEN " + err + " THEN 1 END) FROM urls WHERE fetched_at >= 0 "
                "GROUP BY 1");
        std::string cat = pg ? "'status:' || CAST(status AS TEXT)" : "'status:' || status";
        db.exec("INSERT INTO counters(name, n) SELECT " + cat + ", count(*) FROM urls WHERE status > 0 GROUP BY status");
        db.exec("INSERT INTO counters(name, n) SELECT 'crawl:pages', count(*) FROM urls WHERE fetched_at >= 0");
        db.exec("INSERT INTO counters(name, n) SELECT 'crawl:errors', count(*) FROM urls WHERE fetched_at >= 0 AND " + err);
        db.exec("INSERT INTO counters(name, n) SELECT 'visit:novel', count(*) FROM urls WHERE successes > 0 "
                "AND status >= 200 AND status < 300");
        db.exec("INSERT INTO counters(name, n) SELECT 'visit:revisit', coalesce(sum(successes - 1), 0) FROM urls "
                "WHERE successes > 1");
        std::string tab = pg ? "chr(9)" : "char(9)";
        db.exec("INSERT INTO counters(name, n) SELECT 'heatd:' || (CASE WHEN coalesce(discovery, '') = '' THEN 'seed' "
                "WHEN discovery IN ('intelligent-seed', 'hub-seed') THEN 'adaptive-seed' "
                "WHEN discovery = 'validated-hub' THEN 'hub-validated' WHEN discovery = 'link-discovery' THEN 'link' "
                "ELSE discovery END) || " + tab + " || (CASE WHEN depth >= 3 THEN '3+' WHEN depth <= 0 THEN '0' "
                "ELSE CAST(depth AS TEXT) END), count(*) FROM urls GROUP BY 1");
        db.exec("DELETE FROM counters WHERE n = 0 AND (name LIKE 'crawl:%' OR name LIKE 'visit:%')");
        v = 4;
    }
    db.set_schema_version(kSchemaVersion);
    tx.commit();
}

}  // namespace frontier
