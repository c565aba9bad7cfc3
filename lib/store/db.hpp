// The storage interface (used only by lib/store/): a connection (Db) and
// its prepared statements (Stmt), with two backends, each in its own
// folder: an SQLite file (lib/store/sqlite/) or a PostgreSQL database
// (lib/store/pg/) when the frontier argument is a postgresql:// or
// postgres:// URL. The store code writes one SQL text; the PostgreSQL side
// translates the few differences in one place (pg_translate,
// lib/store/pg/db_pg_sql.cpp). What each backend reads and writes its own
// way is in lib/store/store_backend.hpp. Errors throw DbError (IoError for a file or
// server that cannot be opened). Not thread-safe: one Db per thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

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
    // A parameter in the server's binary form (Stmt::BinaryParam).
    virtual void bind_binary(int, std::string_view) {
        throw std::logic_error("binary parameters are PostgreSQL's");
    }
    virtual bool step() = 0;  // the next row; false when there is none
    virtual void exec() = 0;  // runs it to the end, then reset()
    // Sends it now, its rows read at its next step(): in a PostgreSQL write
    // transaction it is queued, so it goes with the next statement that
    // waits for rows (one round trip for both). Elsewhere nothing: step()
    // runs it.
    virtual void send() {}
    // Runs it behind the statements queued so far, without waiting for it:
    // in a PostgreSQL write transaction the server starts it at once, and
    // the next statement queued before it returns its rows before it ends
    // (its result, or error, comes at the next wait for rows after it).
    // Elsewhere exec().
    virtual void exec_behind() { exec(); }
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
    // A parameter in the backend's own binary form (an array of the
    // PostgreSQL backend, lib/store/pg/pg_array.hpp); `if_empty` bound as
    // text instead when there are no bytes.
    struct BinaryParam {
        std::string_view bytes, if_empty;
    };
    Stmt& bind(int i, const BinaryParam& b) {
        if (b.bytes.empty()) return bind(i, b.if_empty);
        p_->bind_binary(i, b.bytes);
        return *this;
    }
    template <class T>
    Stmt& bind(int i, const std::optional<T>& v) {
        return v ? bind(i, *v) : bind_null(i);
    }

    bool step() { return p_->step(); }
    void exec() { p_->exec(); }
    void send() { p_->send(); }
    void exec_behind() { p_->exec_behind(); }
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
class LeaseOrderStorage;

class Db {
public:
    // Opens (or creates) the frontier at `path`: a file, or a postgresql://
    // URL. Throws IoError (missing, unwritable) or DbError.
    static std::unique_ptr<Db> open(const std::string& path, bool create, bool readonly = false);
    virtual ~Db() = default;
    Db() = default;
    Db(const Db&) = delete;
    Db& operator=(const Db&) = delete;

    // What differs between the backends is asked by what it is, never by
    // which backend: the operations below, and the dialect block at the end.
    // How the store batches its reads and writes is each backend's own
    // (lib/store/store_backend.hpp).
    // Does one statement that changes many rows keep the original of every
    // page it touches until it ends (SQLite's statement journal)? Then such
    // an update runs in chunks (Statements::update_all).
    virtual bool large_updates_in_chunks() const = 0;
    virtual void set_page_cache_mib(int mib) = 0;
    virtual void exec(std::string_view sql) = 0;
    virtual Stmt prepare(std::string_view sql) = 0;
    // Rows changed by the last statement (SQLite; PostgreSQL: -1, unknown).
    virtual int64_t changes() const = 0;
    [[noreturn]] virtual void fail(std::string_view what) const = 0;
    virtual bool constraint_violation(const DbError& e) const = 0;

    virtual void begin_write() = 0;
    // A write transaction beside other such ones: it writes only the parts
    // of the frontier its statements lock themselves (PostgreSQL: the
    // writers' lock taken shared, partitions locked by the store's
    // statements; frontier(7), POSTGRESQL). Elsewhere a plain write
    // transaction.
    virtual void begin_write_shared() { begin_write(); }
    // The open write transaction makes nothing newly available to a
    // waiting frontier-lease --follow (a lease whose housekeeping moved
    // nothing): its commit does not change other connections'
    // data_version (PostgreSQL: no NOTIFY; SQLite: no-op).
    virtual void commit_unnoticed() {}
    // Can wait_for_change block until another connection commits
    // (PostgreSQL: LISTEN, poll on the socket)? Else the caller polls
    // data_version (SQLite).
    virtual bool can_wait_for_change() const { return false; }
    // Blocks until data_version changes or `seconds` pass (or a signal);
    // true when it changed.
    virtual bool wait_for_change(double) { return false; }
    virtual void begin_read() = 0;
    // Copies what the write-ahead log holds into the file without waiting
    // for anyone (SQLite, a read-only connection that may hand over: see
    // Store::checkpoint_log); elsewhere a no-op.
    virtual void checkpoint_log() {}
    // The connection ends after this (the Store that owns it is being
    // destroyed): its prepared statements need not be freed on a server.
    virtual void closing() noexcept {}
    virtual void commit() = 0;
    virtual void rollback() noexcept = 0;

    virtual int schema_version() = 0;
    virtual void set_schema_version(int v) = 0;
    // Changes when another connection commits (to notice other writers).
    virtual int64_t data_version() = 0;
    // The backend's own integrity check ("" when none or all is well).
    virtual std::string integrity_problems() = 0;

    // Dialect operations used by check/report/export/schema
    // (lib/store/store_check.cpp, store_report*.cpp, store_export.cpp,
    // store_import.cpp, schema.cpp): what the two backends do differently,
    // named by what it does.

    // One read snapshot for a part of a report made of several statements:
    // PostgreSQL opens a read-only transaction, end_snapshot() ends it.
    // SQLite: nothing (each statement reads from a snapshot of its own).
    virtual void begin_snapshot() = 0;
    virtual void end_snapshot() noexcept = 0;
    // Before statements that sort or group the whole URL table: sorts go to
    // temporary files and the page cache (and SQLite's sorter, which takes
    // up to the cache's size) shrinks to 16 MiB, so memory stays flat on a
    // large frontier; end_large_sorts() brings back the connection's usual
    // settings. PostgreSQL bounds its sorts itself: nothing.
    virtual void prepare_for_large_sorts() = 0;
    virtual void end_large_sorts() = 0;
    // The last id the identity sequence of `table`.id handed out (0 when
    // none yet); nullopt when the backend numbers new rows past the largest
    // stored id by itself (SQLite's rowid).
    virtual std::optional<int64_t> id_sequence_last(std::string_view table) = 0;
    // After rows were inserted with explicit ids: the identity sequence of
    // `table`.id moves to its largest id, so rows added later do not take
    // one (SQLite: nothing).
    virtual void advance_id_sequence(std::string_view table) = 0;
    // The SQL of those, for statements that read or move the sequence
    // with other work: a SELECT of the last id it handed out (0 when none
    // yet), and an expression that moves it to `value` (SQL); "" where the
    // backend has no sequence (SQLite).
    virtual std::string id_sequence_last_sql(std::string_view table) const = 0;
    virtual std::string id_sequence_set_sql(std::string_view table, std::string_view value) const = 0;
    // An INSERT of one row into `table` (`columns` in order, a parameter
    // each) whose unique-key clash is reported by insert_or_clash(), not
    // thrown. With a `replace_key` (a column), a row with the same key is
    // replaced instead (never a row the backend keeps for itself: the
    // schema version PostgreSQL stores in meta).
    virtual Stmt prepare_insert_or_clash(std::string_view table, const std::vector<std::string_view>& columns,
                                         std::string_view replace_key) = 0;
    // Runs a statement of prepare_insert_or_clash(): true when the row went
    // in; false when it clashed with a stored row, `message` then the
    // backend's words for it (SQLite's; "" when the backend does not say,
    // PostgreSQL). Throws DbError for anything else.
    virtual bool insert_or_clash(Stmt& st, std::string& message) = 0;
    // A SELECT (no parameters) whose rows are read as they are stepped, so
    // memory stays flat whatever their number: PostgreSQL declares a cursor
    // and fetches it in slices (inside the caller's transaction); SQLite
    // steps a statement. Destroyed before the transaction ends.
    virtual Stmt prepare_stream(std::string_view select) = 0;
    // SQL giving the type of the value in `column` as text: SQLite's
    // storage class (typeof: integer, real, text, ...) or PostgreSQL's type
    // name (bigint, double precision, text, ...).
    virtual std::string value_type_sql(std::string_view column) const = 0;
    // An ORDER BY term sorting the text `column` bytewise (PostgreSQL:
    // COLLATE "C"; SQLite sorts text bytewise already).
    virtual std::string bytewise_order_sql(std::string_view column) const = 0;
    // The words of the backend's data definition (lib/store/schema_def.cpp,
    // the migrations of lib/store/schema.cpp).
    struct Ddl {
        const char* integer;      // an integer column: INTEGER / BIGINT
        const char* real;         // REAL / DOUBLE PRECISION
        const char* any;          // a column holding a value of any type: "" (SQLite: none declared) / BIGINT
        const char* key;          // after an integer key column: " INTEGER PRIMARY KEY" / " BIGINT PRIMARY KEY"
        const char* id_key;       // after the key column "id", numbered by the database (an identity on PostgreSQL)
        const char* keyed_table;  // after a table keyed by other columns: " WITHOUT ROWID" (SQLite) / ""
        // The INSERT of rows that clash with none stored (a move between
        // tables that never hold the same key): "INSERT OR IGNORE" on
        // SQLite, which then keeps no statement journal of the pages it
        // changes (in memory, temp_store); "INSERT" on PostgreSQL.
        const char* insert_new;
    };
    virtual const Ddl& ddl() const = 0;
    // How this backend keeps the queued URLs' lease order
    // (lib/store/lease_order_storage.hpp).
    virtual const LeaseOrderStorage& lease_order() const = 0;
    // The whole part of the non-negative number `expr`, as an integer.
    virtual std::string whole_part_sql(std::string_view expr) const = 0;
};

// Each backend's connection, defined in its folder (sqlite_db.hpp,
// db_pg.hpp), as Db::open calls them.
std::unique_ptr<Db> open_sqlite(const std::string& path, bool create, bool readonly);
std::unique_ptr<Db> open_postgres(const std::string& url, bool create, bool readonly);

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
