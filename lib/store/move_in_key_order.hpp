// Private to the storage module (lib/store/): the move of a buffer table
// into its main table in key order, in transactions of its own.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "store/db.hpp"

namespace frontier {

// Rows a move writes per transaction of its own, at most and at least
// (fewer when FRONTIER_FP_BUFFER is smaller; Store::Impl::move_buffers).
constexpr int64_t kMoveChunk = 65536, kMinMoveChunk = 4096;

// Where the last move of a buffer stopped: the key of the last row it moved
// (empty: at the table's start). Each move goes on from there, wrapping at
// the end, so a pass through the buffer writes each page of the main table
// once, with the rows that came in since the last pass; moves that always
// began at the lowest keys rewrote that end of the main table after each
// commit, with a few rows each time. Kept per process: a hint, not state.
struct MoveCursor {
    std::vector<std::variant<int64_t, double>> key;
};

// Moves the rows of a buffer table (url_fps_new, url_next_new) to its main
// table in `key` order, from the cursor `from` on, `chunk` rows per
// transaction of its own, until it is empty or `limit` rows were moved:
// each transaction writes the pages of one slice of the main table once,
// where adding the rows one by one wrote a random page each, and holds the
// write lock for that slice only (frontier(7), FILE FORMAT).
// `move(where, bound, more)` runs a chunk's statements: `where` selects the
// chunk (" WHERE (key) > (?1, ...) AND (key) <= (?k+1, ...)", either bound
// left out where the chunk starts at the table's start or runs to its end;
// empty for all that is left), `bound(st)` binds its bounds to `st` (types:
// 'i' an integer column of the key, 'd' a real one); `more`: rows may be
// left after this chunk. True when the table was emptied (a chunk of all
// that was left moved), false when `limit` ran out first.
template <class Move>
bool move_in_key_order(Db& db, const std::string& table, const std::string& key, std::string_view types,
                       int64_t chunk, int64_t limit, MoveCursor& from, Move&& move) {
    const int k = static_cast<int>(types.size());
    // "(key) op (?first, ...)"
    auto compare = [&](const char* op, int first) {
        std::string t = "(" + key + ") " + op + " ";
        for (int i = 0; i < k; ++i) t += (i ? ", ?" : "(?") + std::to_string(first + i);
        return t + ")";
    };
    for (int64_t left = limit; left > 0;) {
        Transaction tx(db);
        const bool after = !from.key.empty();
        auto bind_from = [&](Stmt& st) {
            for (int i = 0; after && i < k; ++i)
                std::visit([&](auto v) { st.bind(i + 1, v); }, from.key[static_cast<size_t>(i)]);
        };
        const std::string above = after ? " WHERE " + compare(">", 1) : "";
        Stmt last = db.prepare("SELECT " + key + " FROM " + table + above + " ORDER BY " + key + " LIMIT 1 OFFSET ?" +
                               std::to_string(after ? k + 1 : 1));
        bind_from(last);
        last.bind(after ? k + 1 : 1, chunk - 1);
        const bool bounded = last.step();
        std::string where = above;
        const int first_upper = after ? k + 1 : 1;
        if (bounded) where += (after ? " AND " : " WHERE ") + compare("<=", first_upper);
        MoveCursor next;
        for (int i = 0; bounded && i < k; ++i) {
            if (types[static_cast<size_t>(i)] == 'd')
                next.key.emplace_back(last.dbl(i));
            else
                next.key.emplace_back(last.i64(i));
        }
        auto bound = [&](Stmt st) {
            bind_from(st);
            for (int i = 0; bounded && i < k; ++i)
                std::visit([&](auto v) { st.bind(first_upper + i, v); }, next.key[static_cast<size_t>(i)]);
            return st;
        };
        const bool all = !after && !bounded;
        move(where, bound, !all);
        last.reset();
        tx.commit();
        from = std::move(next);  // past the end: the next chunk starts at the table's start
        if (all) return true;
        if (bounded) left -= chunk;  // the rest up to the end, fewer than a chunk, is not counted
    }
    return false;
}

}  // namespace frontier
