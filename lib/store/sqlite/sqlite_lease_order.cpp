// The lease order in tables (lib/store/lease_order_storage.hpp), SQLite's:
// url_next, large, and url_next_new, small, kept by the code that inserts
// and changes URL rows (schema_def.hpp, kLeaseEntrySql, kLeaseLeaveSql) and
// by a trigger for deleted rows (kLeaseOrderSql).
#include "store/check_tally.hpp"
#include "store/db.hpp"
#include "store/lease_order_storage.hpp"
#include "store/schema_def.hpp"
#include "store/sql_codes.hpp"
#include "store/sql_columns.hpp"
#include "store/store_impl.hpp"

namespace frontier {

namespace {

#define DUE_URLS "FROM urls u WHERE " SQL_URL_DUE("u.")
#define ENTRY_OF_U(t) "SELECT 1 FROM " t " n WHERE " SQL_SAME_ORDER_ENTRY("n", "u")

class InTables final : public LeaseOrderStorage {
public:
    std::string create_sql(const Db& db) const override { return create_lease_order_sql(db, ""); }
    // The queued URLs that are due leave the index urls_next for url_next
    // (all of them, in key order) and url_next_new (empty).
    void migrate_to_8(Db& db) const override {
        const char* const move =
            "INSERT INTO url_next SELECT " SQL_ORDER_ENTRY
            " FROM urls WHERE " SQL_URL_DUE("") " ORDER BY " SQL_ORDER_KEY ";\nDROP INDEX urls_next;\n";
        db.exec(create_lease_order_sql(db, move));
    }
    void migrate_to_9(Db& db) const override { db.exec("DROP TRIGGER IF EXISTS url_next_update"); }
    const char* import_entry_sql() const override { return kLeaseEntrySql; }
    // The imported queued URLs' entries, written to url_next_new with their
    // rows, move to url_next in key order.
    void settle_import(Db& db) const override {
        db.exec(move_lease_order_sql(""));
        db.exec("DELETE FROM url_next_new");
    }
    const char* queued_revisits_sql() const override {
        return "SELECT (SELECT count(*) FROM url_next WHERE recrawl = 1) + "
               "(SELECT count(*) FROM url_next_new WHERE recrawl = 1)";
    }
    // Each queued URL that is due has its entry, with its row's values, in
    // url_next or url_next_new, and there are no others (an entry in both
    // is counted twice).
    void check(check::Checker& c, Db& db) const override {
        enum class M { id, url };
        Stmt missing = db.prepare("SELECT u.id, u.url " DUE_URLS " AND NOT EXISTS (" ENTRY_OF_U(
            "url_next") ") AND NOT EXISTS (" ENTRY_OF_U("url_next_new") ")");
        for (SqlRow<M> m(missing); missing.step();)
            c.fail("url " + std::to_string(m.i64(M::id)) + " " + check::short_url(m.text(M::url)) +
                   ": queued and due, but not in url_next or url_next_new as its row says");
        const int64_t entries =
            check::scalar(db, "SELECT (SELECT count(*) FROM url_next) + (SELECT count(*) FROM url_next_new)");
        const int64_t due = check::scalar(db, "SELECT count(*) " DUE_URLS);
        if (entries != due)
            c.fail("url_next and url_next_new hold " + std::to_string(entries) + " entries for " +
                   std::to_string(due) + " queued URLs that are due");
    }
};

#undef DUE_URLS
#undef ENTRY_OF_U

}  // namespace

const LeaseOrderStorage& lease_order_in_tables() {
    static const InTables t;
    return t;
}

}  // namespace frontier
