// The storage interface (lib/store/db.hpp): the backend chosen by the path,
// and transactions over either.
#include "store/db.hpp"

namespace frontier {

std::unique_ptr<Db> Db::open(const std::string& path, bool create, bool readonly) {
    if (is_postgres_url(path)) return open_postgres(path, create, readonly);
    return open_sqlite(path, create, readonly);
}

Transaction::Transaction(Db& db) : db_(db) {
    db_.begin_write();
    open_ = true;
}

Transaction::~Transaction() {
    if (open_) db_.rollback();
}

void Transaction::commit() {
    db_.commit();
    open_ = false;
}

}  // namespace frontier
