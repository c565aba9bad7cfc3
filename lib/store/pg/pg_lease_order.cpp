// The lease order in an index (lib/store/lease_order_storage.hpp),
// PostgreSQL's: the partial index urls_next (schema_def.hpp,
// kUrlsNextIndexSql), which the database keeps exact by itself.
#include "store/db.hpp"
#include "store/lease_order_storage.hpp"
#include "store/schema_def.hpp"
#include "store/sql_codes.hpp"

namespace frontier {

namespace {

class InIndex final : public LeaseOrderStorage {
public:
    std::string create_sql(const Db&) const override { return std::string(kUrlsNextIndexSql) + ";\n"; }
    void migrate_to_8(Db&) const override {}
    void migrate_to_9(Db&) const override {}
    const char* import_entry_sql() const override { return nullptr; }
    void settle_import(Db&) const override {}
    // An index-only scan of urls_next, whose last column is recrawl.
    const char* queued_revisits_sql() const override {
        return "SELECT count(*) FROM urls WHERE recrawl = 1 AND " SQL_URL_DUE("");
    }
    void check(check::Checker&, Db&) const override {}
};

}  // namespace

const LeaseOrderStorage& lease_order_in_index() {
    static const InIndex i;
    return i;
}

}  // namespace frontier
