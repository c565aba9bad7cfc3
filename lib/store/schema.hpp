// The frontier file's schema and its forward migrations (owned by the
// storage module). Version numbers live in PRAGMA user_version (SQLite) or
// the meta row schema_version (PostgreSQL).
#pragma once

#include "store/db.hpp"

namespace frontier {

// Creates the schema in an empty file, or migrates an older one forward to
// kSchemaVersion, in one transaction. Throws DbError for a newer version.
void ensure_schema(Db& db, bool may_write);

}  // namespace frontier
