// FRONTIER_CACHE_MIB (frontier(7), ENVIRONMENT): the page cache of an SQLite
// frontier connection, replacing every size a tool asks for; a bad value is
// a usage error, not a silent default.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "store/db.hpp"
#include "temp_dir.hpp"

using namespace frontier;

namespace {

int64_t cache_size(Db& db) {
    Stmt st = db.prepare("PRAGMA cache_size");
    REQUIRE(st.step());
    return st.i64(0);
}

struct CacheEnv {
    explicit CacheEnv(const char* v) { setenv("FRONTIER_CACHE_MIB", v, 1); }
    ~CacheEnv() { unsetenv("FRONTIER_CACHE_MIB"); }
};

}  // namespace

TEST_CASE("page cache: each tool's size without FRONTIER_CACHE_MIB") {
    TempDir dir;
    unsetenv("FRONTIER_CACHE_MIB");
    auto db = Db::open(dir.path + "/f.db", true);
    CHECK(cache_size(*db) == -32 * 1024);
    db->set_page_cache_mib(8);
    CHECK(cache_size(*db) == -8 * 1024);
}

TEST_CASE("page cache: FRONTIER_CACHE_MIB replaces every size asked for") {
    TempDir dir;
    CacheEnv env("300");
    auto db = Db::open(dir.path + "/f.db", true);
    CHECK(cache_size(*db) == -300 * 1024);
    db->set_page_cache_mib(8);
    CHECK(cache_size(*db) == -300 * 1024);
}

TEST_CASE("page cache: a bad FRONTIER_CACHE_MIB is a usage error") {
    TempDir dir;
    for (const char* bad : {"0", "-5", "12x", "lots", "99999999999"}) {
        CacheEnv env(bad);
        INFO(bad);
        CHECK_THROWS_AS(Db::open(dir.path + "/f.db", true), UsageError);
    }
}
