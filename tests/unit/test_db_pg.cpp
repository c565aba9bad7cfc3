// The PostgreSQL backend without a server: its SQL translation (lib/store/pg/db_pg_sql.cpp) and
// the binary array parameters (PgArray, lib/store/pg/pg_text.cpp; the server reads them in tests/pg).
#include <catch2/catch.hpp>
#include <optional>
#include <stdexcept>
#include <string>

#include "store/pg/db_pg.hpp"
#include "store/pg/pg_text.hpp"

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

namespace {
// PgArray's bytes as big-endian 32-bit words (the header and lengths).
uint32_t word(const std::string& b, size_t at) {
    uint32_t v = 0;
    for (size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(b[at + i]);
    return v;
}
}  // namespace

TEST_CASE("PgArray: PostgreSQL's binary array format", "[pg]") {
    PgArray empty;
    CHECK(empty.size() == 0);
    CHECK(empty.binary().empty());  // bound as the text '{}'

    PgArray ints;
    ints.add(int64_t{1});
    ints.add(std::optional<int64_t>());
    ints.add(int64_t{-2});
    const std::string& b = ints.binary();
    REQUIRE(b.size() == 20 + (4 + 8) + 4 + (4 + 8));
    CHECK(word(b, 0) == 1);   // dimensions
    CHECK(word(b, 4) == 1);   // has a NULL
    CHECK(word(b, 8) == 20);  // int8
    CHECK(word(b, 12) == 3);  // elements
    CHECK(word(b, 16) == 1);  // lower bound
    CHECK(word(b, 20) == 8);
    CHECK(word(b, 24) == 0);
    CHECK(word(b, 28) == 1);
    CHECK(word(b, 32) == 0xffffffffu);  // NULL
    CHECK(word(b, 36) == 8);
    CHECK(word(b, 40) == 0xffffffffu);  // -2, high word
    CHECK(word(b, 44) == 0xfffffffeu);

    PgArray doubles;
    doubles.add(1.5);
    CHECK(word(doubles.binary(), 4) == 0);    // no NULL
    CHECK(word(doubles.binary(), 8) == 701);  // float8
    CHECK(word(doubles.binary(), 24) == 0x3ff80000u);

    PgArray texts;
    texts.add_text(std::string_view("a\"b\\c\0d", 7), false);  // up to the NUL, nothing escaped
    texts.add(std::optional<std::string>());
    const std::string& t = texts.binary();
    CHECK(word(t, 8) == 25);  // text
    CHECK(word(t, 20) == 5);
    CHECK(t.substr(24, 5) == "a\"b\\c");
    CHECK(word(t, 29) == 0xffffffffu);

    PgArray mixed;
    mixed.add(int64_t{1});
    CHECK_THROWS_AS(mixed.add(1.0), std::logic_error);
    texts.clear();
    CHECK(texts.size() == 0);
    CHECK(texts.binary().empty());
}
