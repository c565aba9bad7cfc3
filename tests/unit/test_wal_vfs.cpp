// The WAL-coalescing VFS (lib/store/sqlite/wal_vfs.hpp): whatever it holds back, a
// committed transaction is in the files when the commit returns, another
// connection (on the plain unix VFS) sees exactly the committed state, and
// a writer killed mid-transaction loses only that transaction.
#include <catch2/catch.hpp>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "store/db.hpp"
#include "temp_dir.hpp"
#include "store/sqlite/wal_vfs.hpp"

using namespace frontier;

namespace {

sqlite3* open(const std::string& path, const char* vfs) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, vfs) == SQLITE_OK);
    sqlite3_busy_timeout(db, 10000);
    return db;
}

void exec(sqlite3* db, const std::string& sql) {
    char* err = nullptr;
    int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
    INFO(sql << ": " << (err ? err : ""));
    sqlite3_free(err);
    REQUIRE(rc == SQLITE_OK);
}

int64_t scalar(sqlite3* db, const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(st) == SQLITE_ROW);
    int64_t v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

std::string text(sqlite3* db, const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(st) == SQLITE_ROW);
    std::string v = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return v;
}

// A transaction that spills: random index keys over a tiny page cache, so
// frames are written, read back and rewritten in place before the commit.
void insert_batch(sqlite3* db, int first, int n) {
    exec(db, "BEGIN IMMEDIATE");
    exec(db, "WITH RECURSIVE c(i) AS (SELECT " + std::to_string(first) + " UNION ALL SELECT i + 1 FROM c WHERE i < " +
                 std::to_string(first + n - 1) +
                 ") INSERT INTO t(id, k, v) SELECT i, (i * 7919) % 100003, printf('%0200d', i) FROM c");
    exec(db, "UPDATE t SET v = 'x' || v WHERE id BETWEEN " + std::to_string(first) + " AND " +
                 std::to_string(first + n / 10));
    exec(db, "COMMIT");
}

}  // namespace

TEST_CASE("wal vfs: the tools' connections use it", "[wal_vfs]") {
    TempDir d;
    std::string path = d.path + "/f.db";
    { Db::open(path, true)->exec("CREATE TABLE t(x)"); }
    sqlite3* db = open(path, wal_vfs_name());
    char* name = nullptr;
    REQUIRE(sqlite3_file_control(db, "main", SQLITE_FCNTL_VFSNAME, &name) == SQLITE_OK);
    REQUIRE(name != nullptr);
    CHECK(std::string(name).rfind("frontier-wal/", 0) == 0);
    sqlite3_free(name);
    sqlite3_close(db);
}

TEST_CASE("wal vfs: another connection sees every commit while the writer stays open", "[wal_vfs]") {
    TempDir d;
    std::string path = d.path + "/f.db";
    sqlite3* w = open(path, wal_vfs_name());
    exec(w, "PRAGMA journal_mode=WAL");
    exec(w, "PRAGMA synchronous=NORMAL");
    exec(w, "PRAGMA cache_size=20");
    exec(w, "PRAGMA wal_autocheckpoint=0");
    exec(w, "CREATE TABLE t(id INTEGER PRIMARY KEY, k INTEGER, v TEXT)");
    exec(w, "CREATE INDEX t_k ON t(k)");
    sqlite3* r = open(path, nullptr);  // the plain unix VFS
    int rows = 0;
    for (int round = 0; round < 6; ++round) {
        insert_batch(w, rows + 1, 3000);
        rows += 3000;
        // A commit of one small frame too (the commit frame alone in the buffer).
        exec(w, "UPDATE t SET k = -1 WHERE id = " + std::to_string(rows));
        CHECK(scalar(r, "SELECT count(*) FROM t") == rows);
        CHECK(scalar(r, "SELECT count(*) FROM t WHERE k = -1") == round + 1);
        CHECK(scalar(r, "SELECT count(*) FROM t WHERE v LIKE 'x%'") == (round + 1) * 301);
        CHECK(text(r, "PRAGMA integrity_check") == "ok");
        // The log restarts from its start after a full checkpoint: writes
        // go back to offset 0 of the same -wal.
        if (round == 2) exec(w, "PRAGMA wal_checkpoint(RESTART)");
    }
    sqlite3_close(r);
    sqlite3_close(w);
    sqlite3* again = open(path, nullptr);
    CHECK(scalar(again, "SELECT count(*) FROM t") == rows);
    CHECK(text(again, "PRAGMA integrity_check") == "ok");
    sqlite3_close(again);
}

TEST_CASE("wal vfs: a writer killed mid-transaction loses only that transaction", "[wal_vfs]") {
    TempDir d;
    std::string path = d.path + "/f.db";
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        sqlite3* w = nullptr;
        if (sqlite3_open_v2(path.c_str(), &w, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, wal_vfs_name()) != SQLITE_OK)
            _exit(2);
        const char* setup =
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=20;"
            "CREATE TABLE t(id INTEGER PRIMARY KEY, k INTEGER, v TEXT); CREATE INDEX t_k ON t(k);"
            "BEGIN; WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 1000) "
            "INSERT INTO t SELECT i, (i * 7919) % 100003, printf('%0200d', i) FROM c; COMMIT;"
            "BEGIN; WITH RECURSIVE c(i) AS (SELECT 1001 UNION ALL SELECT i + 1 FROM c WHERE i < 30000) "
            "INSERT INTO t SELECT i, (i * 7919) % 100003, printf('%0200d', i) FROM c;";
        if (sqlite3_exec(w, setup, nullptr, nullptr, nullptr) != SQLITE_OK) _exit(3);
        _exit(0);  // killed: no COMMIT, no close, buffered frames dropped
    }
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    sqlite3* r = open(path, nullptr);
    CHECK(scalar(r, "SELECT count(*) FROM t") == 1000);
    CHECK(text(r, "PRAGMA integrity_check") == "ok");
    sqlite3_close(r);
}
