// Private to the storage module (lib/store/): the statements of one Store,
// prepared once and reused, keyed by their SQL literal, and the small reads
// and writes every part of the store makes through them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "store/db.hpp"

namespace frontier {

class Statements;

// Writes a backend holds back (a lease call's, lib/store/store_backend.hpp),
// written before any other statement runs (Statements::q).
class HeldWrites {
public:
    virtual ~HeldWrites() = default;
    // Held, and not being written now: a statement must wait for them.
    virtual bool due() const = 0;
    virtual void flush(Statements& st) = 0;
};

class Statements {
public:
    explicit Statements(Db& db) : db(db) {}
    Statements(const Statements&) = delete;
    Statements& operator=(const Statements&) = delete;

    Db& db;

    // Writes held by the backend (none: nothing is held).
    void hold(HeldWrites* held) { held_ = held; }

    // The statement of `sql`, reset; the held writes written first.
    Stmt& q(const char* sql) {
        if (held_ && held_->due()) held_->flush(*this);
        return q_unflushed(sql);
    }
    // q for a read whose rows no held write changes (hosts' seed
    // flags, a queue's heads after the last one taken): they stay held.
    Stmt& q_unflushed(const char* sql) {
        auto it = stmts_.find(sql);
        if (it == stmts_.end()) it = stmts_.emplace(sql, db.prepare(sql)).first;
        it->second.reset();
        return it->second;
    }
    // Resets every statement (results and queued runs of a transaction that ended).
    void reset_all() {
        for (auto& [sql, st] : stmts_) st.reset();
    }

    // A set-based UPDATE of URL rows bound to one time (?1), for any number
    // of rows. PostgreSQL runs `all` in one statement. SQLite (whose
    // large updates run in chunks, Db::large_updates_in_chunks) runs `chunk`
    // (the same UPDATE, OR FAIL, on at most ?2 = kUpdateChunk rows) until it
    // changes fewer: one UPDATE of every row would keep the original of
    // every page it touches in a statement journal, in memory (temp_store),
    // and its row ids in a list.
    static constexpr int64_t kUpdateChunk = 65536;
    void update_all(const char* all, const char* chunk, double t) {
        if (!db.large_updates_in_chunks()) {
            q(all).bind(1, t).exec();
            return;
        }
        do q(chunk).bind(1, t).bind(2, kUpdateChunk).exec();
        while (db.changes() >= kUpdateChunk);
    }
    // The id of the row `sql` ("SELECT id FROM t WHERE key = ?") finds for `key`.
    std::optional<int64_t> find_id(const char* sql, const std::string& key);
    // Increments and returns a meta sequence.
    int64_t meta_next(const char* key);

private:
    std::unordered_map<const char*, Stmt> stmts_;
    HeldWrites* held_ = nullptr;
};

}  // namespace frontier
