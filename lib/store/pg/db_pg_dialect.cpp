// The PostgreSQL side of the dialect operations of lib/store/db.hpp that
// need more than a line (PgDb in lib/store/pg/db_pg.cpp calls these): the
// cursor read in slices behind the Stmt interface, and the statement texts
// of the import's insert-or-clash and of the identity sequences.
#include <atomic>
#include <memory>
#include <string>

#include "core/error.hpp"
#include "store/insert_sql.hpp"
#include "store/pg/db_pg.hpp"

namespace frontier {

namespace {

// A SELECT read through a cursor in slices of 5,000 rows (PostgreSQL hands
// a statement's rows over all at once): the cursor is declared at the first
// step and closed after the first empty slice. Left open when dropped early
// (an error): the transaction's end closes it.
class PgStream final : public StmtImpl {
public:
    PgStream(PgConn* c, std::string_view select) : c_(c), select_(select) {
        static std::atomic<int64_t> streams{0};
        name_ = "frontier_stream_" + std::to_string(++streams);
        fetch_ = pg_stmt_new(c_, "FETCH 5000 FROM " + name_);
    }
    ~PgStream() override { pg_stmt_free(fetch_); }
    void bind_i64(int, int64_t) override { unbound(); }
    void bind_dbl(int, double) override { unbound(); }
    void bind_text(int, std::string_view) override { unbound(); }
    void bind_null(int) override { unbound(); }
    bool step() override {
        if (!open_) {
            pg_exec(c_, "DECLARE " + name_ + " NO SCROLL CURSOR FOR " + select_);
            open_ = true;
            got_ = 0;
        }
        for (;;) {
            if (pg_stmt_step(fetch_)) {
                ++got_;
                return true;
            }
            pg_stmt_reset(fetch_);
            if (got_ == 0) {
                close();
                return false;
            }
            got_ = 0;
        }
    }
    void exec() override {
        while (step()) {
        }
    }
    void reset() override {
        pg_stmt_reset(fetch_);
        if (open_) close();
    }
    bool is_null(int col) const override { return pg_stmt_is_null(fetch_, col); }
    int64_t i64(int col) const override { return pg_stmt_i64(fetch_, col); }
    double dbl(int col) const override { return pg_stmt_dbl(fetch_, col); }
    std::string_view text(int col) const override { return pg_stmt_text(fetch_, col); }

private:
    [[noreturn]] static void unbound() { throw DbError("a streamed SELECT takes no parameters"); }
    void close() {
        open_ = false;
        pg_exec(c_, "CLOSE " + name_);
    }

    PgConn* c_;
    std::string select_, name_;
    PgStmt* fetch_ = nullptr;
    bool open_ = false;
    int64_t got_ = 0;  // rows of the current slice
};

// The sequence behind a table's id column.
std::string id_sequence(std::string_view table) {
    return "pg_get_serial_sequence('" + std::string(table) + "', 'id')";
}

}  // namespace

std::unique_ptr<StmtImpl> pg_stream_new(PgConn* c, std::string_view select) {
    return std::make_unique<PgStream>(c, select);
}

// A clash inserts nothing and returns no row (ON CONFLICT DO NOTHING), so
// the transaction goes on. A replaced row keeps the schema version this
// backend stores in meta (pg_set_schema_version).
std::string pg_insert_or_clash_sql(std::string_view table, const std::vector<std::string_view>& columns,
                                   std::string_view replace_key) {
    std::string sql = insert_sql("INSERT", table, columns);
    if (replace_key.empty()) return sql + " ON CONFLICT DO NOTHING RETURNING 1";
    sql += " ON CONFLICT (" + std::string(replace_key) + ") DO UPDATE SET ";
    bool first = true;
    for (std::string_view c : columns) {
        if (c == replace_key) continue;
        sql += (first ? "" : ", ") + std::string(c) + " = excluded." + std::string(c);
        first = false;
    }
    if (table == "meta") sql += " WHERE meta." + std::string(replace_key) + " <> 'schema_version'";
    return sql + " RETURNING 1";
}

std::string pg_id_sequence_last_sql(std::string_view table) {
    return "SELECT coalesce(pg_sequence_last_value(" + id_sequence(table) + "), 0)";
}

std::string pg_id_sequence_set_sql(std::string_view table, std::string_view value) {
    return "setval(" + id_sequence(table) + ", " + std::string(value) + ")";
}

std::string pg_advance_id_sequence_sql(std::string_view table) {
    std::string t(table);
    return "SELECT " + pg_id_sequence_set_sql(t, "max(id)") + " FROM " + t + " HAVING max(id) IS NOT NULL";
}

}  // namespace frontier
