// Writers of one SQLite frontier take the write lock in turn
// (lib/store/sqlite/writer_turns.hpp): a writer that waits is seen by the
// one that holds the lock, and gets the lock before that one's next
// transaction, however soon it begins.
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "store/db.hpp"
#include "temp_dir.hpp"

using namespace frontier;

namespace {

int64_t scalar(Db& db, const char* sql) {
    Stmt st = db.prepare(sql);
    REQUIRE(st.step());
    return st.i64(0);
}

bool waits_within(Db& db, double seconds) {
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
        if (db.writer_waiting()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
}

}  // namespace

TEST_CASE("a waiting writer is seen, and writes before the holder writes again", "[store][turns]") {
    TempDir dir;
    const std::string path = dir.path + "/f.db";
    std::unique_ptr<Db> a = Db::open(path, true);
    a->exec("CREATE TABLE t(who TEXT, seq INTEGER)");
    std::unique_ptr<Db> b = Db::open(path, false);
    CHECK_FALSE(a->writer_waiting());

    a->begin_write();
    a->exec("INSERT INTO t VALUES ('a', 1)");
    CHECK_FALSE(a->writer_waiting());
    std::thread other([&] {
        b->begin_write();
        b->exec("INSERT INTO t VALUES ('b', (SELECT max(seq) + 1 FROM t))");
        // Long enough that the holder, beginning again at once, would win
        // the lock back from a busy handler's back-off.
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        b->commit();
    });
    const bool seen = waits_within(*a, 10);
    a->commit();
    a->begin_write();  // at once: after b's transaction, not before it
    a->exec("INSERT INTO t VALUES ('a', (SELECT max(seq) + 1 FROM t))");
    a->commit();
    other.join();
    CHECK(seen);
    CHECK(scalar(*a, "SELECT seq FROM t WHERE who = 'b'") == 2);
    CHECK(scalar(*a, "SELECT max(seq) FROM t WHERE who = 'a'") == 3);
    CHECK_FALSE(a->writer_waiting());
}

TEST_CASE("a rolled-back or failed transaction gives the turn up", "[store][turns]") {
    TempDir dir;
    const std::string path = dir.path + "/f.db";
    std::unique_ptr<Db> a = Db::open(path, true);
    a->exec("CREATE TABLE t(x INTEGER)");
    std::unique_ptr<Db> b = Db::open(path, false);
    a->begin_write();
    a->exec("INSERT INTO t VALUES (1)");
    a->rollback();
    b->begin_write();  // not kept waiting by a's turn
    b->exec("INSERT INTO t VALUES (2)");
    b->commit();
    CHECK(scalar(*a, "SELECT count(*) FROM t") == 1);
}
