#include "db.hpp"

#include <unistd.h>

#include "error.hpp"

namespace frontier {

Stmt::Stmt(sqlite3* db, std::string_view sql) : db_(db) {
    if (sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &st_,
                           nullptr) != SQLITE_OK)
        throw DbError(std::string("cannot prepare statement: ") + sqlite3_errmsg(db) + " in: " +
                      std::string(sql.substr(0, 120)));
}

Stmt::~Stmt() {
    if (st_) sqlite3_finalize(st_);
}

Stmt& Stmt::operator=(Stmt&& o) noexcept {
    if (this != &o) {
        if (st_) sqlite3_finalize(st_);
        db_ = o.db_;
        st_ = o.st_;
        o.st_ = nullptr;
    }
    return *this;
}

Stmt& Stmt::bind(int i, int64_t v) {
    sqlite3_bind_int64(st_, i, v);
    return *this;
}
Stmt& Stmt::bind(int i, double v) {
    sqlite3_bind_double(st_, i, v);
    return *this;
}
Stmt& Stmt::bind(int i, std::string_view v) {
    sqlite3_bind_text(st_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
}
Stmt& Stmt::bind_null(int i) {
    sqlite3_bind_null(st_, i);
    return *this;
}

bool Stmt::step() {
    int rc = sqlite3_step(st_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    std::string msg = sqlite3_errmsg(db_);
    sqlite3_reset(st_);
    throw DbError("database error: " + msg);
}

void Stmt::exec() {
    while (step()) {
    }
    reset();
}

void Stmt::reset() {
    sqlite3_reset(st_);
    sqlite3_clear_bindings(st_);
}

std::string_view Stmt::text(int col) const {
    const unsigned char* p = sqlite3_column_text(st_, col);
    if (!p) return {};
    return {reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(st_, col))};
}

Db::Db(const std::string& path, bool create, bool readonly) {
    if (!create && access(path.c_str(), F_OK) != 0)
        throw IoError("frontier file not found: " + path + " (create it with frontier-add or frontier-config)");
    int flags = readonly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0));
    flags |= SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
        std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        db_ = nullptr;
        throw IoError("cannot open frontier file " + path + ": " + msg);
    }
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_timeout(db_, 60000);
    if (!readonly) {
        // journal_mode needs a write lock the first time; busy_timeout covers it.
        Stmt wal(db_, "PRAGMA journal_mode=WAL");
        wal.step();
        if (wal.text(0) != "wal") fail("cannot switch the frontier file to WAL mode");
    }
    exec("PRAGMA synchronous=NORMAL");
    exec("PRAGMA foreign_keys=OFF");
    exec("PRAGMA cache_size=-32768");  // 32 MiB page cache
    exec("PRAGMA temp_store=MEMORY");
}

Db::~Db() {
    if (db_) sqlite3_close_v2(db_);
}

void Db::exec(std::string_view sql) {
    std::string s(sql);
    char* err = nullptr;
    if (sqlite3_exec(db_, s.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        std::string msg = err ? err : sqlite3_errmsg(db_);
        sqlite3_free(err);
        throw DbError("database error: " + msg);
    }
}

void Db::fail(std::string_view what) const {
    throw DbError(std::string(what) + ": " + sqlite3_errmsg(db_));
}

Transaction::Transaction(Db& db) : db_(db) {
    db_.exec("BEGIN IMMEDIATE");
    open_ = true;
}

Transaction::~Transaction() {
    if (open_) {
        sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
    }
}

void Transaction::commit() {
    db_.exec("COMMIT");
    open_ = false;
}

}  // namespace frontier
