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
#include "store/pg/pg_text.hpp"

#include <libpq-fe.h>

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

#include <chrono>
#include <thread>

namespace frontier {

namespace {

// The advisory lock every frontier writer takes ("frontier" in ASCII, as a
// number): writers of one database run one at a time, like SQLite's
// BEGIN IMMEDIATE.
constexpr const char* kBeginWrite = "BEGIN; SELECT pg_advisory_xact_lock(7310012176585550194)";
constexpr const char* kChannel = "frontier_changed";
constexpr Oid kBoolOid = 16;
constexpr Oid kTextOid = 25;

void ignore_notice(void*, const char*) {}

}  // namespace

struct PgConn {
    PGconn* conn = nullptr;
    bool readonly = false;
    int64_t generation = 0;     // reconnections so far: statements prepared before are prepared again
    bool in_tx = false;         // a transaction is open (a lost connection cannot be resumed)
    bool pipeline = false;      // in pipeline mode (a write transaction)
    std::vector<PgStmt*> sent;  // queued commands, in order; nullptr: result not wanted
    std::string url;
    int64_t next_stmt = 0;
    bool wrote = false;      // the open transaction changed something
    bool listening = false;  // LISTEN issued (data_version)
    int64_t version = 0;     // notifications from other sessions seen
};

struct PgStmt {
    PgConn* c = nullptr;
    std::string name;
    std::string text;          // the translated SQL, to prepare again after a reconnection
    std::vector<Oid> types;
    int64_t generation = 0;    // the connection's generation it is prepared in
    int nparams = 0;
    std::vector<std::string> values;
    std::vector<char> bound;
    PGresult* res = nullptr;
    int row = -1;
    int nrows = 0;
};

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

namespace {

bool connection_bad(PgConn* c) { return !c->conn || pq_api().PQstatus(c->conn) != CONNECTION_OK; }

// DbError, or ConnectionLost when the connection is gone (the server
// restarted or went away, the network failed).
[[noreturn]] void fail(PgConn* c, std::string msg) {
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    if (connection_bad(c))
        throw ConnectionLost("lost the connection to the frontier database " + frontier_display_name(c->url) +
                             (c->in_tx ? " in a transaction: nothing of it was kept, and nothing not yet printed "
                                         "was acknowledged; run the tool again"
                                       : "") +
                             " (" + msg + ")");
    throw DbError(msg);
}

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

// Pipeline mode: sends a Sync and reads the results of every queued
// command, handing the wanted ones to their statements; throws the first
// error once the pipeline is drained.
void sync(PgConn* c) {
    if (pq_api().PQpipelineSync(c->conn) != 1)
        fail(c, "database error: " + std::string(pq_api().PQerrorMessage(c->conn)));
    std::string error;
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
                fail(c, "database error: lost the pipeline: " + std::string(pq_api().PQerrorMessage(c->conn)));
            }
            continue;
        }
        ExecStatusType st = pq_api().PQresultStatus(r);
        if (st == PGRES_PIPELINE_SYNC) {
            pq_api().PQclear(r);
            break;
        }
        PgStmt* want = at < c->sent.size() ? c->sent[at] : nullptr;
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
    c->sent.clear();
    if (!error.empty()) fail(c, "database error: " + error);
}

// Ends pipeline mode (results read first), for the synchronous calls.
void leave_pipeline(PgConn* c) {
    if (!c->pipeline) return;
    c->pipeline = false;
    std::string error;
    try {
        sync(c);
    } catch (const DbError& e) {
        error = e.what();
    }
    pq_api().PQexitPipelineMode(c->conn);
    if (!error.empty()) fail(c, error);
}

}  // namespace

// ------------------------------------------------------------ connection

namespace {

// The session settings, at connection and after a reconnection: shortest
// exact float text; writers wait for each other up to a minute (SQLite's
// busy timeout), then fail.
void start_session(PgConn* c) {
    pq_api().PQsetNoticeProcessor(c->conn, ignore_notice, nullptr);
    run_void(c, c->readonly ? "SET extra_float_digits = 3; SET lock_timeout = '60s'; "
                              "SET default_transaction_read_only = on"
                            : "SET extra_float_digits = 3; SET lock_timeout = '60s'");
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

// Between transactions only (nothing is open, so nothing is lost): when the
// connection is gone, connects again, waiting 0.25 s, 0.5 s, ... up to 5 s
// between tries, for at most the reconnect window; then ConnectionLost.
// Statements are prepared again at their next use; LISTEN is issued again
// at the next data_version().
void reconnect(PgConn* c, const std::string& why) {
    diag("lost the connection to the frontier database " + frontier_display_name(c->url) + " (" + why +
         "); reconnecting");
    c->pipeline = false;
    c->sent.clear();
    const double window = reconnect_window();
    const auto start = std::chrono::steady_clock::now();
    double wait = 0.25;
    std::string last = why;
    for (int attempt = 1;; ++attempt) {
        pq_api().PQreset(c->conn);
        if (!connection_bad(c)) {
            try {
                start_session(c);
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
        double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (spent + wait > window)
            throw ConnectionLost("lost the connection to the frontier database " + frontier_display_name(c->url) +
                                 " and could not connect again within " + std::to_string(static_cast<int>(window)) +
                                 " s (FRONTIER_PG_RECONNECT): " + last);
        std::this_thread::sleep_for(std::chrono::duration<double>(wait));
        wait = std::min(wait * 2, 5.0);
    }
}

// Runs `f` (which starts a transaction or runs outside one); when it fails
// on a lost connection, reconnects and runs it once more.
template <class F>
void with_reconnect(PgConn* c, F&& f) {
    try {
        f();
    } catch (const ConnectionLost& e) {
        if (c->in_tx) throw;
        reconnect(c, e.what());
        f();
    }
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
        start_session(c);
        if (!create && pg_schema_version(c) == 0)
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
    delete c;
}

std::string pg_error(PgConn* c) { return pq_api().PQerrorMessage(c->conn); }

void pg_exec(PgConn* c, std::string_view sql) {
    std::vector<bool> used;
    std::string text = pg_translate(sql, used);
    with_reconnect(c, [&] { run_void(c, text.c_str()); });
    c->wrote = true;
}

void pg_begin(PgConn* c, bool write) {
    with_reconnect(c, [&] { run_void(c, write ? kBeginWrite : "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"); });
    c->in_tx = true;
    c->wrote = false;
    if (write && pq_api().PQenterPipelineMode(c->conn) == 1) c->pipeline = true;
}

void pg_commit(PgConn* c) {
    // Listeners (Db::data_version) learn of every commit that changed rows
    // (known once the pipelined statements' results are in).
    leave_pipeline(c);
    run_void(c, c->wrote ? "NOTIFY frontier_changed; COMMIT" : "COMMIT");
    c->wrote = false;
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
        if (!pq_api().PQconsumeInput(c->conn)) fail(c, "database error: " + pg_error(c));
    });
    const int self = pq_api().PQbackendPID(c->conn);
    while (PGnotify* n = pq_api().PQnotifies(c->conn)) {
        if (n->be_pid != self) ++c->version;
        pq_api().PQfreemem(n);
    }
    return c->version;
}

// ------------------------------------------------------------ statements

namespace {

// Prepares `s` on the server, within the transaction's pipeline or alone;
// again after a reconnection.
void prepare_on_server(PgStmt* s) {
    PgConn* c = s->c;
    if (c->pipeline) {
        if (pq_api().PQsendPrepare(c->conn, s->name.c_str(), s->text.c_str(), s->nparams, s->types.data()) != 1)
            fail(c, "cannot prepare statement: " + std::string(pq_api().PQerrorMessage(c->conn)));
        c->sent.push_back(nullptr);
        try {
            sync(c);
        } catch (const ConnectionLost&) {
            throw;
        } catch (const DbError& e) {
            throw DbError("cannot prepare statement: " + s->text.substr(0, 160) + ": " + e.what());
        }
    } else {
        PGresult* r = pq_api().PQprepare(c->conn, s->name.c_str(), s->text.c_str(), s->nparams, s->types.data());
        if (!r || pq_api().PQresultStatus(r) != PGRES_COMMAND_OK)
            throw_result(c, r, "cannot prepare statement: " + s->text.substr(0, 160) + ": ");
        pq_api().PQclear(r);
    }
    s->generation = c->generation;
}

void ensure_prepared(PgStmt* s) {
    if (s->generation != s->c->generation) prepare_on_server(s);
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
    prepare_on_server(s.get());
    s->values.resize(static_cast<size_t>(s->nparams));
    s->bound.assign(static_cast<size_t>(s->nparams), 0);
    return s.release();
}

void pg_stmt_free(PgStmt* s) noexcept {
    if (s->res) pq_api().PQclear(s->res);
    for (auto& p : s->c->sent)
        if (p == s) p = nullptr;
    if (s->c->conn && pq_api().PQstatus(s->c->conn) == CONNECTION_OK && !s->c->pipeline &&
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
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    s.values[i - 1].assign(buf, r.ptr);
    s.bound[i - 1] = 1;
}

void pg_stmt_bind(PgStmt* st, int i, double v) {
    PgStmt& s = param(st, i);
    s.values[i - 1] = pg_float_text(v);
    s.bound[i - 1] = 1;
}

void pg_stmt_bind(PgStmt* st, int i, std::string_view v) {
    PgStmt& s = param(st, i);
    s.values[i - 1].assign(pg_text(v));
    s.bound[i - 1] = 1;
}

void pg_stmt_bind_null(PgStmt* st, int i) { param(st, i).bound[i - 1] = 0; }

namespace {
// Queues the statement in the pipeline (want: its rows are read).
void send(PgStmt* s, bool want) {
    ensure_prepared(s);
    std::vector<const char*> vals(static_cast<size_t>(s->nparams));
    for (int i = 0; i < s->nparams; ++i) vals[i] = s->bound[i] ? s->values[i].c_str() : nullptr;
    if (pq_api().PQsendQueryPrepared(s->c->conn, s->name.c_str(), s->nparams, vals.data(), nullptr, nullptr, 0) != 1)
        fail(s->c, "database error: " + std::string(pq_api().PQerrorMessage(s->c->conn)));
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

bool pg_stmt_step(PgStmt* s) {
    if (!s->res && s->c->pipeline) {
        send(s, true);
        sync(s->c);
        if (!s->res) throw DbError("database error: no result for a statement");
        s->row = -1;
    } else if (!s->res) {
        ensure_prepared(s);
        std::vector<const char*> vals(static_cast<size_t>(s->nparams));
        for (int i = 0; i < s->nparams; ++i) vals[i] = s->bound[i] ? s->values[i].c_str() : nullptr;
        PGresult* r =
            pq_api().PQexecPrepared(s->c->conn, s->name.c_str(), s->nparams, vals.data(), nullptr, nullptr, 0);
        ExecStatusType st = r ? pq_api().PQresultStatus(r) : PGRES_FATAL_ERROR;
        if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) throw_result(s->c, r, "database error: ");
        note_write(s->c, r);
        s->res = r;
        s->nrows = pq_api().PQntuples(r);
        s->row = -1;
    }
    if (s->row < s->nrows) ++s->row;
    return s->row < s->nrows;
}

void pg_stmt_reset(PgStmt* s) {
    if (s->res) pq_api().PQclear(s->res);
    s->res = nullptr;
    s->row = -1;
    s->nrows = 0;
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

// ------------------------------------------------------------ the backend

namespace {

class PgStatement final : public StmtImpl {
public:
    explicit PgStatement(PgStmt* s) : s_(s) {}
    ~PgStatement() override { pg_stmt_free(s_); }
    void bind_i64(int i, int64_t v) override { pg_stmt_bind(s_, i, v); }
    void bind_dbl(int i, double v) override { pg_stmt_bind(s_, i, v); }
    void bind_text(int i, std::string_view v) override { pg_stmt_bind(s_, i, v); }
    void bind_null(int i) override { pg_stmt_bind_null(s_, i); }
    bool step() override { return pg_stmt_step(s_); }
    void exec() override { pg_stmt_exec(s_); }
    void reset() override { pg_stmt_reset(s_); }
    bool is_null(int col) const override { return pg_stmt_is_null(s_, col); }
    int64_t i64(int col) const override { return pg_stmt_i64(s_, col); }
    double dbl(int col) const override { return pg_stmt_dbl(s_, col); }
    std::string_view text(int col) const override { return pg_stmt_text(s_, col); }

private:
    PgStmt* s_;
};

class PgDb final : public Db {
public:
    PgDb(const std::string& url, bool create, bool readonly) : c_(pg_connect(url, create, readonly)) {}
    ~PgDb() override { pg_disconnect(c_); }
    bool statements_are_round_trips() const override { return true; }
    bool large_updates_in_chunks() const override { return false; }
    void set_page_cache_mib(int) override {}
    void exec(std::string_view sql) override { pg_exec(c_, sql); }
    Stmt prepare(std::string_view sql) override { return Stmt(std::make_unique<PgStatement>(pg_stmt_new(c_, sql))); }
    int64_t changes() const override { return -1; }
    [[noreturn]] void fail(std::string_view what) const override {
        throw DbError(std::string(what) + ": " + pg_error(c_));
    }
    bool constraint_violation(const DbError& e) const override {
        return std::string_view(e.what()).find("violates") != std::string_view::npos;
    }
    void begin_write() override { pg_begin(c_, true); }
    void begin_read() override { pg_begin(c_, false); }
    void commit() override { pg_commit(c_); }
    void rollback() noexcept override { pg_rollback(c_); }
    int schema_version() override { return pg_schema_version(c_); }
    void set_schema_version(int v) override { pg_set_schema_version(c_, v); }
    int64_t data_version() override { return pg_data_version(c_); }
    std::string integrity_problems() override { return {}; }

    // Dialect operations used by check/report/export/schema
    void begin_snapshot() override { begin_read(); }
    void end_snapshot() noexcept override { rollback(); }
    void prepare_for_large_sorts() override {}
    void end_large_sorts() override {}
    std::optional<int64_t> id_sequence_last(std::string_view table) override {
        Stmt st = prepare(pg_id_sequence_last_sql(table));
        return st.step() ? st.i64(0) : 0;
    }
    void advance_id_sequence(std::string_view table) override { prepare(pg_advance_id_sequence_sql(table)).step(); }
    Stmt prepare_insert_or_clash(std::string_view table, const std::vector<std::string_view>& columns,
                                 std::string_view replace_key) override {
        return prepare(pg_insert_or_clash_sql(table, columns, replace_key));
    }
    bool insert_or_clash(Stmt& st, std::string&) override {
        bool inserted = st.step();  // RETURNING 1: no row when it clashed
        st.reset();
        return inserted;
    }
    Stmt prepare_stream(std::string_view select) override { return Stmt(pg_stream_new(c_, select)); }
    std::string value_type_sql(std::string_view column) const override {
        return "pg_typeof(" + std::string(column) + ")::text";
    }
    std::string bytewise_order_sql(std::string_view column) const override {
        return std::string(column) + " COLLATE \"C\"";
    }
    const Ddl& ddl() const override {
        static const Ddl d{"BIGINT", "DOUBLE PRECISION", "BIGINT", " BIGINT PRIMARY KEY",
                           " BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", ""};
        return d;
    }
    std::string whole_part_sql(std::string_view expr) const override {
        return "CAST(floor(" + std::string(expr) + ") AS BIGINT)";
    }

private:
    PgConn* c_;
};

}  // namespace

std::unique_ptr<Db> open_postgres(const std::string& url, bool create, bool readonly) {
    return std::make_unique<PgDb>(url, create, readonly);
}

}  // namespace frontier
