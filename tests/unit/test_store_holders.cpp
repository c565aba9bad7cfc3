// Store::start_holder (frontier(7), LEASES): the leases of holders judged
// gone come back to their queues, only this host's holders are judged, an
// equal holder row is reused, a gone holder's row is deleted. The judgement
// is a stand-in here (lib/core/process_group is tested on its own). A new
// holder is recorded by the first lease after start_holder, in its
// transaction (pending until then); an equal stored row is reused at once.
#include <catch2/catch.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontier/enqueue.hpp"
#include "json/json.hpp"
#include "store/db.hpp"
#include "store/store.hpp"
#include "store_setup.hpp"
#include "temp_dir.hpp"

using namespace frontier;

namespace {

constexpr double kNow = 1800000000;

size_t lease(Store& store, std::optional<int64_t>& holder, int64_t n) {
    LeaseRequest r;
    r.n = n;
    r.per_queue = 100;
    r.now = kNow;
    r.holder = holder;
    size_t got = store.lease(r).items.size();
    holder = r.holder;  // a pending holder: recorded by this lease
    return got;
}

size_t lease(Store& store, std::nullopt_t, int64_t n) {
    std::optional<int64_t> none;
    return lease(store, none, n);
}

// Read on a connection of its own, as another process would.
int64_t holder_rows(const std::string& path) {
    std::unique_ptr<Db> db = Db::open(path, false, true);
    Stmt st = db->prepare("SELECT count(*) FROM lease_holders");
    return st.step() ? st.i64(0) : -1;
}

}  // namespace

TEST_CASE("lease holders: a gone holder's leases come back, no others", "[store][holders]") {
    TempDir dir;
    Store store(dir.path + "/f.db", Store::Mode::create);
    store.set_setting("robots.enabled", "false");
    politeness_off(store);
    Enqueuer enq(store);
    store.begin();
    for (const char* host : {"a", "b"})
        for (int i = 1; i <= 3; ++i) {
            Record r;
            REQUIRE(parse_record(std::string(R"({"url":"http://)") + host + ".example/" + std::to_string(i) + "\"}", r));
            REQUIRE(enq.add(r, kNow).outcome.status == AddStatus::added);
        }
    store.commit();

    GroupRecord one{"h1", "boot", 100, 5}, two{"h1", "boot", 200, 7}, far{"h2", "boot", 100, 5};
    auto none = [](const GroupRecord&) { return false; };
    Store::HolderStart h1 = store.start_holder(one, true, none, kNow);
    CHECK(h1.pending);
    CHECK(!h1.holder);
    CHECK(holder_rows(dir.path + "/f.db") == 0);  // not yet: with the first lease
    CHECK(lease(store, h1.holder, 2) == 2);
    REQUIRE(h1.holder);
    CHECK(holder_rows(dir.path + "/f.db") == 1);
    Store::HolderStart h2 = store.start_holder(two, true, none, kNow);
    CHECK(lease(store, h2.holder, 2) == 2);
    Store::HolderStart h3 = store.start_holder(far, true, none, kNow);
    CHECK(lease(store, h3.holder, 1) == 1);
    REQUIRE(h2.holder);
    REQUIRE(h3.holder);
    CHECK(holder_rows(dir.path + "/f.db") == 3);
    CHECK(lease(store, std::nullopt, 1) == 1);  // --detached
    CHECK(store.count("leased") == 6);
    CHECK(h1.reclaimed.empty());
    // The same group again: its row.
    Store::HolderStart again = store.start_holder(one, true, none, kNow);
    CHECK(again.holder == h1.holder);
    CHECK(!again.pending);
    Store::HolderStart detached = store.start_holder(one, false, none, kNow);
    CHECK(detached.holder == std::nullopt);
    CHECK(!detached.pending);
    CHECK(holder_rows(dir.path + "/f.db") == 3);

    // Group 100 of host h1 is gone: only h1's holders are judged (not h2's
    // group 100), its 2 leases come back, the others stay out.
    std::vector<int64_t> asked;
    auto gone100 = [&](const GroupRecord& g) {
        CHECK(g.host == "h1");
        asked.push_back(g.pgid);
        return g.pgid == 100;
    };
    Store::HolderStart r = store.start_holder(two, true, gone100, kNow);
    CHECK(asked == std::vector<int64_t>{100, 200});
    REQUIRE(r.reclaimed.size() == 1);
    CHECK(r.reclaimed[0].pgid == 100);
    CHECK(r.reclaimed[0].leases == 2);
    CHECK(r.holder == h2.holder);
    CHECK(store.count("leased") == 4);
    CHECK(store.count("queued") == 2);
    CHECK(store.count("leases_expired") == 2);
    // Its row is gone: judged no more; nothing left to reclaim.
    asked.clear();
    r = store.start_holder(two, false, [&](const GroupRecord& g) { asked.push_back(g.pgid); return true; }, kNow);
    CHECK(asked == std::vector<int64_t>{200});
    REQUIRE(r.reclaimed.size() == 1);
    CHECK(r.reclaimed[0].leases == 2);  // group 200's, now judged gone too
    CHECK(store.count("leased") == 2);  // h2's (another host) and the detached one
    CHECK(lease(store, std::nullopt, 100) == 4);
}
