// The SQLite backend of the storage interface (lib/store/db.hpp).
#include "store/sqlite/sqlite_db.hpp"

#include <sqlite3.h>

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <strings.h>

#include "core/env.hpp"
#include "core/error.hpp"
#include "store/insert_sql.hpp"
#include "store/lease_order_storage.hpp"
#include "store/sqlite/wal_vfs.hpp"

namespace frontier {

namespace {

// FRONTIER_CACHE_MIB (frontier(7), ENVIRONMENT): the page cache of every
// connection, in MiB, instead of the size each tool asks for (add 29,
// done 8, the others 32; 16 during large sorts). Past about a million URLs
// the random index pages outgrow the default and each insert or result
// reads and writes pages through the operating system: memory bought back
// as speed, at the user's choice.
std::optional<int> page_cache_override() {
    std::optional<int64_t> mib = env_whole_number("FRONTIER_CACHE_MIB", 1, 1048576, "MiB from 1 to 1048576");
    if (!mib) return std::nullopt;
    return static_cast<int>(*mib);
}

// True when the file system holding `path` has no free block left (for
// this user: root may still have its reserved blocks).
bool no_space_left(const char* path) {
    if (!path || !*path) return false;
    std::string dir(path);
    auto slash = dir.rfind('/');
    dir = slash == std::string::npos ? "." : slash == 0 ? "/" : dir.substr(0, slash);
    struct statvfs st;
    return statvfs(dir.c_str(), &st) == 0 && (st.f_bavail == 0 || st.f_bfree == 0);
}

// The message of SQLite's last error on `db`. A full disk says so, and
// names the file: SQLITE_FULL, or an I/O error (a write, growing the -shm
// or -wal file) with ENOSPC/EDQUOT or on a file system with no space left.
// SQLite's own text stays at the end ("database or disk is full", "disk
// I/O error"). Otherwise `what` + ": " + SQLite's text.
std::string sqlite_error(sqlite3* db, std::string_view what) {
    std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    if (db) {
        int code = sqlite3_extended_errcode(db), err = sqlite3_system_errno(db);
        const char* file = sqlite3_db_filename(db, "main");
        bool full = (code & 0xff) == SQLITE_FULL ||
                    ((code & 0xff) == SQLITE_IOERR && (err == ENOSPC || err == EDQUOT || no_space_left(file)));
        if (full)
            return std::string("disk full: ") + (file && *file ? file : "the frontier file") +
                   " (no space left on its file system for it, its -wal or its -shm file; SQLite: " + msg + ")";
    }
    return std::string(what) + ": " + msg;
}

class SqliteStmt final : public StmtImpl {
public:
    SqliteStmt(sqlite3* db, std::string_view sql) : db_(db) {
        if (sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &st_,
                               nullptr) != SQLITE_OK) {
            std::string msg = sqlite_error(db, "cannot prepare statement");
            if (!msg.starts_with("disk full: ")) msg += " in: " + std::string(sql.substr(0, 120));
            throw DbError(msg);
        }
    }
    ~SqliteStmt() override { sqlite3_finalize(st_); }

    void bind_i64(int i, int64_t v) override { sqlite3_bind_int64(st_, i, v); }
    void bind_dbl(int i, double v) override { sqlite3_bind_double(st_, i, v); }
    void bind_text(int i, std::string_view v) override {
        sqlite3_bind_text(st_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    }
    void bind_null(int i) override { sqlite3_bind_null(st_, i); }

    bool step() override {
        int rc = sqlite3_step(st_);
        if (rc == SQLITE_ROW) return true;
        if (rc == SQLITE_DONE) return false;
        std::string msg = sqlite_error(db_, "database error");
        sqlite3_reset(st_);
        throw DbError(msg);
    }
    void exec() override {
        while (step()) {
        }
        reset();
    }
    void reset() override {
        sqlite3_reset(st_);
        sqlite3_clear_bindings(st_);
    }

    bool is_null(int col) const override { return sqlite3_column_type(st_, col) == SQLITE_NULL; }
    int64_t i64(int col) const override {
        check_type(col, "INTEGER");
        return sqlite3_column_int64(st_, col);
    }
    double dbl(int col) const override {
        check_type(col, "REAL");
        return sqlite3_column_double(st_, col);
    }
    std::string_view text(int col) const override {
        check_type(col, "TEXT");
        const unsigned char* p = sqlite3_column_text(st_, col);
        if (!p) return {};
        return {reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(st_, col))};
    }

private:
    // Checking builds (make asan defines FRONTIER_CHECK_COLUMN_TYPES): a
    // typed read of a table's column must be of the type the schema declares
    // for it (lib/store/schema_def.cpp, the one declaration the DDL comes
    // from), so every read the tests make is checked against it. Reads of
    // expressions, and of columns with no declared type, are not checked.
    void check_type([[maybe_unused]] int col, [[maybe_unused]] const char* want) const {
#ifdef FRONTIER_CHECK_COLUMN_TYPES
        const char* declared = sqlite3_column_decltype(st_, col);
        if (!declared || !*declared || strcasecmp(declared, want) == 0) return;
        std::fprintf(stderr, "column %s (%s) read as %s in: %s\n", sqlite3_column_name(st_, col), declared, want,
                     sqlite3_sql(st_));
        std::abort();
#endif
    }

    sqlite3* db_;
    sqlite3_stmt* st_ = nullptr;
};

class SqliteDb final : public Db {
public:
    SqliteDb(const std::string& path, bool create, bool readonly);
    ~SqliteDb() override {
        data_version_stmt_.reset();
        if (!db_) return;
        sqlite3* writer = hand_over_ ? (writer_ ? writer_ : writer_for_close()) : nullptr;
        sqlite3_close_v2(db_);
        if (writer) sqlite3_close_v2(writer);
    }
    // PASSIVE: copies the frames no reader still needs, without waiting for
    // readers or writers; the next writer then starts the log over.
    void checkpoint_log() override {
        if (!hand_over_) return;
        if (!writer_) writer_ = open_writer();
        if (writer_) sqlite3_wal_checkpoint_v2(writer_, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    }
    bool large_updates_in_chunks() const override { return true; }
    void set_page_cache_mib(int mib) override {
        exec("PRAGMA cache_size=-" + std::to_string(int64_t{cache_override_.value_or(mib)} * 1024));
    }
    void exec(std::string_view sql) override;
    Stmt prepare(std::string_view sql) override { return Stmt(std::make_unique<SqliteStmt>(db_, sql)); }
    int64_t changes() const override { return sqlite3_changes64(db_); }
    [[noreturn]] void fail(std::string_view what) const override { throw DbError(sqlite_error(db_, what)); }
    bool constraint_violation(const DbError&) const override {
        return (sqlite3_errcode(db_) & 0xff) == SQLITE_CONSTRAINT;
    }
    void begin_write() override { exec("BEGIN IMMEDIATE"); }
    void begin_read() override { exec("BEGIN"); }
    void commit() override { exec("COMMIT"); }
    void rollback() noexcept override { sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr); }
    int schema_version() override;
    void set_schema_version(int v) override { exec("PRAGMA user_version = " + std::to_string(v)); }
    int64_t data_version() override;
    std::string integrity_problems() override;

    // Dialect operations used by check/report/export/schema
    void begin_snapshot() override {}
    void end_snapshot() noexcept override {}
    void prepare_for_large_sorts() override {
        exec("PRAGMA temp_store=FILE");
        set_page_cache_mib(16);
    }
    void end_large_sorts() override {
        exec("PRAGMA temp_store=MEMORY");
        set_page_cache_mib(32);
    }
    std::optional<int64_t> id_sequence_last(std::string_view) override { return std::nullopt; }
    void advance_id_sequence(std::string_view) override {}
    std::string id_sequence_last_sql(std::string_view) const override { return {}; }
    std::string id_sequence_set_sql(std::string_view, std::string_view) const override { return {}; }
    Stmt prepare_insert_or_clash(std::string_view table, const std::vector<std::string_view>& columns,
                                 std::string_view replace_key) override {
        return prepare(insert_sql(replace_key.empty() ? "INSERT" : "INSERT OR REPLACE", table, columns));
    }
    bool insert_or_clash(Stmt& st, std::string& message) override;
    Stmt prepare_stream(std::string_view select) override { return prepare(select); }
    std::string value_type_sql(std::string_view column) const override {
        return "typeof(" + std::string(column) + ")";
    }
    std::string bytewise_order_sql(std::string_view column) const override { return std::string(column); }
    const Ddl& ddl() const override {
        static const Ddl d{"INTEGER",        "REAL", "", " INTEGER PRIMARY KEY", " INTEGER PRIMARY KEY",
                           " WITHOUT ROWID", "INSERT OR IGNORE"};
        return d;
    }
    const LeaseOrderStorage& lease_order() const override { return lease_order_in_tables(); }
    std::string whole_part_sql(std::string_view expr) const override {
        return "CAST(" + std::string(expr) + " AS INTEGER)";
    }

private:
    sqlite3* writer_for_close() const;
    sqlite3* open_writer() const;

    sqlite3* db_ = nullptr;
    std::string path_;
    bool hand_over_ = false;  // read-only, on a file this process could checkpoint
    sqlite3* writer_ = nullptr;  // opened by checkpoint_log, closed last
    std::optional<int> cache_override_;
    std::unique_ptr<Stmt> data_version_stmt_;
};

}  // namespace

namespace {

std::string dir_of(const std::string& path) {
    auto slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

bool on_read_only_fs(const std::string& dir) {
    struct statvfs st;
    return statvfs(dir.c_str(), &st) == 0 && (st.f_flag & ST_RDONLY) != 0;
}

// "file:PATH?QUERY" with the characters an SQLite URI reserves escaped.
std::string file_uri(const std::string& path, const char* query) {
    std::string u = "file:";
    for (char c : path) {
        if (c == '%' || c == '?' || c == '#') {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(c));
            u += buf;
        } else {
            u += c;
        }
    }
    return u + "?" + query;
}

}  // namespace

namespace {
// SQLite keeps allocation statistics behind a global mutex by default; the
// tools never read them, so they do not pay for that lock.
// Must run before the library initialises, so once, before the first open.
void configure_sqlite_once() {
    static const bool done = [] {
        sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
        return true;
    }();
    (void)done;
}
}  // namespace

SqliteDb::SqliteDb(const std::string& path, bool create, bool readonly)
    : path_(path), cache_override_(page_cache_override()) {
    if (!create && access(path.c_str(), F_OK) != 0)
        throw IoError("frontier file not found: " + path + " (create it with frontier-add or frontier-config)");
    const std::string dir = dir_of(path);
    if (!readonly) {
        // Said up front: SQLite would open an unwritable file read-only and
        // fail at the first write, or fail to create the -wal and -shm files.
        if (access(path.c_str(), F_OK) == 0 && access(path.c_str(), W_OK) != 0)
            throw IoError("cannot write the frontier file " + path + ": " + std::strerror(errno));
        if (access(dir.c_str(), W_OK) != 0)
            throw IoError("cannot write the frontier file " + path + ": its directory " + dir + " is not writable (" +
                          std::strerror(errno) + "); SQLite keeps " + path + "-wal and " + path + "-shm beside it");
    }
    // On a read-only file system no writer can exist and no -shm file can be
    // made: a file without a -wal is read as immutable.
    configure_sqlite_once();
    bool immutable = readonly && on_read_only_fs(dir) && access((path + "-wal").c_str(), F_OK) != 0;
    hand_over_ = readonly && !immutable && access(path.c_str(), W_OK) == 0 && access(dir.c_str(), W_OK) == 0;
    int flags = readonly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0));
    flags |= SQLITE_OPEN_NOMUTEX | (immutable ? SQLITE_OPEN_URI : 0);
    if (sqlite3_open_v2(immutable ? file_uri(path, "immutable=1").c_str() : path.c_str(), &db_, flags,
                        wal_vfs_name()) !=
        SQLITE_OK) {
        std::string msg = sqlite_error(db_, "cannot open frontier file " + path);
        sqlite3_close(db_);
        db_ = nullptr;
        throw IoError(msg);
    }
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_timeout(db_, 60000);
    try {
        if (!readonly) {
            // journal_mode needs a write lock the first time; busy_timeout covers it.
            Stmt wal = prepare("PRAGMA journal_mode=WAL");
            wal.step();
            if (wal.text(0) != "wal") fail("cannot switch the frontier file to WAL mode");
        }
        exec("PRAGMA synchronous=NORMAL");
        exec("PRAGMA foreign_keys=OFF");
        set_page_cache_mib(32);
        exec("PRAGMA temp_store=MEMORY");
        // Checkpoints copy the WAL back into the file (frontier(7), FILE
        // FORMAT). Doing that every 1 GiB of WAL (250,000 frames of 4 KiB)
        // instead of every 4 MiB writes a page changed by many transactions
        // (a queue row, an index page) back once instead of many times,
        // which matters once a large frontier's index pages outgrow the
        // page cache. Its wal-index (FILE-shm) grows to about 2 MiB. The
        // last connection to close still checkpoints, so the file alone is
        // complete whenever no tool runs. A transaction larger than that
        // still grows the WAL past it; once the WAL restarts it is cut back
        // to 64 MiB.
        if (!readonly) {
            exec("PRAGMA wal_autocheckpoint=250000");
            exec("PRAGMA journal_size_limit=67108864");
        }
    } catch (const DbError& e) {
        sqlite3_close_v2(db_);
        db_ = nullptr;
        if (readonly && access(dir.c_str(), W_OK) != 0)
            throw IoError("cannot read the frontier file " + path + ": SQLite needs " + path +
                          "-shm beside it, and its directory " + dir + " is not writable (" + e.what() + ")");
        throw;
    }
}

// A read-only connection cannot checkpoint, so when it is the last to
// close the WAL would stay beside the file (frontier(7), FILE FORMAT). A
// reader of a writable file with a WAL therefore opens a writing connection
// that has read the file, to be closed after it: that one checkpoints and
// removes the WAL when no other connection is left, and does nothing else.
sqlite3* SqliteDb::writer_for_close() const {
    struct stat st;
    if (::stat((path_ + "-wal").c_str(), &st) != 0 || st.st_size == 0) return nullptr;
    return open_writer();
}

sqlite3* SqliteDb::open_writer() const {
    sqlite3* w = nullptr;
    if (sqlite3_open_v2(path_.c_str(), &w, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, wal_vfs_name()) != SQLITE_OK ||
        sqlite3_exec(w, "PRAGMA user_version", nullptr, nullptr, nullptr) != SQLITE_OK) {
        sqlite3_close_v2(w);
        return nullptr;
    }
    return w;
}

void SqliteDb::exec(std::string_view sql) {
    std::string s(sql);
    char* err = nullptr;
    if (sqlite3_exec(db_, s.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        std::string msg = sqlite_error(db_, "database error");
        sqlite3_free(err);
        throw DbError(msg);
    }
}

int SqliteDb::schema_version() {
    Stmt st = prepare("PRAGMA user_version");
    st.step();
    return static_cast<int>(st.i64(0));
}

int64_t SqliteDb::data_version() {
    if (!data_version_stmt_) data_version_stmt_ = std::make_unique<Stmt>(prepare("PRAGMA data_version"));
    int64_t v = data_version_stmt_->step() ? data_version_stmt_->i64(0) : 0;
    data_version_stmt_->reset();
    return v;
}

std::string SqliteDb::integrity_problems() {
    std::string problems;
    Stmt st = prepare("PRAGMA integrity_check");
    while (st.step())
        if (st.text(0) != "ok") problems += st.str(0) + "\n";
    return problems;
}

// A clash is a constraint error, reset and reported; anything else (I/O,
// disk full) is thrown.
bool SqliteDb::insert_or_clash(Stmt& st, std::string& message) {
    try {
        st.exec();
    } catch (const DbError& e) {
        bool clash = constraint_violation(e);
        st.reset();
        if (!clash) throw;
        message = e.what();
        return false;
    }
    return true;
}

std::unique_ptr<Db> open_sqlite(const std::string& path, bool create, bool readonly) {
    return std::make_unique<SqliteDb>(path, create, readonly);
}

}  // namespace frontier
