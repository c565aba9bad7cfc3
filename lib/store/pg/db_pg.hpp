// The PostgreSQL backend of the storage interface (lib/store/db.hpp; libpq,
// lib/store/pg/db_pg.cpp; the SQL translation in lib/store/pg/db_pg_sql.cpp),
// private to lib/store/. Each function throws DbError with the server's message.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "store/db.hpp"

namespace frontier {

struct PgConn;
struct PgStmt;

// Connects to the frontier database at `url` (postgresql://...). Throws
// IoError when it cannot connect, or (without `create`) has no frontier.
std::unique_ptr<Db> open_postgres(const std::string& url, bool create, bool readonly);


// Connects to a postgresql:// URL. Without `create`, a database holding no
// frontier schema is an IoError, like a missing file. `readonly` makes the
// session read-only (default_transaction_read_only).
PgConn* pg_connect(const std::string& url, bool create, bool readonly);
void pg_disconnect(PgConn* c) noexcept;
std::string pg_error(PgConn* c);
// Runs SQL text (one or more statements, no parameters; translated).
void pg_exec(PgConn* c, std::string_view sql);
void pg_begin(PgConn* c, bool write, bool shared = false);
// The commit of the open transaction sends no NOTIFY: it made nothing newly
// available to a follower.
void pg_commit_unnoticed(PgConn* c);
// Blocks until a notification from another session arrives or `seconds`
// pass (poll on the connection's socket); true when one arrived.
bool pg_wait_for_notification(PgConn* c, double seconds);
void pg_commit(PgConn* c);
void pg_rollback(PgConn* c) noexcept;
int pg_schema_version(PgConn* c);
void pg_set_schema_version(PgConn* c, int v);
int64_t pg_data_version(PgConn* c);

PgStmt* pg_stmt_new(PgConn* c, std::string_view sql);
void pg_stmt_free(PgStmt* s) noexcept;
void pg_stmt_bind(PgStmt* s, int i, int64_t v);
void pg_stmt_bind(PgStmt* s, int i, double v);
void pg_stmt_bind(PgStmt* s, int i, std::string_view v);
void pg_stmt_bind_null(PgStmt* s, int i);
void pg_stmt_bind_binary(PgStmt* s, int i, std::string_view bytes);
bool pg_stmt_is_null(const PgStmt* s, int col);
int64_t pg_stmt_i64(const PgStmt* s, int col);
double pg_stmt_dbl(const PgStmt* s, int col);
bool pg_stmt_step(PgStmt* s);
// Runs a statement whose rows are not wanted. Inside a write transaction it
// is only queued (pipeline mode); its result, or error, arrives with the
// next statement that returns rows, or at commit.
void pg_stmt_exec(PgStmt* s);
void pg_stmt_reset(PgStmt* s);
// Inside a write transaction: queues the statement, its rows kept for its
// next pg_stmt_step (they arrive with the next Sync); elsewhere nothing.
void pg_stmt_send(PgStmt* s);
void pg_stmt_exec_behind(PgStmt* s);
std::string_view pg_stmt_text(PgStmt* s, int col);

// SQLite SQL as the store writes it, in PostgreSQL's dialect: `?` and `?N`
// parameters become `$N`; scalar max(a, b) / min(a, b) become greatest /
// least; total(x) becomes coalesce(sum(x), 0); `interval` (a keyword there)
// is quoted; REAL becomes double precision; `LIMIT ?` accepts a negative
// count as "no limit". `used[i]` tells whether parameter i+1 occurs.
std::string pg_translate(std::string_view sql, std::vector<bool>& used);

// The dialect operations of PgDb that need more than a line
// (lib/store/pg/db_pg_dialect.cpp): a SELECT read through a cursor in slices
// (Db::prepare_stream), and the statement texts of Db::prepare_insert_or_clash,
// Db::id_sequence_last, Db::advance_id_sequence and their SQL.
std::unique_ptr<StmtImpl> pg_stream_new(PgConn* c, std::string_view select);
std::string pg_insert_or_clash_sql(std::string_view table, const std::vector<std::string_view>& columns,
                                   std::string_view replace_key);
std::string pg_id_sequence_last_sql(std::string_view table);
std::string pg_id_sequence_set_sql(std::string_view table, std::string_view value);
std::string pg_advance_id_sequence_sql(std::string_view table);

}  // namespace frontier
