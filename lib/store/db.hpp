// The storage interface (used only by lib/store/): a connection (Db) and
// its prepared statements (Stmt), with two backends, each in its own
// folder: an SQLite file (lib/store/sqlite/) or a PostgreSQL database
// (lib/store/pg/) when the frontier argument is a postgresql:// or
// postgres:// URL. The store code writes one SQL text; the PostgreSQL side
// translates the few differences in one place (pg_translate,
// lib/store/pg/db_pg_sql.cpp). Errors throw DbError (IoError for a file or
// server that cannot be opened). Not thread-safe: one Db per thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace frontier {

bool is_postgres_url(std::string_view path);
std::string frontier_display_name(std::string_view path);

// One prepared statement of a backend (lib/store/sqlite/, lib/store/pg/).
// Parameters are numbered from 1, result columns from 0.
class StmtImpl {
public:
    virtual ~StmtImpl() = default;
    virtual void bind_i64(int i, int64_t v) = 0;
    virtual void bind_dbl(int i, double v) = 0;
    virtual void bind_text(int i, std::string_view v) = 0;
    virtual void bind_null(int i) = 0;
    virtual bool step() = 0;  // the next row; false when there is none
    virtual void exec() = 0;  // runs it to the end, then reset()
    virtual void reset() = 0; // ready to run again, parameters cleared
    virtual bool is_null(int col) const = 0;
    virtual int64_t i64(int col) const = 0;
    virtual double dbl(int col) const = 0;
    virtual std::string_view text(int col) const = 0;  // valid until the next step or reset
};

// A statement handle: the store's only way to run SQL on either backend.
class Stmt {
public:
    Stmt() = default;
    explicit Stmt(std::unique_ptr<StmtImpl> impl) : p_(std::move(impl)) {}

    Stmt& bind(int i, int64_t v) { p_->bind_i64(i, v); return *this; }
    Stmt& bind(int i, int v) { return bind(i, static_cast<int64_t>(v)); }
    Stmt& bind(int i, double v) { p_->bind_dbl(i, v); return *this; }
    Stmt& bind(int i, std::string_view v) { p_->bind_text(i, v); return *this; }
    Stmt& bind(int i, const std::string& v) { return bind(i, std::string_view(v)); }
    Stmt& bind(int i, const char* v) { return bind(i, std::string_view(v)); }
    Stmt& bind_null(int i) { p_->bind_null(i); return *this; }
    template <class T>
    Stmt& bind(int i, const std::optional<T>& v) {
        return v ? bind(i, *v) : bind_null(i);
    }

    bool step() { return p_->step(); }
    void exec() { p_->exec(); }
    void reset() { p_->reset(); }

    bool is_null(int col) const { return p_->is_null(col); }
    int64_t i64(int col) const { return p_->i64(col); }
    double dbl(int col) const { return p_->dbl(col); }
    std::string_view text(int col) const { return p_->text(col); }
    std::string str(int col) const { return std::string(text(col)); }
    std::optional<double> opt_dbl(int col) const {
        return is_null(col) ? std::nullopt : std::optional<double>(dbl(col));
    }
    std::optional<int64_t> opt_i64(int col) const {
        return is_null(col) ? std::nullopt : std::optional<int64_t>(i64(col));
    }

private:
    std::unique_ptr<StmtImpl> p_;
};

// A connection to one frontier: an SQLite file (lib/store/sqlite/) or a
// PostgreSQL database (lib/store/pg/). Db::open picks the backend from the
// path. The SQL the store writes is SQLite's; the PostgreSQL backend
// translates its parameters and types (lib/store/pg/db_pg_sql.cpp).
class Db {
public:
    // Opens (or creates) the frontier at `path`: a file, or a postgresql://
    // URL. Throws IoError (missing, unwritable) or DbError.
    static std::unique_ptr<Db> open(const std::string& path, bool create, bool readonly = false);
    virtual ~Db() = default;
    Db() = default;
    Db(const Db&) = delete;
    Db& operator=(const Db&) = delete;

    // The dialect, for the few statements written differently (the store's
    // SQL is otherwise the same on both).
    virtual bool postgres() const = 0;
    // Is every statement a round trip to a server (PostgreSQL)? Then the
    // store reads and writes many rows per statement (arrays, LATERAL
    // joins) where SQLite, in process, is faster row by row from its page
    // cache, and writes rows at once instead of holding them for page order.
    virtual bool statements_are_round_trips() const = 0;
    // Does one statement that changes many rows keep the original of every
    // page it touches until it ends (SQLite's statement journal)? Then such
    // an update runs in chunks (Store::Impl::update_all).
    virtual bool large_updates_in_chunks() const = 0;
    virtual void set_page_cache_mib(int mib) = 0;
    virtual void exec(std::string_view sql) = 0;
    virtual Stmt prepare(std::string_view sql) = 0;
    // Rows changed by the last statement (SQLite; PostgreSQL: -1, unknown).
    virtual int64_t changes() const = 0;
    [[noreturn]] virtual void fail(std::string_view what) const = 0;
    virtual bool constraint_violation(const DbError& e) const = 0;

    virtual void begin_write() = 0;
    virtual void begin_read() = 0;
    virtual void commit() = 0;
    virtual void rollback() noexcept = 0;

    virtual int schema_version() = 0;
    virtual void set_schema_version(int v) = 0;
    // Changes when another connection commits (to notice other writers).
    virtual int64_t data_version() = 0;
    // The backend's own integrity check ("" when none or all is well).
    virtual std::string integrity_problems() = 0;
};

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
