// The SQLite backend of the storage interface (lib/store/db.hpp): a
// frontier file in WAL mode, opened through the WAL-aware VFS
// (lib/store/sqlite/wal_vfs.hpp).
#pragma once

#include <memory>
#include <string>

#include "store/db.hpp"

namespace frontier {

// Opens (or creates) the frontier file at `path`. Throws IoError for a
// missing or unwritable file, DbError otherwise.
std::unique_ptr<Db> open_sqlite(const std::string& path, bool create, bool readonly);

}  // namespace frontier
