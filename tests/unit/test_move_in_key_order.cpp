// The move of a buffer table into its main table (lib/store/move_in_key_order.hpp):
// every row moves exactly once, each move goes on from where the last one
// stopped and wraps at the table's end, and rows that arrive below the
// cursor meanwhile move in the next pass.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "store/db.hpp"
#include "store/move_in_key_order.hpp"
#include "temp_dir.hpp"

using namespace frontier;

namespace {

// A buffer and a main table keyed by (integer, real), as url_next's key mixes both.
struct Tables {
    TempDir dir;
    std::unique_ptr<Db> db = Db::open(dir.path + "/f.db", true);
    Tables() {
        db->exec("CREATE TABLE buf(a INTEGER NOT NULL, b REAL NOT NULL, PRIMARY KEY(a, b)) WITHOUT ROWID");
        db->exec("CREATE TABLE main(a INTEGER NOT NULL, b REAL NOT NULL, PRIMARY KEY(a, b)) WITHOUT ROWID");
    }
    // Two rows for each a in [from, to): (a, 0) and (a, 0.5).
    void add(int from, int to) {
        for (int a = from; a < to; ++a)
            for (double b : {0.0, 0.5}) db->prepare("INSERT INTO buf VALUES (?, ?)").bind(1, int64_t{a}).bind(2, b).exec();
    }
    int64_t scalar(const std::string& sql) {
        Stmt st = db->prepare(sql);
        REQUIRE(st.step());
        return st.i64(0);
    }
    // One move of at most `limit` rows, `chunk` a transaction; the chunks' first keys seen.
    bool move(MoveCursor& from, int64_t chunk, int64_t limit, std::vector<int64_t>* firsts = nullptr) {
        return move_in_key_order(*db, "buf", "a, b", "id", chunk, limit, from,
                                 [&](const std::string& where, auto& bound, bool) {
                                     if (firsts) {
                                         Stmt st = bound(db->prepare("SELECT min(a) FROM buf" + where));
                                         if (st.step()) firsts->push_back(st.i64(0));
                                     }
                                     bound(db->prepare("INSERT INTO main SELECT * FROM buf" + where + " ORDER BY a, b"))
                                         .exec();
                                     bound(db->prepare("DELETE FROM buf" + where)).exec();
                                 });
    }
};

}  // namespace

TEST_CASE("a move goes on from where the last one stopped, then wraps", "[move]") {
    Tables t;
    t.add(0, 50);  // keys (0, 0) .. (49, 0.5)
    MoveCursor from;
    std::vector<int64_t> firsts;
    CHECK_FALSE(t.move(from, 10, 10, &firsts));  // (0, 0) .. (4, 0.5)
    CHECK(t.scalar("SELECT count(*) FROM main") == 10);
    CHECK(t.scalar("SELECT max(a) FROM main") == 4);
    REQUIRE(from.key.size() == 2);
    CHECK(std::get<int64_t>(from.key[0]) == 4);
    CHECK(std::get<double>(from.key[1]) == 0.5);

    // Rows below the cursor arrive meanwhile: the next move still goes on
    // above it (it does not begin again at the lowest keys).
    t.db->exec("INSERT INTO buf VALUES (-1, 0), (-2, 0.5)");
    CHECK_FALSE(t.move(from, 10, 10, &firsts));
    CHECK(firsts.back() == 5);
    CHECK(t.scalar("SELECT count(*) FROM main WHERE a < 0") == 0);

    // Further up, then to the end and from the start: the rows that came
    // in below move in the next pass, nothing twice.
    CHECK_FALSE(t.move(from, 10, 40));
    CHECK(t.scalar("SELECT count(*) FROM main") == 60);
    CHECK(t.scalar("SELECT count(*) FROM main WHERE a < 0") == 0);
    CHECK(t.move(from, 10, 1000));  // the rest: 40 above, then the two below
    CHECK(t.scalar("SELECT count(*) FROM buf") == 0);
    CHECK(t.scalar("SELECT count(*) FROM main") == 102);
    CHECK(t.scalar("SELECT count(*) FROM main WHERE a < 0") == 2);
    CHECK(from.key.empty());
}

TEST_CASE("a move of all that is left empties the buffer and says so", "[move]") {
    Tables t;
    t.add(0, 4);
    MoveCursor from;
    CHECK(t.move(from, 10, 10));
    CHECK(t.scalar("SELECT count(*) FROM buf") == 0);
    CHECK(t.scalar("SELECT count(*) FROM main") == 8);
    CHECK(from.key.empty());
    // An empty buffer: nothing to move, and done.
    CHECK(t.move(from, 10, 10));
}

TEST_CASE("the rest above the cursor is not counted against the limit", "[move]") {
    Tables t;
    t.add(0, 13);  // 26 rows
    MoveCursor from;
    CHECK_FALSE(t.move(from, 10, 20));  // 20 moved: 6 left above the cursor
    t.add(-20, -10);  // 20 rows below the cursor
    // The 6 above (fewer than a chunk: the end), then a whole chunk from the
    // start: the limit of 10 counts only the latter.
    CHECK_FALSE(t.move(from, 10, 10));
    CHECK(t.scalar("SELECT count(*) FROM main") == 20 + 6 + 10);
    CHECK(t.scalar("SELECT count(*) FROM buf") == 10);
    CHECK(t.scalar("SELECT min(a) FROM buf") == -15);
    // The rest, from the cursor on: empty when it ends.
    CHECK(t.move(from, 10, 100));
    CHECK(t.scalar("SELECT count(*) FROM main") == 46);
}
