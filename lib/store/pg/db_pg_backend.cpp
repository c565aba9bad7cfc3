// The PostgreSQL backend behind the storage interface (lib/store/db.hpp):
// Db and StmtImpl over the connection (db_pg.cpp), the statements
// (db_pg_stmt.cpp) and the dialect (db_pg_dialect.cpp).
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "core/error.hpp"
#include "store/db.hpp"
#include "store/lease_order_storage.hpp"
#include "store/pg/db_pg.hpp"
#include "store/pg/db_pg_conn.hpp"

namespace frontier {

// ------------------------------------------------------------ the backend

namespace {

class PgStatement final : public StmtImpl {
public:
    explicit PgStatement(PgStmt* s) : s_(s) {}
    ~PgStatement() override { pg_stmt_free(s_); }
    void bind_i64(int i, int64_t v) override { pg_stmt_bind(s_, i, v); }
    void bind_dbl(int i, double v) override { pg_stmt_bind(s_, i, v); }
    void bind_text(int i, std::string_view v) override { pg_stmt_bind(s_, i, v); }
    void bind_null(int i) override { pg_stmt_bind_null(s_, i); }
    void bind_binary(int i, std::string_view v) override { pg_stmt_bind_binary(s_, i, v); }
    bool step() override { return pg_stmt_step(s_); }
    void exec() override { pg_stmt_exec(s_); }
    void send() override { pg_stmt_send(s_); }
    void exec_behind() override { pg_stmt_exec_behind(s_); }
    void reset() override { pg_stmt_reset(s_); }
    bool is_null(int col) const override { return pg_stmt_is_null(s_, col); }
    int64_t i64(int col) const override { return pg_stmt_i64(s_, col); }
    double dbl(int col) const override { return pg_stmt_dbl(s_, col); }
    std::string_view text(int col) const override { return pg_stmt_text(s_, col); }

private:
    PgStmt* s_;
};

class PgDb final : public Db {
public:
    PgDb(const std::string& url, bool create, bool readonly) : c_(pg_connect(url, create, readonly)) {}
    ~PgDb() override { pg_disconnect(c_); }
    bool large_updates_in_chunks() const override { return false; }
    void set_page_cache_mib(int) override {}
    void exec(std::string_view sql) override { pg_exec(c_, sql); }
    Stmt prepare(std::string_view sql) override { return Stmt(std::make_unique<PgStatement>(pg_stmt_new(c_, sql))); }
    int64_t changes() const override { return -1; }
    [[noreturn]] void fail(std::string_view what) const override {
        throw DbError(std::string(what) + ": " + pg_error(c_));
    }
    bool constraint_violation(const DbError& e) const override {
        return std::string_view(e.what()).find("violates") != std::string_view::npos;
    }
    void begin_write() override { pg_begin(c_, true); }
    void begin_write_shared() override { pg_begin(c_, true, true); }
    void commit_unnoticed() override { pg_commit_unnoticed(c_); }
    bool wait_for_change(double seconds) override { return pg_wait_for_notification(c_, seconds); }
    bool can_wait_for_change() const override { return true; }
    void begin_read() override { pg_begin(c_, false); }
    void commit() override { pg_commit(c_); }
    void rollback() noexcept override { pg_rollback(c_); }
    int schema_version() override {  // the connect's reading once, then the server's
        return c_->schema_version >= 0 ? std::exchange(c_->schema_version, -1) : pg_schema_version(c_);
    }
    void closing() noexcept override { c_->closing = true; }
    void set_schema_version(int v) override { pg_set_schema_version(c_, v); }
    int64_t data_version() override { return pg_data_version(c_); }
    std::string integrity_problems() override { return {}; }

    // Dialect operations used by check/report/export/schema
    void begin_snapshot() override { begin_read(); }
    void end_snapshot() noexcept override { rollback(); }
    void prepare_for_large_sorts() override {}
    void end_large_sorts() override {}
    std::optional<int64_t> id_sequence_last(std::string_view table) override {
        Stmt st = prepare(pg_id_sequence_last_sql(table));
        return st.step() ? st.i64(0) : 0;
    }
    void advance_id_sequence(std::string_view table) override { prepare(pg_advance_id_sequence_sql(table)).step(); }
    std::string id_sequence_last_sql(std::string_view table) const override {
        return pg_id_sequence_last_sql(table);
    }
    std::string id_sequence_set_sql(std::string_view table, std::string_view value) const override {
        return pg_id_sequence_set_sql(table, value);
    }
    Stmt prepare_insert_or_clash(std::string_view table, const std::vector<std::string_view>& columns,
                                 std::string_view replace_key) override {
        return prepare(pg_insert_or_clash_sql(table, columns, replace_key));
    }
    bool insert_or_clash(Stmt& st, std::string&) override {
        bool inserted = st.step();  // RETURNING 1: no row when it clashed
        st.reset();
        return inserted;
    }
    Stmt prepare_stream(std::string_view select) override { return Stmt(pg_stream_new(c_, select)); }
    std::string value_type_sql(std::string_view column) const override {
        return "pg_typeof(" + std::string(column) + ")::text";
    }
    std::string bytewise_order_sql(std::string_view column) const override {
        return std::string(column) + " COLLATE \"C\"";
    }
    const Ddl& ddl() const override {
        static const Ddl d{"BIGINT",
                           "DOUBLE PRECISION",
                           "BIGINT",
                           " BIGINT PRIMARY KEY",
                           " BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
                           "",
                           "INSERT"};
        return d;
    }
    const LeaseOrderStorage& lease_order() const override { return lease_order_in_index(); }
    std::string whole_part_sql(std::string_view expr) const override {
        return "CAST(floor(" + std::string(expr) + ") AS BIGINT)";
    }

private:
    PgConn* c_;
};

}  // namespace

std::unique_ptr<Db> open_postgres(const std::string& url, bool create, bool readonly) {
    return std::make_unique<PgDb>(url, create, readonly);
}

}  // namespace frontier
