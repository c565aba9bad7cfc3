// The SQL translation of the PostgreSQL backend (lib/store/pg/db_pg_sql.cpp): no server needed.
#include <catch2/catch.hpp>

#include "store/pg/db_pg.hpp"

using namespace frontier;

namespace {
std::string tr(const char* sql, std::vector<bool>* used_out = nullptr) {
    std::vector<bool> used;
    std::string r = pg_translate(sql, used);
    if (used_out) *used_out = used;
    return r;
}
}  // namespace

TEST_CASE("pg_translate: parameters", "[pg]") {
    std::vector<bool> used;
    CHECK(tr("SELECT id FROM t WHERE a = ? AND b = ?", &used) == "SELECT id FROM t WHERE a = $1 AND b = $2");
    CHECK(used == std::vector<bool>{true, true});
    // ?N, and a bare ? after it takes the next number (SQLite's rule).
    CHECK(tr("SET a = ?, b = ?5, c = ?5, d = ?") == "SET a = $1, b = $5, c = $5, d = $6");
    // A parameter the SQL does not use is still counted.
    CHECK(tr("SELECT 1 WHERE x < ?2", &used) == "SELECT 1 WHERE x < $2");
    CHECK(used == std::vector<bool>{false, true});
    // Literals and quoted identifiers are copied as they are.
    CHECK(tr("SELECT '?', \"max(a, b)\" FROM t WHERE k = 'interval'") ==
          "SELECT '?', \"max(a, b)\" FROM t WHERE k = 'interval'");
}

TEST_CASE("pg_translate: functions and words", "[pg]") {
    CHECK(tr("SET n = max(n - 1, 0), w = max(w, ?)") == "SET n = greatest(n - 1, 0), w = greatest(w, $1)");
    CHECK(tr("SELECT min(a, b), min(wake_at), MAX(x) FROM q") ==
          "SELECT least(a, b), min(wake_at), MAX(x) FROM q");
    CHECK(tr("SELECT max(coalesce(a, b)) FROM q") == "SELECT max(coalesce(a, b)) FROM q");
    CHECK(tr("SELECT total(CASE WHEN s >= 2 THEN q END), 1") ==
          "SELECT coalesce(sum(CASE WHEN s >= 2 THEN q END), 0), 1");
    CHECK(tr("SELECT interval, maxed FROM urls") == "SELECT \"interval\", maxed FROM urls");
    CHECK(tr("SELECT CAST(a AS REAL) / b") == "SELECT CAST(a AS double precision) / b");
    CHECK(tr("ALTER TABLE urls ADD COLUMN first_success REAL") ==
          "ALTER TABLE urls ADD COLUMN first_success double precision");
}

TEST_CASE("pg_translate: a negative LIMIT is no limit", "[pg]") {
    CHECK(tr("SELECT id FROM q ORDER BY id LIMIT ?2") ==
          "SELECT id FROM q ORDER BY id LIMIT nullif(greatest($2::bigint, -1), -1)");
    CHECK(tr("SELECT id FROM q LIMIT 256") == "SELECT id FROM q LIMIT 256");
}

TEST_CASE("frontier_display_name leaves out a password", "[pg]") {
    CHECK(frontier_display_name("crawl.db") == "crawl.db");
    CHECK(frontier_display_name("postgresql://u@h/db") == "postgresql://u@h/db");
    CHECK(frontier_display_name("postgresql://u:secret@h:5432/db?sslmode=require") ==
          "postgresql://u@h:5432/db?sslmode=require");
    CHECK(frontier_display_name("postgres://u:p@ss@h/db") == "postgres://u@h/db");
    CHECK(frontier_display_name("postgresql://h/db?user=a:b@c") == "postgresql://h/db?user=a:b@c");
}

TEST_CASE("is_postgres_url", "[pg]") {
    CHECK(is_postgres_url("postgresql://u@h/db"));
    CHECK(is_postgres_url("postgres://h/db"));
    CHECK(!is_postgres_url("crawl.db"));
    CHECK(!is_postgres_url("./postgresql://x"));
}
