// The per-process caches of the store (lib/store/bounded_cache.hpp): the
// keys in use stay however many others pass through, memory stays bounded;
// and the seed marks that an add answers from the host's cache entry
// (Store::add_seed) are written whatever the order of links and seeds, and
// again after a rollback.
#include <catch2/catch.hpp>
#include <sqlite3.h>

#include <string>

#include "frontier/enqueue.hpp"
#include "json/json.hpp"
#include "store/bounded_cache.hpp"
#include "store/store.hpp"
#include "temp_dir.hpp"

using namespace frontier;

TEST_CASE("bounded cache: hot keys stay, cold ones pass, the bound holds", "[cache]") {
    BoundedCache<std::string, int> c(100);
    c.put("hot", 1);
    for (int i = 0; i < 10000; ++i) {
        c.put("cold" + std::to_string(i), i);
        REQUIRE(c.size() <= 100);
        if (i % 20 == 0) REQUIRE(c.find("hot"));  // used now and then: never dropped
    }
    CHECK(*c.find("hot") == 1);
    CHECK(!c.find("cold0"));  // long gone
    CHECK(*c.find("cold9999") == 9999);

    c.put("hot", 2);  // replaced, wherever it was
    CHECK(*c.find("hot") == 2);
    c.erase("hot");
    CHECK(!c.contains("hot"));
    c.clear();
    CHECK(c.size() == 0);
    CHECK(!c.contains("cold9999"));
}

TEST_CASE("bounded cache: an entry found in the old generation is moved, not copied", "[cache]") {
    BoundedCache<int, int> c(4);  // generations of 2
    c.put(1, 10);
    c.put(2, 20);
    c.put(3, 30);  // {1, 2} become the old generation
    REQUIRE(c.find(1));
    *c.find(1) = 11;  // the young copy is the one changed
    c.put(4, 40);
    c.put(5, 50);
    CHECK(c.size() <= 4);
    c.erase(1);
    CHECK(!c.find(1));  // no stale copy left behind in either generation
}

namespace {

constexpr double kNow = 1800000000;

bool host_is_seed(const std::string& db_path, const std::string& host) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, "SELECT seed FROM hosts WHERE name = ?", -1, &st, nullptr) == SQLITE_OK);
    sqlite3_bind_text(st, 1, host.c_str(), -1, SQLITE_TRANSIENT);
    bool seed = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL;
    sqlite3_finalize(st);
    sqlite3_close(db);
    return seed;
}

}  // namespace

TEST_CASE("seed marks: a host first seen by a link, a rollback, many hosts between", "[cache][add]") {
    TempDir dir;
    const std::string path = dir.path + "/f.db";
    Store store(path, Store::Mode::create);
    store.set_setting("scope.seed-domains", "false");  // the link is added, not out of scope
    Enqueuer enq(store);
    auto add = [&](const std::string& json) {
        Record r;
        REQUIRE(parse_record(json, r));
        return enq.add(r, kNow).outcome.status;
    };

    // A link makes the host's cache entry, not a seed's.
    store.begin();
    CHECK(add(R"({"url":"http://b.example/l","discovery":"link","depth":1})") == AddStatus::added);
    CHECK(add(R"({"url":"http://b.example/s"})") == AddStatus::added);
    store.commit();
    CHECK(host_is_seed(path, "http://b.example"));
    CHECK(Store(path, Store::Mode::read).is_seed_domain("b.example"));

    // Marks undone by a rollback are made again by the next seed.
    store.begin();
    CHECK(add(R"({"url":"http://c.example/1"})") == AddStatus::added);
    store.rollback();
    store.begin();
    CHECK(add(R"({"url":"http://c.example/2"})") == AddStatus::added);
    store.commit();
    CHECK(host_is_seed(path, "http://c.example"));
    CHECK(Store(path, Store::Mode::read).is_seed_domain("c.example"));

    // Seeds over many hosts, then one more seed on each of the first ones.
    store.begin();
    for (int i = 0; i < 3000; ++i)
        CHECK(add("{\"url\":\"http://h" + std::to_string(i) + ".example/\",\"discovery\":\"link\"}") ==
              AddStatus::added);
    for (int i = 0; i < 5; ++i)
        CHECK(add("{\"url\":\"http://h" + std::to_string(i) + ".example/seed\"}") == AddStatus::added);
    store.commit();
    for (int i = 0; i < 5; ++i) CHECK(host_is_seed(path, "http://h" + std::to_string(i) + ".example"));
    CHECK(!host_is_seed(path, "http://h5.example"));
}
