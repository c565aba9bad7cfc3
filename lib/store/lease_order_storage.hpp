// How a backend keeps the queued URLs' lease order (frontier(7), FILE
// FORMAT): SQLite in the tables url_next and url_next_new, which the code
// that changes URL rows keeps exact; PostgreSQL in the partial index
// urls_next, which the database keeps. Each backend's connection names its
// own (Db::lease_order), so the schema, its migrations, the import, the
// check and the report call these and never ask which backend it is.
#pragma once

#include <string>

namespace frontier {

class Db;
namespace check {
class Checker;
}

class LeaseOrderStorage {
public:
    virtual ~LeaseOrderStorage() = default;
    // The CREATE statements of a new frontier's lease order, after its tables.
    virtual std::string create_sql(const Db& db) const = 0;
    // Schema 8 (the order leaves the index for tables) and 9 (their update
    // trigger goes): lib/store/schema.cpp.
    virtual void migrate_to_8(Db& db) const = 0;
    virtual void migrate_to_9(Db& db) const = 0;
    // The statement that enters an imported URL row's entry (its id the
    // parameter), or nullptr where the database keeps the order itself.
    virtual const char* import_entry_sql() const = 0;
    // At the end of an import, in its transaction: the entries written with
    // the rows move into place.
    virtual void settle_import(Db& db) const = 0;
    // One row, one column: how many revisited URLs are queued and due (the
    // report's "due now"), without reading a URL row.
    virtual const char* queued_revisits_sql() const = 0;
    // frontier-report --check (lease-order): every queued, due URL has its
    // entry, and no other entry exists.
    virtual void check(check::Checker& c, Db& db) const = 0;
};

// The two ways, defined in the backends' folders.
const LeaseOrderStorage& lease_order_in_tables();  // lib/store/sqlite/sqlite_lease_order.cpp
const LeaseOrderStorage& lease_order_in_index();   // lib/store/pg/pg_lease_order.cpp

}  // namespace frontier
