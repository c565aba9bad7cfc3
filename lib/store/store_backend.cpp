// The backend's operations chosen once per Store, by the path as Db::open
// chooses the connection (lib/store/store_backend.hpp).
#include "store/store_backend.hpp"

#include "store/db.hpp"

namespace frontier {

std::unique_ptr<StoreBackend> make_store_backend(const std::string& path, Statements& st) {
    return is_postgres_url(path) ? make_pg_store_backend(st) : make_sqlite_store_backend(st);
}

}  // namespace frontier
