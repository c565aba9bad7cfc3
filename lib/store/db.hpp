// Thin RAII wrappers over the two database backends, used only by the
// storage module (lib/store*.cpp, lib/store/schema.cpp): an SQLite file (sqlite3,
// sqlite3_stmt) or a PostgreSQL database (libpq) when the frontier argument
// is a postgresql:// or postgres:// URL. The store code writes one SQL text;
// the PostgreSQL side translates the few differences in one place
// (pg_translate, lib/store/pg/db_pg_sql.cpp). Errors throw DbError (IoError for a file or
// server that cannot be opened). Not thread-safe: one Db per thread.
//
// The SQLite path is the original one: Stmt's accessors are inline calls
// into sqlite3 behind one predictable branch on the backend.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace frontier {

struct PgStmt;  // lib/store/pg/db_pg.cpp
struct PgConn;  // lib/store/pg/db_pg.cpp

// True for a frontier argument that names a PostgreSQL database.
bool is_postgres_url(std::string_view path);
// The frontier argument as messages and reports show it: a PostgreSQL
// URL's password (postgresql://user:PASSWORD@host/...) is left out.
std::string frontier_display_name(std::string_view path);

class Db;

class Stmt {
public:
    Stmt() = default;
    Stmt(sqlite3* db, std::string_view sql);
    Stmt(PgConn* conn, std::string_view sql);  // PostgreSQL (lib/store/pg/db_pg.cpp)
    ~Stmt();
    Stmt(Stmt&& o) noexcept : db_(o.db_), st_(o.st_), pg_(o.pg_) {
        o.st_ = nullptr;
        o.pg_ = nullptr;
    }
    Stmt& operator=(Stmt&& o) noexcept;
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;

    // Bind by 1-based index. Strings are copied (SQLITE_TRANSIENT).
    Stmt& bind(int i, int64_t v) {
        if (pg_) return pg_bind(i, v);
        sqlite3_bind_int64(st_, i, v);
        return *this;
    }
    Stmt& bind(int i, int v) { return bind(i, static_cast<int64_t>(v)); }
    Stmt& bind(int i, double v) {
        if (pg_) return pg_bind(i, v);
        sqlite3_bind_double(st_, i, v);
        return *this;
    }
    Stmt& bind(int i, std::string_view v) {
        if (pg_) return pg_bind(i, v);
        sqlite3_bind_text(st_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
        return *this;
    }
    Stmt& bind(int i, const std::string& v) { return bind(i, std::string_view(v)); }
    Stmt& bind(int i, const char* v) { return bind(i, std::string_view(v)); }
    Stmt& bind_null(int i) {
        if (pg_) return pg_bind_null(i);
        sqlite3_bind_null(st_, i);
        return *this;
    }
    template <class T>
    Stmt& bind(int i, const std::optional<T>& v) {
        return v ? bind(i, *v) : bind_null(i);
    }

    // Steps once: true when a row is available, false when done. (On
    // PostgreSQL the first step runs the statement and buffers its rows.)
    bool step();
    // Steps to completion (for statements without rows) and resets.
    void exec();
    void reset();

    bool is_null(int col) const { return pg_ ? pg_is_null(col) : sqlite3_column_type(st_, col) == SQLITE_NULL; }
    int64_t i64(int col) const { return pg_ ? pg_i64(col) : sqlite3_column_int64(st_, col); }
    double dbl(int col) const { return pg_ ? pg_dbl(col) : sqlite3_column_double(st_, col); }
    std::string_view text(int col) const;
    std::string str(int col) const { return std::string(text(col)); }
    std::optional<double> opt_dbl(int col) const {
        return is_null(col) ? std::nullopt : std::optional<double>(dbl(col));
    }
    std::optional<int64_t> opt_i64(int col) const {
        return is_null(col) ? std::nullopt : std::optional<int64_t>(i64(col));
    }

private:
    Stmt& pg_bind(int i, int64_t v);
    Stmt& pg_bind(int i, double v);
    Stmt& pg_bind(int i, std::string_view v);
    Stmt& pg_bind_null(int i);
    bool pg_is_null(int col) const;
    int64_t pg_i64(int col) const;
    double pg_dbl(int col) const;

    sqlite3* db_ = nullptr;
    sqlite3_stmt* st_ = nullptr;
    PgStmt* pg_ = nullptr;
};

class Db {
public:
    // Opens (creating when `create`) the SQLite file: WAL mode, busy timeout,
    // synchronous=NORMAL. For a postgresql:// URL, connects to that database
    // (which must exist; `create` lets the schema be created in it; `readonly`
    // makes the session read-only). Throws IoError when it cannot open or
    // connect, DbError otherwise.
    Db(const std::string& path, bool create, bool readonly = false);
    ~Db();
    Db(const Db&) = delete;
    Db& operator=(const Db&) = delete;

    bool postgres() const { return pg_ != nullptr; }
    // SQLite's page cache of this connection (32 MiB unless set); no-op on PostgreSQL.
    void set_page_cache_mib(int mib);
    void exec(std::string_view sql);
    Stmt prepare(std::string_view sql);
    int64_t changes() const { return sqlite3_changes64(db_); }  // SQLite only
    [[noreturn]] void fail(std::string_view what) const;
    // True when `e`, just thrown by a statement of this connection, was a
    // constraint violation (a duplicate key): SQLITE_CONSTRAINT, or
    // PostgreSQL's integrity-constraint class (its message says "violates").
    bool constraint_violation(const DbError& e) const;

    // Transactions. begin_write() serialises writers: BEGIN IMMEDIATE on
    // SQLite (waiting for the file's write lock); on PostgreSQL BEGIN, then
    // an advisory transaction lock every frontier writer takes, so writers
    // on any machine run one at a time, as on SQLite. begin_read() opens a
    // read-only snapshot. rollback() never throws.
    void begin_write();
    void begin_read();
    void commit();
    void rollback() noexcept;

    // The schema version (PRAGMA user_version; on PostgreSQL the
    // meta row 'schema_version', 0 when the database has no frontier).
    int schema_version();
    void set_schema_version(int v);
    // Changes whenever another connection committed a change (PRAGMA
    // data_version; on PostgreSQL a meta row every changing commit bumps).
    int64_t data_version();
    // Rows of the backend's own integrity check that are not "ok" (SQLite's
    // PRAGMA integrity_check; nothing on PostgreSQL, which checks itself).
    std::string integrity_problems();

private:
    sqlite3* db_ = nullptr;
    PgConn* pg_ = nullptr;
    std::unique_ptr<Stmt> data_version_stmt_;
};

// A write transaction (Db::begin_write); rolls back unless commit() was called.
class Transaction {
public:
    explicit Transaction(Db& db);
    ~Transaction();
    void commit();

private:
    Db& db_;
    bool open_ = false;
};

}  // namespace frontier
