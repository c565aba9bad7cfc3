// Thin RAII wrappers over sqlite3 and sqlite3_stmt, used only by the storage
// module (lib/store*.cpp). Errors throw DbError with SQLite's message.
// Not thread-safe: one Db per thread.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace frontier {

class Stmt {
public:
    Stmt() = default;
    Stmt(sqlite3* db, std::string_view sql);
    ~Stmt();
    Stmt(Stmt&& o) noexcept : db_(o.db_), st_(o.st_) { o.st_ = nullptr; }
    Stmt& operator=(Stmt&& o) noexcept;
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;

    // Bind by 1-based index. Strings are copied (SQLITE_TRANSIENT).
    Stmt& bind(int i, int64_t v);
    Stmt& bind(int i, int v) { return bind(i, static_cast<int64_t>(v)); }
    Stmt& bind(int i, double v);
    Stmt& bind(int i, std::string_view v);
    Stmt& bind(int i, const std::string& v) { return bind(i, std::string_view(v)); }
    Stmt& bind(int i, const char* v) { return bind(i, std::string_view(v)); }
    Stmt& bind_null(int i);
    template <class T>
    Stmt& bind(int i, const std::optional<T>& v) {
        return v ? bind(i, *v) : bind_null(i);
    }

    // Steps once: true when a row is available, false when done.
    bool step();
    // Steps to completion (for statements without rows) and resets.
    void exec();
    void reset();

    bool is_null(int col) const { return sqlite3_column_type(st_, col) == SQLITE_NULL; }
    int64_t i64(int col) const { return sqlite3_column_int64(st_, col); }
    double dbl(int col) const { return sqlite3_column_double(st_, col); }
    std::string_view text(int col) const;
    std::string str(int col) const { return std::string(text(col)); }
    std::optional<double> opt_dbl(int col) const {
        return is_null(col) ? std::nullopt : std::optional<double>(dbl(col));
    }
    std::optional<int64_t> opt_i64(int col) const {
        return is_null(col) ? std::nullopt : std::optional<int64_t>(i64(col));
    }

private:
    sqlite3* db_ = nullptr;
    sqlite3_stmt* st_ = nullptr;
};

class Db {
public:
    // Opens (creating when `create`) the file; WAL mode, busy timeout,
    // synchronous=NORMAL. Throws DbError.
    Db(const std::string& path, bool create, bool readonly = false);
    ~Db();
    Db(const Db&) = delete;
    Db& operator=(const Db&) = delete;

    sqlite3* handle() const { return db_; }
    void exec(std::string_view sql);
    Stmt prepare(std::string_view sql) { return Stmt(db_, sql); }
    int64_t changes() const { return sqlite3_changes64(db_); }
    int64_t last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }
    [[noreturn]] void fail(std::string_view what) const;

private:
    sqlite3* db_ = nullptr;
};

// A write transaction (BEGIN IMMEDIATE, retried while the file is busy);
// rolls back unless commit() was called.
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
