// A lease call with a cap on the leases out (frontier-lease --follow)
// reports when the first lease out expires (LeaseOutcome::first_expiry),
// whatever it took: URL and robots.txt leases, its own included; none out,
// none reported; without a cap, not read.
#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "frontier/enqueue.hpp"
#include "json/json.hpp"
#include "store/store.hpp"
#include "store_setup.hpp"
#include "temp_dir.hpp"

using namespace frontier;

namespace {

constexpr double kNow = 1800000000;

LeaseOutcome lease(Store& store, double now, double ttl, int64_t n, int64_t max_in_flight) {
    LeaseRequest r;
    r.n = n;
    r.per_queue = 100;
    r.now = now;
    r.ttl = ttl;
    r.max_in_flight = max_in_flight;
    return store.lease(r);
}

void add(Store& store, const std::string& url) {
    Enqueuer enq(store);
    store.begin();
    Record r;
    REQUIRE(parse_record("{\"url\":\"" + url + "\"}", r));
    REQUIRE(enq.add(r, kNow).outcome.status == AddStatus::added);
    store.commit();
}

}  // namespace

TEST_CASE("a capped lease reports when the first lease out expires", "[store][lease]") {
    TempDir dir;
    Store store(dir.path + "/f.db", Store::Mode::create);
    store.set_setting("robots.enabled", "false");
    politeness_off(store);
    for (int i = 1; i <= 3; ++i) add(store, "http://a.example/" + std::to_string(i));

    LeaseOutcome first = lease(store, kNow, 30, 1, 10);
    REQUIRE(first.items.size() == 1);
    REQUIRE(first.first_expiry);
    CHECK(*first.first_expiry == Approx(kNow + 30));  // its own
    LeaseOutcome second = lease(store, kNow + 5, 30, 1, 10);
    REQUIRE(second.items.size() == 1);
    REQUIRE(second.first_expiry);
    CHECK(*second.first_expiry == Approx(kNow + 30));  // the earlier one's
    // Without a cap (a single batch), not read.
    CHECK(!lease(store, kNow + 6, 30, 1, -1).first_expiry);
    // All three out: a capped call that takes nothing reports it too.
    LeaseOutcome none = lease(store, kNow + 7, 30, 1, 3);
    CHECK(none.items.empty());
    REQUIRE(none.first_expiry);
    CHECK(*none.first_expiry == Approx(kNow + 30));
}

TEST_CASE("a capped lease counts a robots.txt lease's expiry", "[store][lease]") {
    TempDir dir;
    Store store(dir.path + "/f.db", Store::Mode::create);
    politeness_off(store);
    add(store, "http://b.example/1");
    LeaseOutcome robots = lease(store, kNow, 20, 1, 10);
    REQUIRE(robots.items.size() == 1);
    CHECK(robots.items[0].robots);
    REQUIRE(robots.first_expiry);
    CHECK(*robots.first_expiry == Approx(kNow + 20));
}
