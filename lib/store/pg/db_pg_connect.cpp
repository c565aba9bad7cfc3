// The PostgreSQL backend's connection (lib/store/pg/db_pg.hpp): connecting,
// the session settings, and connecting again when the connection is lost
// between transactions (frontier(7), POSTGRESQL).
#include <fcntl.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ondemand.hpp"
#include "core/output.hpp"
#include "core/signals.hpp"
#include "store/db.hpp"
#include "store/pg/db_pg.hpp"
#include "store/pg/db_pg_conn.hpp"

namespace frontier {

using namespace pgi;

namespace {

void ignore_notice(void*, const char*) {}

// Pipeline mode, outside a transaction: each of `sqls` (no parameters) is
// sent with a Sync of its own, all in one round trip; returns each one's
// result (caller clears), an error only failing its own statement.
std::vector<PGresult*> run_each(PgConn* c, const std::vector<const char*>& sqls) {
    std::vector<PGresult*> out;
    if (pq_api().PQenterPipelineMode(c->conn) != 1) {
        for (const char* sql : sqls) out.push_back(pq_api().PQexec(c->conn, sql));
        return out;
    }
    bool sent = true;
    for (const char* sql : sqls)
        sent = sent && pq_api().PQsendQueryParams(c->conn, sql, 0, nullptr, nullptr, nullptr, nullptr, 0) == 1 &&
               pq_api().PQpipelineSync(c->conn) == 1;
    for (size_t i = 0; sent && i < sqls.size(); ++i) {
        PGresult* first = nullptr;
        for (int nulls = 0;;) {
            PGresult* r = pq_api().PQgetResult(c->conn);
            if (!r) {
                if (++nulls > 2 || connection_bad(c)) break;
                continue;
            }
            if (pq_api().PQresultStatus(r) == PGRES_PIPELINE_SYNC) {
                pq_api().PQclear(r);
                break;
            }
            if (first) pq_api().PQclear(r);
            else first = r;
        }
        out.push_back(first);
    }
    pq_api().PQexitPipelineMode(c->conn);
    if (out.size() != sqls.size()) {
        for (PGresult* r : out) pq_api().PQclear(r);
        fail_conn(c);
    }
    return out;
}

bool result_ok(PGresult* r) {
    ExecStatusType st = r ? pq_api().PQresultStatus(r) : PGRES_FATAL_ERROR;
    return st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
}

// The session settings, at connection and after a reconnection: shortest
// exact float text; writers wait for each other up to a minute (SQLite's
// busy timeout), then fail. At connection (`read_version`) the schema
// version is read in the same round trip (c->schema_version; 0: no
// frontier here): the last statement fails harmlessly when there is no
// meta table, which the one before it says.
void start_session(PgConn* c, bool read_version) {
    pq_api().PQsetNoticeProcessor(c->conn, ignore_notice, nullptr);
    std::vector<const char*> sqls = {"SET extra_float_digits = 3", "SET lock_timeout = '60s'"};
    if (c->readonly) sqls.push_back("SET default_transaction_read_only = on");
    const size_t settings = sqls.size();
    if (read_version) {
        sqls.push_back("SELECT to_regclass('meta') IS NOT NULL");
        sqls.push_back("SELECT value FROM meta WHERE key = 'schema_version'");
    }
    std::vector<PGresult*> r = run_each(c, sqls);
    std::string error;
    for (size_t i = 0; i < settings; ++i)
        if (!result_ok(r[i]) && error.empty()) error = r[i] ? pq_api().PQresultErrorMessage(r[i]) : pg_error(c);
    if (read_version && error.empty()) {
        PGresult* has = r[settings];
        PGresult* v = r[settings + 1];
        if (!result_ok(has)) error = has ? pq_api().PQresultErrorMessage(has) : pg_error(c);
        else if (pq_api().PQntuples(has) != 1 || pq_api().PQgetvalue(has, 0, 0)[0] != 't') c->schema_version = 0;
        else if (!result_ok(v)) error = v ? pq_api().PQresultErrorMessage(v) : pg_error(c);
        else c->schema_version = pq_api().PQntuples(v) == 1 && !pq_api().PQgetisnull(v, 0, 0)
                                     ? std::atoi(pq_api().PQgetvalue(v, 0, 0)) : 0;
    }
    for (PGresult* x : r) pq_api().PQclear(x);
    if (!error.empty()) fail(c, "database error: " + error);
}

// Seconds a tool keeps trying to reconnect between transactions
// (FRONTIER_PG_RECONNECT, default 60; 0: do not).
double reconnect_window() {
    const char* v = std::getenv("FRONTIER_PG_RECONNECT");
    if (!v || !*v) return 60;
    char* end = nullptr;
    double d = std::strtod(v, &end);
    return end && !*end && d >= 0 && d <= 86400 ? d : 60;
}

}  // namespace

namespace pgi {

// Between transactions only (nothing is open, so nothing is lost): when the
// connection is gone, connects again, waiting 0.25 s, 0.5 s, ... up to 5 s
// between tries, for at most the reconnect window; then ConnectionLost,
// and at once when a stop signal arrives (SIGINT/SIGTERM end a tool waiting
// for its server as they end any other wait).
// Statements are prepared again at their next use; LISTEN is issued again
// at the next data_version(). `why`: the ConnectionLost's message, which
// names the database already. `since`: when the connection was first found
// lost; `again`: it was lost again since then, right after a reconnection
// (a server that keeps ending it is given up on after the window too).
void reconnect(PgConn* c, const std::string& why, std::chrono::steady_clock::time_point since, bool again) {
    diag(why + "; reconnecting");
    c->pipeline = false;
    c->sent.clear();
    c->prepared.clear();
    c->ahead = 0;
    const double window = reconnect_window();
    if (again && std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count() >= window)
        throw ConnectionLost("lost the connection to the frontier database " + frontier_display_name(c->url) +
                             " again and again for " + std::to_string(static_cast<int>(window)) +
                             " s (FRONTIER_PG_RECONNECT): " + why);
    double wait = 0.25;
    std::string last = why;
    for (int attempt = 1;; ++attempt) {
        pq_api().PQreset(c->conn);
        if (!connection_bad(c)) {
            try {
                start_session(c, false);
                ++c->generation;
                c->listening = false;
                ++c->version;  // others may have committed meanwhile
                diag("reconnected to the frontier database " + frontier_display_name(c->url) + " (attempt " +
                     std::to_string(attempt) + ")");
                return;
            } catch (const DbError& e) {
                last = e.what();
            }
        } else {
            last = pq_api().PQerrorMessage(c->conn);
            while (!last.empty() && (last.back() == '\n' || last.back() == ' ')) last.pop_back();
        }
        double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
        if (spent + wait > window)
            throw ConnectionLost("lost the connection to the frontier database " + frontier_display_name(c->url) +
                                 " and could not connect again within " + std::to_string(static_cast<int>(window)) +
                                 " s (FRONTIER_PG_RECONNECT): " + last);
        frontier::sleep_for(wait);  // returns early on a stop signal
        if (stop_requested())
            throw ConnectionLost("lost the connection to the frontier database " + frontier_display_name(c->url) +
                                 " and stopped (a signal) while connecting again: " + last);
        wait = std::min(wait * 2, 5.0);
    }
}

}  // namespace pgi

namespace {

// FRONTIER_PG_TRACE=FILE: the connection's protocol messages, one line
// each (libpq's PQtrace: a timestamp, F for the tool's or B for the
// server's, the length, the message), appended to FILE from the session
// settings on (frontier(7), ENVIRONMENT). Only its owner may read a file it
// creates (statement parameters are in it); a line is written whole, so
// tools appending to one file do not split each other's lines.
void start_trace(PgConn* c) {
    const char* path = std::getenv("FRONTIER_PG_TRACE");
    if (!path || !*path) return;
    const int fd = ::open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    c->trace = fd < 0 ? nullptr : ::fdopen(fd, "a");
    if (!c->trace) {
        const int err = errno;
        if (fd >= 0) ::close(fd);
        throw IoError(std::string("cannot open FRONTIER_PG_TRACE file ") + path + ": " + std::strerror(err));
    }
    std::setvbuf(c->trace, nullptr, _IOLBF, 0);
    pq_api().PQtrace(c->conn, c->trace);
}

}  // namespace

PgConn* pg_connect(const std::string& url, bool create, bool readonly) {
    auto* c = new PgConn;
    c->url = url;
    const char* keys[] = {"dbname", "fallback_application_name", nullptr};
    const char* vals[] = {url.c_str(), "frontier", nullptr};
    c->conn = pq_api().PQconnectdbParams(keys, vals, 1);
    if (!c->conn || pq_api().PQstatus(c->conn) != CONNECTION_OK) {
        std::string msg = c->conn ? pq_api().PQerrorMessage(c->conn) : "out of memory";
        while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
        pg_disconnect(c);
        throw IoError("cannot connect to the frontier database " + frontier_display_name(url) + ": " + msg);
    }
    c->readonly = readonly;
    try {
        start_trace(c);
        // A connection ended right after it was made (the server restarting
        // or ending sessions) is made again, as between transactions.
        with_reconnect(c, [&] { start_session(c, true); });
        if (!create && c->schema_version == 0)
            throw IoError("frontier file not found: " + frontier_display_name(url) +
                          " (create it with frontier-add or frontier-config)");
    } catch (...) {
        pg_disconnect(c);
        throw;
    }
    return c;
}

void pg_disconnect(PgConn* c) noexcept {
    if (!c) return;
    if (c->conn) pq_api().PQfinish(c->conn);
    if (c->trace) std::fclose(c->trace);
    delete c;
}

}  // namespace frontier
