// Private to the storage module (lib/store/): the connection of a Store,
// for the parts that run their own SQL over it (report, check, export,
// import). Tools and tests go through Store's methods, or open a
// connection of their own.
#pragma once

#include "store/db.hpp"
#include "store/store.hpp"

namespace frontier {

struct StoreConnection {
    static Db& of(Store& store) { return *store.db_; }
    static Store::Impl& impl_of(Store& store) { return *store.impl_; }
};

// The connection `store` runs its statements on.
inline Db& store_db(Store& store) { return StoreConnection::of(store); }
// Its backend's operations (store_backend.hpp; defined in store.cpp).
class StoreBackend;
StoreBackend& store_backend(Store& store);

}  // namespace frontier
