// The PostgreSQL backend's statements: prepared once per connection (and
// again after a reconnection), run in the transaction's pipeline or alone,
// their rows buffered (see db_pg.cpp).
#include <algorithm>
#include <charconv>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/ondemand.hpp"
#include "store/pg/db_pg.hpp"
#include "store/pg/db_pg_conn.hpp"
#include "store/pg/pg_text.hpp"

namespace frontier {

using namespace pgi;

// ------------------------------------------------------------ statements

namespace {

// Prepares `s` on the server, again after a reconnection. Within the
// transaction's pipeline the Parse is only queued: it goes with the run that
// follows it (its error, if any, arrives at the next Sync, which aborts the
// transaction like any error there), so a second run costs no round trip more.
void prepare_on_server(PgStmt* s) {
    PgConn* c = s->c;
    if (c->pipeline) {
        if (pq_api().PQsendPrepare(c->conn, s->name.c_str(), s->text.c_str(), s->nparams, s->types.data()) != 1)
            fail_conn(c, "cannot prepare statement: ");
        c->prepared.emplace_back(c->sent.size(), s);
        c->sent.push_back(nullptr);
    } else {
        PGresult* r = pq_api().PQprepare(c->conn, s->name.c_str(), s->text.c_str(), s->nparams, s->types.data());
        if (!r || pq_api().PQresultStatus(r) != PGRES_COMMAND_OK)
            throw_result(c, r, "cannot prepare statement: " + s->text.substr(0, 160) + ": ");
        pq_api().PQclear(r);
    }
    s->generation = c->generation;
}

// A statement's first run on a connection is unnamed: Parse, Bind and
// Execute in one round trip (most run once per tool). It is prepared by
// name, one round trip more, when it runs again. True: run it unnamed now.
bool run_unnamed(PgStmt* s) {
    if (s->generation == s->c->generation) return false;
    if (s->ran_in != s->c->generation) {
        s->ran_in = s->c->generation;
        return true;
    }
    prepare_on_server(s);
    return false;
}

std::vector<const char*> bound_values(const PgStmt* s) {
    std::vector<const char*> vals(static_cast<size_t>(s->nparams));
    for (int i = 0; i < s->nparams; ++i) vals[i] = s->bound[i] ? s->values[i].c_str() : nullptr;
    return vals;
}

// Runs the statement outside pipeline mode; its rows in s->res.
void exec_now(PgStmt* s) {
    std::vector<const char*> vals = bound_values(s);
    PGresult* r = run_unnamed(s)
                      ? pq_api().PQexecParams(s->c->conn, s->text.c_str(), s->nparams, s->types.data(),
                                              vals.data(), s->lengths.data(), s->formats.data(), 0)
                      : pq_api().PQexecPrepared(s->c->conn, s->name.c_str(), s->nparams, vals.data(),
                                                s->lengths.data(), s->formats.data(), 0);
    ExecStatusType st = r ? pq_api().PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) throw_result(s->c, r, "database error: ");
    note_write(s->c, r);
    s->res = r;
}

}  // namespace

PgStmt* pg_stmt_new(PgConn* c, std::string_view sql) {
    auto s = std::make_unique<PgStmt>();
    s->c = c;
    s->name = "f" + std::to_string(++c->next_stmt);
    std::vector<bool> used;
    s->text = pg_translate(sql, used);
    s->nparams = static_cast<int>(used.size());
    // The server infers each parameter's type from the SQL; one the SQL does
    // not use (bound anyway, as SQLite allows) is declared text.
    s->types.assign(used.size(), 0);
    for (size_t i = 0; i < used.size(); ++i)
        if (!used[i]) s->types[i] = kTextOid;
    s->values.resize(static_cast<size_t>(s->nparams));
    s->bound.assign(static_cast<size_t>(s->nparams), 0);
    s->lengths.assign(static_cast<size_t>(s->nparams), 0);
    s->formats.assign(static_cast<size_t>(s->nparams), 0);
    return s.release();
}

void pg_stmt_free(PgStmt* s) noexcept {
    if (s->res) pq_api().PQclear(s->res);
    for (auto& p : s->c->sent)
        if (p == s) p = nullptr;
    std::erase_if(s->c->prepared, [s](const auto& p) { return p.second == s; });
    if (s->c->conn && !s->c->closing && pq_api().PQstatus(s->c->conn) == CONNECTION_OK && !s->c->pipeline &&
        s->generation == s->c->generation) {
        // Outside an aborted transaction; inside one it fails, harmlessly.
        PGresult* r = pq_api().PQexec(s->c->conn, ("DEALLOCATE " + s->name).c_str());
        if (r) pq_api().PQclear(r);
    }
    delete s;
}

namespace {
PgStmt& param(PgStmt* s, int i) {
    if (i < 1 || i > s->nparams)
        throw DbError("database error: parameter " + std::to_string(i) + " out of range");
    return *s;
}
}  // namespace

void pg_stmt_bind(PgStmt* st, int i, int64_t v) {
    PgStmt& s = param(st, i);
    s.formats[i - 1] = 0;
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    s.values[i - 1].assign(buf, r.ptr);
    s.bound[i - 1] = 1;
}

void pg_stmt_bind(PgStmt* st, int i, double v) {
    PgStmt& s = param(st, i);
    s.formats[i - 1] = 0;
    s.values[i - 1] = pg_float_text(v);
    s.bound[i - 1] = 1;
}

void pg_stmt_bind(PgStmt* st, int i, std::string_view v) {
    PgStmt& s = param(st, i);
    s.formats[i - 1] = 0;
    s.values[i - 1].assign(pg_text(v));
    s.bound[i - 1] = 1;
}

void pg_stmt_bind_null(PgStmt* st, int i) { param(st, i).bound[i - 1] = 0; }

void pg_stmt_bind_binary(PgStmt* st, int i, std::string_view bytes) {
    PgStmt& s = param(st, i);
    s.values[i - 1].assign(bytes);
    s.lengths[i - 1] = static_cast<int>(bytes.size());
    s.formats[i - 1] = 1;
    s.bound[i - 1] = 1;
}

namespace {
// Queues the statement in the pipeline (want: its rows are read).
void send(PgStmt* s, bool want) {
    std::vector<const char*> vals = bound_values(s);
    int sent = run_unnamed(s)
                   ? pq_api().PQsendQueryParams(s->c->conn, s->text.c_str(), s->nparams, s->types.data(),
                                                vals.data(), s->lengths.data(), s->formats.data(), 0)
                   : pq_api().PQsendQueryPrepared(s->c->conn, s->name.c_str(), s->nparams, vals.data(),
                                                  s->lengths.data(), s->formats.data(), 0);
    if (sent != 1)
        fail_conn(s->c);
    s->c->sent.push_back(want ? s : nullptr);
}
}  // namespace

void pg_stmt_exec(PgStmt* s) {
    if (s->c->pipeline) {
        send(s, false);
        pg_stmt_reset(s);
        return;
    }
    while (pg_stmt_step(s)) {
    }
    pg_stmt_reset(s);
}

// Behind the commands queued so far (a Sync between), sent at once: the
// server starts it while the caller reads their results (sync).
void pg_stmt_exec_behind(PgStmt* s) {
    PgConn* c = s->c;
    if (!c->pipeline || c->ahead || c->sent.empty()) return pg_stmt_exec(s);
    if (pq_api().PQpipelineSync(c->conn) != 1)
        fail_conn(c);
    c->ahead = c->sent.size();
    send(s, false);
    if (pq_api().PQflush(c->conn) != 0)
        fail_conn(c);
    pg_stmt_reset(s);
}

void pg_stmt_send(PgStmt* s) {
    if (!s->c->pipeline || s->res || s->queued) return;
    send(s, true);
    s->queued = true;
}

bool pg_stmt_step(PgStmt* s) {
    if (!s->res && s->c->pipeline) {
        if (!s->queued) send(s, true);
        s->queued = false;
        sync(s->c, s);
        if (!s->res) throw DbError("database error: no result for a statement");
        s->row = -1;
    } else if (!s->res) {
        // Outside a transaction (a read between batches: the leases out, a
        // count) a lost connection is connected again and the statement
        // run again, as at a BEGIN (frontier(7), POSTGRESQL).
        with_reconnect(s->c, [&] { exec_now(s); });
        s->nrows = pq_api().PQntuples(s->res);
        s->row = -1;
    }
    if (s->row < s->nrows) ++s->row;
    return s->row < s->nrows;
}

void pg_stmt_reset(PgStmt* s) {
    if (s->queued)  // its result, still to come, is not wanted any more
        for (auto& p : s->c->sent)
            if (p == s) p = nullptr;
    if (s->res) pq_api().PQclear(s->res);
    s->res = nullptr;
    s->row = -1;
    s->nrows = 0;
    s->queued = false;
    std::fill(s->bound.begin(), s->bound.end(), 0);
}

std::string_view pg_stmt_text(PgStmt* s, int col) {
    if (!s->res || s->row < 0 || s->row >= s->nrows || pq_api().PQgetisnull(s->res, s->row, col)) return {};
    return {pq_api().PQgetvalue(s->res, s->row, col), static_cast<size_t>(pq_api().PQgetlength(s->res, s->row, col))};
}

bool pg_stmt_is_null(const PgStmt* s, int col) {
    return !s->res || s->row < 0 || s->row >= s->nrows || pq_api().PQgetisnull(s->res, s->row, col);
}

int64_t pg_stmt_i64(const PgStmt* s, int col) {
    if (pg_stmt_is_null(s, col)) return 0;
    const char* v = pq_api().PQgetvalue(s->res, s->row, col);
    if (pq_api().PQftype(s->res, col) == kBoolOid) return v[0] == 't';
    return std::strtoll(v, nullptr, 10);
}

double pg_stmt_dbl(const PgStmt* s, int col) {
    if (pg_stmt_is_null(s, col)) return 0;
    const char* v = pq_api().PQgetvalue(s->res, s->row, col);
    if (pq_api().PQftype(s->res, col) == kBoolOid) return v[0] == 't';
    return std::strtod(v, nullptr);
}

}  // namespace frontier
