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
    db.set_schema_version(kSchemaVersion);
    tx.commit();
}

}  // namespace frontier
