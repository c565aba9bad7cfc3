// The PostgreSQL backend of lib/store/db.hpp, over libpq. Statements are prepared
// once per connection (named, parameter types inferred by the server from
// the SQL), run with text parameters and text results, and their rows are
// buffered, so a statement may stay open while others run (as the store's
// SQLite code expects). Writers serialise on one advisory transaction lock;
// a changing commit sends NOTIFY, which data_version() counts (LISTEN).
//
// Inside a write transaction the connection is in libpq's pipeline mode:
// statements run for their effect (Stmt::exec) are sent without waiting,
// and their results are collected in the same round trip as the next
// statement whose rows are read (or the commit), so the many small UPDATEs
// of a lease or a result cost no round trip each. The first error aborts
// the rest of the pipeline and is thrown there; the transaction is lost
// either way, as on any error.
#include "store/pg/db_pg.hpp"
#include "store/pg/db_pg_conn.hpp"
#include "store/pg/pg_text.hpp"

#include <libpq-fe.h>
#include <poll.h>

#include <algorithm>
#include <memory>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "store/db.hpp"
#include "core/error.hpp"
#include "core/ondemand.hpp"
#include "core/output.hpp"

namespace frontier {

namespace {

// The advisory lock every frontier writer takes ("frontier" in ASCII, as a
// number): writers of one database run one at a time, like SQLite's
// BEGIN IMMEDIATE.
constexpr const char* kBeginWrite = "BEGIN; SELECT pg_advisory_xact_lock(7310012176585550194)";
constexpr const char* kWriteLock = "SELECT pg_advisory_xact_lock(7310012176585550194)";
// Taken shared by the writers that lock the partitions they write
// (Db::begin_write_shared): they run beside each other, and the others run
// alone. The partitions this transaction holds, and the ready queues a
// lease found in them, start empty.
constexpr const char* kSharedLock =
    "SELECT pg_advisory_xact_lock_shared(7310012176585550194), set_config('frontier.parts', '{}', true), "
    "set_config('frontier.ready', '{}', true)";
constexpr const char* kChannel = "frontier_changed";

}  // namespace

bool is_postgres_url(std::string_view path) {
    return path.starts_with("postgresql://") || path.starts_with("postgres://");
}

std::string frontier_display_name(std::string_view path) {
    if (!is_postgres_url(path)) return std::string(path);
    size_t start = path.find("://") + 3;
    size_t end = path.find_first_of("/?", start);
    std::string_view auth =
        path.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    size_t at = auth.rfind('@');
    if (at == std::string_view::npos) return std::string(path);
    size_t colon = auth.find(':');
    if (colon == std::string_view::npos || colon > at) return std::string(path);
    return std::string(path.substr(0, start + colon)) + std::string(path.substr(start + at));
}

namespace pgi {

bool connection_bad(PgConn* c) { return !c->conn || pq_api().PQstatus(c->conn) != CONNECTION_OK; }

// DbError, or ConnectionLost when the connection is gone (the server
// restarted or went away, the network failed).
[[noreturn]] void fail(PgConn* c, std::string msg) {
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    if (connection_bad(c))
        throw ConnectionLost("lost the connection to the frontier database " + frontier_display_name(c->url) +
                             (c->in_tx
                                  ? " in a transaction: nothing of it was kept, and nothing not yet printed "
                                    "was acknowledged"
                                  : "") +
                             " (" + msg + ")");
    throw DbError(msg);
}

void fail_conn(PgConn* c, const std::string& what) { fail(c, what + pq_api().PQerrorMessage(c->conn)); }

[[noreturn]] void throw_result(PgConn* c, PGresult* r, std::string_view what) {
    std::string msg = r ? pq_api().PQresultErrorMessage(r) : "";
    if (msg.empty()) msg = pq_api().PQerrorMessage(c->conn);
    if (r) pq_api().PQclear(r);
    fail(c, std::string(what) + msg);
}

void leave_pipeline(PgConn* c);

// Runs SQL without parameters (leaving pipeline mode first); returns the
// last result (caller clears).
PGresult* run(PgConn* c, const char* sql) {
    leave_pipeline(c);
    PGresult* r = pq_api().PQexec(c->conn, sql);
    ExecStatusType st = r ? pq_api().PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) throw_result(c, r, "database error: ");
    return r;
}

void run_void(PgConn* c, const char* sql) { pq_api().PQclear(run(c, sql)); }

void note_write(PgConn* c, PGresult* r) {
    const char* tag = pq_api().PQcmdStatus(r);
    if (!std::strncmp(tag, "INSERT", 6) || !std::strncmp(tag, "UPDATE", 6) ||
        !std::strncmp(tag, "DELETE", 6)) {
        const char* n = pq_api().PQcmdTuples(r);
        if (n[0] && std::strcmp(n, "0") != 0) c->wrote = true;
    }
}

// A named prepare queued as command `at` that failed (or was skipped after
// an error): prepared again at its next use.
void unprepare(PgConn* c, size_t at) {
    for (auto& [i, s] : c->prepared)
        if (i == at) s->generation = -1;
}

namespace {

// Reads the results of the first `n` queued commands, up to the Sync that
// follows them, handing the wanted ones to their statements; the first
// error in `error`.
void read_to_sync(PgConn* c, size_t n, std::string& error) {
    size_t at = 0;
    bool got = false;
    int nulls = 0;
    for (;;) {
        PGresult* r = pq_api().PQgetResult(c->conn);
        if (!r) {
            if (got) {
                ++at;
                got = false;
                nulls = 0;
            } else if (++nulls > 2 || pq_api().PQstatus(c->conn) != CONNECTION_OK) {
                c->sent.clear();
                c->prepared.clear();
                c->ahead = 0;
                fail_conn(c, "database error: lost the pipeline: ");
            }
            continue;
        }
        ExecStatusType st = pq_api().PQresultStatus(r);
        if (st == PGRES_PIPELINE_SYNC) {
            pq_api().PQclear(r);
            break;
        }
        PgStmt* want = at < n ? c->sent[at] : nullptr;
        if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) unprepare(c, at);
        if (st == PGRES_FATAL_ERROR || st == PGRES_NONFATAL_ERROR || st == PGRES_BAD_RESPONSE) {
            if (error.empty()) {
                error = pq_api().PQresultErrorMessage(r);
                while (!error.empty() && (error.back() == '\n' || error.back() == ' ')) error.pop_back();
            }
            pq_api().PQclear(r);
        } else if (st == PGRES_PIPELINE_ABORTED) {
            pq_api().PQclear(r);
        } else {
            note_write(c, r);
            if (want && !got) {
                if (want->res) pq_api().PQclear(want->res);
                want->res = r;
                want->nrows = pq_api().PQntuples(r);
                want->row = -1;
            } else {
                pq_api().PQclear(r);
            }
        }
        got = true;
    }
}

}  // namespace

// Pipeline mode: sends a Sync and reads the results of every queued
// command, handing the wanted ones to their statements; throws the first
// error once the pipeline is drained. With a command run behind
// (pg_stmt_exec_behind), the results of those ahead of it are read first;
// when they hold `want`'s rows, the ones behind are left to a later sync,
// so the server goes on with them while the caller works.
void sync(PgConn* c, const PgStmt* want) {
    std::string error;
    if (c->ahead) {
        const size_t n = std::exchange(c->ahead, 0);
        read_to_sync(c, n, error);
        c->sent.erase(c->sent.begin(), c->sent.begin() + static_cast<std::ptrdiff_t>(n));
        std::erase_if(c->prepared, [n](const auto& p) { return p.first < n; });
        for (auto& p : c->prepared) p.first -= n;
        // An error aborted the transaction: the commands behind fail too,
        // and are read by the rollback's sync.
        if (!error.empty()) fail(c, "database error: " + error);
        if (want && want->res) return;
    }
    if (pq_api().PQpipelineSync(c->conn) != 1)
        fail_conn(c);
    read_to_sync(c, c->sent.size(), error);
    c->sent.clear();
    c->prepared.clear();
    if (!error.empty()) fail(c, "database error: " + error);
}

// Ends pipeline mode (results read first), for the synchronous calls.
void leave_pipeline(PgConn* c) {
    if (!c->pipeline) return;
    c->pipeline = false;
    std::string error;
    try {
        sync(c);
    } catch (const ConnectionLost&) {
        throw;  // already says so; the connection is gone with its pipeline
    } catch (const DbError& e) {
        error = e.what();
    }
    pq_api().PQexitPipelineMode(c->conn);
    if (!error.empty()) fail(c, error);
}

}  // namespace pgi

using namespace pgi;

// ------------------------------------------------------------ connection
// (connecting and reconnecting: db_pg_connect.cpp)

std::string pg_error(PgConn* c) { return pq_api().PQerrorMessage(c->conn); }

void pg_exec(PgConn* c, std::string_view sql) {
    std::vector<bool> used;
    std::string text = pg_translate(sql, used);
    with_reconnect(c, [&] { run_void(c, text.c_str()); });
    c->wrote = true;
}

namespace {

// Queues a command without parameters in the pipeline (its result unwanted).
void send_plain(PgConn* c, const char* sql) {
    if (pq_api().PQsendQueryParams(c->conn, sql, 0, nullptr, nullptr, nullptr, nullptr, 0) != 1)
        fail_conn(c);
    c->sent.push_back(nullptr);
}

// Between transactions: what the server sent while the connection was idle
// is read without waiting (notifications; a closed connection when the
// server went away), so a lost connection is found, and reconnected, before
// a transaction starts.
void check_idle_connection(PgConn* c) {
    int fd = pq_api().PQsocket(c->conn);
    for (int i = 0; fd >= 0 && i < 4; ++i) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 0) <= 0) break;
        if (!pq_api().PQconsumeInput(c->conn)) break;
    }
    if (connection_bad(c)) fail_conn(c);
}

}  // namespace

// A write transaction's BEGIN and lock are only queued in its pipeline:
// they go with its first statement that reads rows (or its commit), so they
// cost no round trip of their own, and the lock is held from that round
// trip on. A lock timeout is thrown there.
void pg_begin(PgConn* c, bool write, bool shared) {
    if (write) {
        with_reconnect(c, [&] { check_idle_connection(c); });
        if (pq_api().PQenterPipelineMode(c->conn) == 1) {
            c->pipeline = true;
            c->in_tx = true;
            c->wrote = false;
            c->unnoticed = false;
            send_plain(c, "BEGIN");
            send_plain(c, shared ? kSharedLock : kWriteLock);
            return;
        }
    }
    with_reconnect(c, [&] {
        if (write && shared) {
            run_void(c, "BEGIN");
            run_void(c, kSharedLock);
        } else {
            run_void(c, write ? kBeginWrite : "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
        }
    });
    c->in_tx = true;
    c->wrote = false;
    c->unnoticed = false;
}

void pg_commit_unnoticed(PgConn* c) { c->unnoticed = true; }

bool pg_wait_for_notification(PgConn* c, double seconds) {
    int64_t before = c->version;
    if (pg_data_version(c) != before) return true;
    int fd = pq_api().PQsocket(c->conn);
    if (fd < 0) return false;
    pollfd p{fd, POLLIN, 0};
    int ms = static_cast<int>(seconds * 1000 + 0.5);
    if (::poll(&p, 1, ms < 1 ? 1 : ms) <= 0) return false;  // timeout, or a signal (EINTR)
    return pg_data_version(c) != before;
}

void pg_commit(PgConn* c) {
    // Listeners (Db::data_version) learn of every commit that changed rows.
    // In a write transaction's pipeline the NOTIFY and the COMMIT go with
    // the statements still queued, in one round trip: when no result read
    // so far showed a change, the server notifies only if the transaction
    // wrote (it has a transaction id then; a write always assigns one).
    if (c->pipeline) {
        if (c->unnoticed) {
        } else if (c->wrote) {
            send_plain(c, "NOTIFY frontier_changed");
        } else if (!c->sent.empty()) {
            send_plain(c, "SELECT pg_notify('frontier_changed', '') WHERE txid_current_if_assigned() IS NOT NULL");
        }
        send_plain(c, "COMMIT");
        leave_pipeline(c);  // their results read, pipeline mode ended
    } else {
        run_void(c, c->wrote && !c->unnoticed ? "NOTIFY frontier_changed; COMMIT" : "COMMIT");
    }
    c->wrote = false;
    c->unnoticed = false;
    c->in_tx = false;
}

void pg_rollback(PgConn* c) noexcept {
    try {
        leave_pipeline(c);
    } catch (...) {
    }
    PGresult* r = pq_api().PQexec(c->conn, "ROLLBACK");
    if (r) pq_api().PQclear(r);
    c->wrote = false;
    c->in_tx = false;
}

int pg_schema_version(PgConn* c) {
    PGresult* r = run(c, "SELECT to_regclass('meta') IS NOT NULL");
    bool has_meta = pq_api().PQntuples(r) == 1 && pq_api().PQgetvalue(r, 0, 0)[0] == 't';
    pq_api().PQclear(r);
    if (!has_meta) return 0;
    r = run(c, "SELECT value FROM meta WHERE key = 'schema_version'");
    int v = pq_api().PQntuples(r) == 1 && !pq_api().PQgetisnull(r, 0, 0) ? std::atoi(pq_api().PQgetvalue(r, 0, 0)) : 0;
    pq_api().PQclear(r);
    return v;
}

void pg_set_schema_version(PgConn* c, int v) {
    std::string sql = "INSERT INTO meta(key, value) VALUES ('schema_version', " + std::to_string(v) +
                      ") ON CONFLICT (key) DO UPDATE SET value = excluded.value";
    pg_exec(c, sql);
}

int64_t pg_data_version(PgConn* c) {
    with_reconnect(c, [&] {
        if (!c->listening) {
            run_void(c, (std::string("LISTEN ") + kChannel).c_str());
            c->listening = true;
        }
        if (!pq_api().PQconsumeInput(c->conn)) fail_conn(c);
    });
    const int self = pq_api().PQbackendPID(c->conn);
    while (PGnotify* n = pq_api().PQnotifies(c->conn)) {
        if (n->be_pid != self) ++c->version;
        pq_api().PQfreemem(n);
    }
    return c->version;
}

}  // namespace frontier
