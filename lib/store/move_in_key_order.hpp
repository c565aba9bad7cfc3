// Private to the storage module (lib/store/): the move of a buffer table
// into its main table in key order, in transactions of its own.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "store/db.hpp"

namespace frontier {

// Rows a move writes per transaction of its own, at most and at least
// (fewer when FRONTIER_FP_BUFFER is smaller; Store::Impl::move_buffers).
constexpr int64_t kMoveChunk = 65536, kMinMoveChunk = 4096;

// Moves the rows of a buffer table (url_fps_new, url_next_new) to its main
// table in `key` order, `chunk` rows per transaction of its own, until it
// is empty or `limit` rows were moved: each transaction writes the pages of
// one slice of the main table once, where adding the rows one by one wrote
// a random page each, and holds the write lock for that slice only
// (frontier(7), FILE FORMAT). `move(where, bound, more)` runs a chunk's
// statements: `where` selects the chunk (" WHERE (key) <= (?1, ...)", or
// empty for the last: all that is left), `bound(st)` binds its last key to
// `st` (types: 'i' an integer column of the key, 'd' a real one); `more`:
// this is not the last chunk. True when the table was emptied (its last
// chunk moved), false when `limit` ran out first.
template <class Move>
bool move_in_key_order(Db& db, const std::string& table, const std::string& key, std::string_view types,
                       int64_t chunk, int64_t limit, Move&& move) {
    for (int64_t left = limit; left > 0; left -= chunk) {
        Transaction tx(db);
        Stmt last = db.prepare("SELECT " + key + " FROM " + table + " ORDER BY " + key + " LIMIT 1 OFFSET ?");
        last.bind(1, chunk - 1);
        const bool more = last.step();
        std::string where;
        for (size_t i = 0; more && i < types.size(); ++i)
            where += (i ? ", ?" : " WHERE (" + key + ") <= (?") + std::to_string(i + 1);
        if (more) where += ")";
        auto bound = [&](Stmt st) {
            for (size_t i = 0; more && i < types.size(); ++i) {
                const int col = static_cast<int>(i);
                if (types[i] == 'd')
                    st.bind(col + 1, last.dbl(col));
                else
                    st.bind(col + 1, last.i64(col));
            }
            return st;
        };
        move(where, bound, more);
        last.reset();
        tx.commit();
        if (!more) return true;
    }
    return false;
}

}  // namespace frontier
