// The fingerprint filter in front of the probe (lib/store/fp_filter.hpp,
// lib/store/seen_fps.hpp): never "not added" for a key that was, few false
// "perhaps"; in a Store, a URL stays a duplicate whoever added it and
// whenever: another Store on the same file after this one built its
// filter, this transaction, a rolled-back transaction's id taken again by
// another process, a reopened frontier.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "frontier/enqueue.hpp"
#include "json/json.hpp"
#include "store/fp_filter.hpp"
#include "store/seen_fps.hpp"
#include "store/url_rows.hpp"
#include "store/store.hpp"
#include "temp_dir.hpp"

using namespace frontier;

namespace {

constexpr double kNow = 1800000000;

// Uniform 64-bit keys, as fingerprints are (SplitMix64).
uint64_t key(uint64_t i) {
    uint64_t x = i * 0x9e3779b97f4a7c15ULL + 12345;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

AddStatus add(Store& store, const std::string& url) {
    Enqueuer enq(store);
    Record r;
    REQUIRE(parse_record("{\"url\":\"" + url + "\"}", r));
    return enq.add(r, kNow).outcome.status;
}

AddStatus add_one(Store& store, const std::string& url) {
    store.begin();
    AddStatus s = add(store, url);
    store.commit();
    return s;
}

std::string url(int i) { return "http://h" + std::to_string(i % 7) + ".example/p" + std::to_string(i); }

}  // namespace

TEST_CASE("fingerprint filter: no key added is ever reported absent", "[seen][filter]") {
    FpFilter f(10000);
    for (uint64_t i = 0; i < 20000; ++i) f.add(key(i));  // twice its capacity
    for (uint64_t i = 0; i < 20000; ++i) REQUIRE(f.may_contain(key(i)));
    CHECK(f.added() == 20000);
    CHECK(!f.overloaded());
    f.add(key(0));
    CHECK(f.overloaded());
}

TEST_CASE("fingerprint filter: few false positives, 2 bytes a key", "[seen][filter]") {
    FpFilter f(100000);
    CHECK(f.bytes() <= 2 * 100000 + 64);
    for (uint64_t i = 0; i < 100000; ++i) f.add(key(i));
    int fp = 0;
    for (uint64_t i = 0; i < 100000; ++i) fp += f.may_contain(key(1000000 + i));
    CHECK(fp < 500);  // under 0.5% at capacity
    for (uint64_t i = 100000; i < 200000; ++i) f.add(key(i));
    fp = 0;
    for (uint64_t i = 0; i < 100000; ++i) fp += f.may_contain(key(1000000 + i));
    CHECK(fp < 5000);  // under 5% at twice its capacity
}

TEST_CASE("fingerprint filter: an empty or tiny filter works", "[seen][filter]") {
    FpFilter f(0);
    CHECK(f.bytes() == 64);
    CHECK(!f.may_contain(key(1)));
    f.add(key(1));
    CHECK(f.may_contain(key(1)));
}

TEST_CASE("seen filter: a URL another Store added meanwhile is a duplicate", "[seen][store]") {
    TempDir dir;
    const std::string path = dir.path + "/f.db";
    Store a(path, Store::Mode::create);
    for (int i = 0; i < 50; ++i) REQUIRE(add_one(a, url(i)) == AddStatus::added);
    REQUIRE(seen_filter_bytes(a) > 0);
    Store b(path, Store::Mode::write);
    CHECK(add_one(b, url(1)) == AddStatus::duplicate);
    for (int i = 50; i < 60; ++i) REQUIRE(add_one(b, url(i)) == AddStatus::added);
    // a opened and built its filter before b added these.
    for (int i = 50; i < 60; ++i) CHECK(add_one(a, url(i)) == AddStatus::duplicate);
    CHECK(add_one(a, url(60)) == AddStatus::added);
    CHECK(add_one(b, url(60)) == AddStatus::duplicate);
    // Twice in one transaction.
    a.begin();
    CHECK(add(a, url(61)) == AddStatus::added);
    CHECK(add(a, url(61)) == AddStatus::duplicate);
    a.commit();
    CHECK(a.count("added") == 62);
}

TEST_CASE("seen filter: a rolled-back row's id taken by another Store", "[seen][store]") {
    TempDir dir;
    const std::string path = dir.path + "/f.db";
    Store a(path, Store::Mode::create);
    for (int i = 0; i < 20; ++i) REQUIRE(add_one(a, url(i)) == AddStatus::added);
    REQUIRE(seen_filter_bytes(a) > 0);
    a.begin();
    REQUIRE(add(a, url(100)) == AddStatus::added);
    a.rollback();
    Store b(path, Store::Mode::write);
    REQUIRE(add_one(b, url(101)) == AddStatus::added);  // the id url(100) had
    CHECK(add_one(a, url(101)) == AddStatus::duplicate);
    CHECK(add_one(a, url(100)) == AddStatus::added);
    CHECK(add_one(b, url(100)) == AddStatus::duplicate);
}

TEST_CASE("seen filter: after a restart, and built in the middle of a transaction", "[seen][store]") {
    TempDir dir;
    const std::string path = dir.path + "/f.db";
    {
        Store a(path, Store::Mode::create);
        a.begin();
        for (int i = 0; i < 3200; ++i) REQUIRE(add(a, url(i)) == AddStatus::added);
        a.commit();
    }
    Store c(path, Store::Mode::write);
    c.begin();
    // 3,200 rows: built once 100 URLs were probed; this transaction's own
    // rows from before then are in it.
    for (int i = 3200; i < 3250; ++i) REQUIRE(add(c, url(i)) == AddStatus::added);
    CHECK(seen_filter_bytes(c) == 0);
    for (int i = 0; i < 100; ++i) REQUIRE(add(c, url(i)) == AddStatus::duplicate);
    CHECK(seen_filter_bytes(c) > 0);
    for (int i = 3200; i < 3250; ++i) CHECK(add(c, url(i)) == AddStatus::duplicate);
    for (int i = 100; i < 3200; ++i) REQUIRE(add(c, url(i)) == AddStatus::duplicate);
    CHECK(add(c, url(4000)) == AddStatus::added);
    CHECK(add(c, url(4000)) == AddStatus::duplicate);
    c.commit();
    CHECK(c.count("added") == 3251);
}

TEST_CASE("seen filter: built again, larger, as the frontier grows", "[seen][store]") {
    TempDir dir;
    Store a(dir.path + "/f.db", Store::Mode::create);
    REQUIRE(add_one(a, url(0)) == AddStatus::added);
    const size_t first = seen_filter_bytes(a);
    REQUIRE(first > 0);
    for (int t = 0; t < 12; ++t) {
        a.begin();
        for (int i = 1; i <= 1000; ++i) REQUIRE(add(a, url(t * 1000 + i)) == AddStatus::added);
        a.commit();
    }
    CHECK(seen_filter_bytes(a) > first);
    a.begin();
    for (int i = 0; i <= 12000; ++i) REQUIRE(add(a, url(i)) == AddStatus::duplicate);
    a.commit();
}

TEST_CASE("the fingerprint buffer holds 262,144 unless FRONTIER_FP_BUFFER is set", "[seen]") {
    if (std::getenv("FRONTIER_FP_BUFFER")) return;
    CHECK(fp_buffer_limit() == int64_t{1} << 18);
}
