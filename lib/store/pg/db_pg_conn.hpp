// Private to lib/store/pg/: the connection and statement state of the
// PostgreSQL backend, and the calls its parts share (db_pg_connect.cpp:
// connecting and reconnecting; db_pg.cpp: transactions and pipeline;
// db_pg_stmt.cpp: statements).
#pragma once

#include <libpq-fe.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace frontier {

struct PgConn {
    PGconn* conn = nullptr;
    bool readonly = false;
    int64_t generation = 0;     // reconnections so far: statements prepared before are prepared again
    bool in_tx = false;         // a transaction is open (a lost connection cannot be resumed)
    bool pipeline = false;      // in pipeline mode (a write transaction)
    std::vector<PgStmt*> sent;  // queued commands, in order; nullptr: result not wanted
    // With a command run behind (pg_stmt_exec_behind): the commands of
    // `sent` before it, which a Sync already follows.
    size_t ahead = 0;
    // Named prepares queued since the last Sync, by their place in `sent`
    // (one that fails or is skipped by an earlier error is prepared again).
    std::vector<std::pair<size_t, PgStmt*>> prepared;
    std::string url;
    int64_t next_stmt = 0;
    bool wrote = false;      // the open transaction changed something
    bool unnoticed = false;  // its commit sends no NOTIFY (pg_commit_unnoticed)
    bool listening = false;  // LISTEN issued (data_version)
    int64_t version = 0;     // notifications from other sessions seen
    bool closing = false;    // Db::closing: statements are not DEALLOCATEd one round trip each
    int schema_version = -1; // read at connect; the first Db::schema_version() takes it
    FILE* trace = nullptr;   // FRONTIER_PG_TRACE's file (closed after the connection)
};

struct PgStmt {
    PgConn* c = nullptr;
    std::string name;
    std::string text;          // the translated SQL, to prepare again after a reconnection
    std::vector<Oid> types;
    int64_t generation = -1;   // the connection's generation it is prepared in (-1: not yet)
    int64_t ran_in = -1;       // the generation it last ran unnamed in (run_unnamed)
    int nparams = 0;
    std::vector<std::string> values;
    std::vector<char> bound;
    std::vector<int> lengths, formats;  // of binary parameters (format 1; text: 0)
    PGresult* res = nullptr;
    int row = -1;
    bool queued = false;  // sent (pg_stmt_send), its result not yet read
    int nrows = 0;
};

namespace pgi {

inline constexpr Oid kBoolOid = 16;
inline constexpr Oid kTextOid = 25;

// DbError, or ConnectionLost when the connection is gone.
[[noreturn]] void fail(PgConn* c, std::string msg);
// fail with `what` and the connection's last error (PQerrorMessage).
[[noreturn]] void fail_conn(PgConn* c, const std::string& what = "database error: ");
[[noreturn]] void throw_result(PgConn* c, PGresult* r, std::string_view what);
// Pipeline mode: sends a Sync and hands the queued commands' results over.
void sync(PgConn* c, const PgStmt* want = nullptr);
// Notes that a command changed rows (the commit then NOTIFYs).
void note_write(PgConn* c, PGresult* r);
// True when the connection is gone.
bool connection_bad(PgConn* c);
// Between transactions only: connects again (db_pg_connect.cpp), or throws
// ConnectionLost once FRONTIER_PG_RECONNECT seconds have passed since
// `since` (when the connection was first found lost; `again`: lost again
// after a reconnection since then).
void reconnect(PgConn* c, const std::string& why, std::chrono::steady_clock::time_point since, bool again);

// Runs `f` (which starts a transaction or runs outside one); when it fails
// on a lost connection outside a transaction, reconnects and runs it again,
// as often as the connection is lost again before `f` is through (a server
// ending connections one after another), within one reconnect window.
template <class F>
void with_reconnect(PgConn* c, F&& f) {
    std::optional<std::chrono::steady_clock::time_point> since;
    for (;;) {
        try {
            f();
            return;
        } catch (const ConnectionLost& e) {
            if (c->in_tx) throw;
            const bool again = since.has_value();
            if (!again) since = std::chrono::steady_clock::now();
            reconnect(c, e.what(), *since, again);
        }
    }
}

}  // namespace pgi

}  // namespace frontier
