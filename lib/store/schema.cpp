#include "store/schema.hpp"

#include <string>

#include "core/error.hpp"
#include "store/store.hpp"

namespace frontier {

namespace {

// Version 1: the first released schema. Later versions are migration steps
// in ensure_schema (below), for both backends; a step is never edited once
// released.
const char* const kSchemaV1 = R"SQL(
CREATE TABLE meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID;
CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE domain_settings(domain TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
    PRIMARY KEY(domain, key)) WITHOUT ROWID;
CREATE TABLE queue_budgets(scope TEXT NOT NULL, name TEXT NOT NULL, replenish INTEGER, total INTEGER,
    PRIMARY KEY(scope, name)) WITHOUT ROWID;
CREATE TABLE seed_domains(domain TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE counters(name TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE queues(
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    state INTEGER NOT NULL DEFAULT 0,
    sched INTEGER NOT NULL DEFAULT 2,
    best REAL,
    wake_at REAL NOT NULL DEFAULT 0,
    served INTEGER NOT NULL DEFAULT 0,
    in_flight INTEGER NOT NULL DEFAULT 0,
    queued INTEGER NOT NULL DEFAULT 0,
    enqueued INTEGER NOT NULL DEFAULT 0,
    done INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    blocked INTEGER NOT NULL DEFAULT 0,
    inactive_seq INTEGER,
    retired_seq INTEGER,
    session_balance INTEGER NOT NULL DEFAULT 0,
    total_spend INTEGER NOT NULL DEFAULT 0,
    last_cost INTEGER,
    cost_count INTEGER NOT NULL DEFAULT 0,
    error_count INTEGER NOT NULL DEFAULT 0,
    last_dequeue_at REAL,
    last_peek_url TEXT,
    last_queued_url TEXT,
    latency_sum REAL NOT NULL DEFAULT 0,
    latency_n INTEGER NOT NULL DEFAULT 0,
    n429 INTEGER NOT NULL DEFAULT 0,
    retry_after_blocks INTEGER NOT NULL DEFAULT 0,
    host_down INTEGER NOT NULL DEFAULT 0,
    created_at REAL
);
CREATE INDEX queues_ready ON queues(best, served) WHERE sched = 0;
CREATE INDEX queues_wake ON queues(wake_at) WHERE sched = 1;
CREATE INDEX queues_inactive ON queues(inactive_seq) WHERE state = 1;
CREATE INDEX queues_retired ON queues(retired_seq) WHERE state >= 2;
CREATE TABLE hosts(
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    robots_state INTEGER NOT NULL DEFAULT 0,
    robots_rules TEXT,
    robots_at REAL,
    robots_status INTEGER,
    robots_retries INTEGER NOT NULL DEFAULT 0,
    robots_retry_at REAL,
    robots_lease_seq INTEGER NOT NULL DEFAULT 0,
    robots_lease_expires REAL,
    robots_queue INTEGER,
    crawl_delay REAL
);
CREATE INDEX hosts_robots_lease ON hosts(robots_lease_expires) WHERE robots_lease_expires IS NOT NULL;
CREATE TABLE urls(
    id INTEGER PRIMARY KEY,
    fp INTEGER NOT NULL,
    url TEXT NOT NULL,
    queue_id INTEGER NOT NULL,
    host_id INTEGER NOT NULL,
    state INTEGER NOT NULL DEFAULT 0,
    due_at REAL,
    rank REAL NOT NULL,
    priority REAL NOT NULL,
    tier INTEGER NOT NULL DEFAULT 0,
    tier_key REAL NOT NULL DEFAULT 0,
    cost INTEGER NOT NULL,
    cls INTEGER NOT NULL DEFAULT 0,
    depth INTEGER NOT NULL DEFAULT 0,
    type TEXT,
    discovery TEXT,
    via TEXT,
    meta TEXT,
    recrawl INTEGER NOT NULL DEFAULT 0,
    last_modified REAL,
    added_at REAL,
    attempts INTEGER NOT NULL DEFAULT 0,
    retries INTEGER NOT NULL DEFAULT 0,
    lease_seq INTEGER NOT NULL DEFAULT 0,
    lease_expires REAL,
    reason TEXT,
    status INTEGER,
    error_class TEXT,
    fetched_at REAL,
    etag TEXT,
    http_last_modified TEXT,
    content_hash TEXT,
    last_visit REAL,
    last_success REAL,
    visits INTEGER NOT NULL DEFAULT 0,
    successes INTEGER NOT NULL DEFAULT 0,
    changes INTEGER NOT NULL DEFAULT 0,
    interval REAL,
    next_visit REAL,
    failures INTEGER NOT NULL DEFAULT 0,
    eventful INTEGER
);
CREATE INDEX urls_fp ON urls(fp);
CREATE INDEX urls_next ON urls(queue_id, rank, tier, tier_key, cost, id) WHERE state = 0 AND due_at IS NULL;
CREATE INDEX urls_due ON urls(due_at) WHERE due_at IS NOT NULL;
CREATE INDEX urls_lease ON urls(lease_expires) WHERE state = 1;
INSERT INTO meta(key, value) VALUES ('settings_version', 1), ('serve_seq', 0), ('fifo_seq', 0);
)SQL";

// PostgreSQL (a postgresql:// frontier): the schema of version 2 in one
// step, in PostgreSQL types (BIGINT, DOUBLE PRECISION, identity ids); the
// version is the meta row 'schema_version'. Migrations after version 2 are
// appended for both backends.
const char* const kSchemaPgV2 = R"SQL(
CREATE TABLE meta(key TEXT PRIMARY KEY, value BIGINT);
CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE domain_settings(domain TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
    PRIMARY KEY(domain, key));
CREATE TABLE queue_budgets(scope TEXT NOT NULL, name TEXT NOT NULL, replenish BIGINT, total BIGINT,
    PRIMARY KEY(scope, name));
CREATE TABLE seed_domains(domain TEXT PRIMARY KEY);
CREATE TABLE counters(name TEXT PRIMARY KEY, n BIGINT NOT NULL);
CREATE TABLE queues(
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    state BIGINT NOT NULL DEFAULT 0,
    sched BIGINT NOT NULL DEFAULT 2,
    best DOUBLE PRECISION,
    wake_at DOUBLE PRECISION NOT NULL DEFAULT 0,
    served BIGINT NOT NULL DEFAULT 0,
    in_flight BIGINT NOT NULL DEFAULT 0,
    queued BIGINT NOT NULL DEFAULT 0,
    enqueued BIGINT NOT NULL DEFAULT 0,
    done BIGINT NOT NULL DEFAULT 0,
    failed BIGINT NOT NULL DEFAULT 0,
    blocked BIGINT NOT NULL DEFAULT 0,
    inactive_seq BIGINT,
    retired_seq BIGINT,
    session_balance BIGINT NOT NULL DEFAULT 0,
    total_spend BIGINT NOT NULL DEFAULT 0,
    last_cost BIGINT,
    cost_count BIGINT NOT NULL DEFAULT 0,
    error_count BIGINT NOT NULL DEFAULT 0,
    last_dequeue_at DOUBLE PRECISION,
    last_peek_url TEXT,
    last_queued_url TEXT,
    latency_sum DOUBLE PRECISION NOT NULL DEFAULT 0,
    latency_n BIGINT NOT NULL DEFAULT 0,
    n429 BIGINT NOT NULL DEFAULT 0,
    retry_after_blocks BIGINT NOT NULL DEFAULT 0,
    host_down BIGINT NOT NULL DEFAULT 0,
    created_at DOUBLE PRECISION
);
CREATE INDEX queues_ready ON queues(best, served) WHERE sched = 0;
CREATE INDEX queues_wake ON queues(wake_at) WHERE sched = 1;
CREATE INDEX queues_inactive ON queues(inactive_seq) WHERE state = 1;
CREATE INDEX queues_retired ON queues(retired_seq) WHERE state >= 2;
CREATE TABLE hosts(
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    robots_state BIGINT NOT NULL DEFAULT 0,
    robots_rules TEXT,
    robots_at DOUBLE PRECISION,
    robots_status BIGINT,
    robots_retries BIGINT NOT NULL DEFAULT 0,
    robots_retry_at DOUBLE PRECISION,
    robots_lease_seq BIGINT NOT NULL DEFAULT 0,
    robots_lease_expires DOUBLE PRECISION,
    robots_queue BIGINT,
    crawl_delay DOUBLE PRECISION
);
CREATE INDEX hosts_robots_lease ON hosts(robots_lease_expires) WHERE robots_lease_expires IS NOT NULL;
CREATE TABLE urls(
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    fp BIGINT NOT NULL,
    url TEXT NOT NULL,
    queue_id BIGINT NOT NULL,
    host_id BIGINT NOT NULL,
    state BIGINT NOT NULL DEFAULT 0,
    due_at DOUBLE PRECISION,
    rank DOUBLE PRECISION NOT NULL,
    priority DOUBLE PRECISION NOT NULL,
    tier BIGINT NOT NULL DEFAULT 0,
    tier_key DOUBLE PRECISION NOT NULL DEFAULT 0,
    cost BIGINT NOT NULL,
    cls BIGINT NOT NULL DEFAULT 0,
    depth BIGINT NOT NULL DEFAULT 0,
    type TEXT,
    discovery TEXT,
    via TEXT,
    meta TEXT,
    recrawl BIGINT NOT NULL DEFAULT 0,
    last_modified DOUBLE PRECISION,
    added_at DOUBLE PRECISION,
    attempts BIGINT NOT NULL DEFAULT 0,
    retries BIGINT NOT NULL DEFAULT 0,
    lease_seq BIGINT NOT NULL DEFAULT 0,
    lease_expires DOUBLE PRECISION,
    reason TEXT,
    status BIGINT,
    error_class TEXT,
    fetched_at DOUBLE PRECISION,
    etag TEXT,
    http_last_modified TEXT,
    content_hash TEXT,
    last_visit DOUBLE PRECISION,
    last_success DOUBLE PRECISION,
    visits BIGINT NOT NULL DEFAULT 0,
    successes BIGINT NOT NULL DEFAULT 0,
    changes BIGINT NOT NULL DEFAULT 0,
    "interval" DOUBLE PRECISION,
    next_visit DOUBLE PRECISION,
    failures BIGINT NOT NULL DEFAULT 0,
    eventful BIGINT,
    first_success DOUBLE PRECISION
);
CREATE INDEX urls_fp ON urls(fp);
CREATE INDEX urls_next ON urls(queue_id, rank, tier, tier_key, cost, id) WHERE state = 0 AND due_at IS NULL;
CREATE INDEX urls_due ON urls(due_at) WHERE due_at IS NOT NULL;
CREATE INDEX urls_lease ON urls(lease_expires) WHERE state = 1;
INSERT INTO meta(key, value) VALUES ('settings_version', 1), ('serve_seq', 0), ('fifo_seq', 0), ('schema_version', 2);
)SQL";

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
    if (v == 0 && db.postgres()) {
        db.exec(kSchemaPgV2);
        v = 2;
    }
    if (v == 0) {
        db.exec(kSchemaV1);
        v = 1;
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
