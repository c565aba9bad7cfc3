// A host's robots.txt rules as a lease matches URLs against them
// (frontier(7), ROBOTS.TXT): a robots.txt fetched again and stored by
// another process (frontier-done) applies to this process's next lease,
// though this process parsed the old rules before (a frontier-lease
// --follow runs for days; its parsed rules are kept by their fetch time).
#include <algorithm>
#include <memory>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "frontier/done.hpp"
#include "frontier/enqueue.hpp"
#include "json/json.hpp"
#include "store/db.hpp"
#include "store/store.hpp"
#include "store_setup.hpp"
#include "temp_dir.hpp"

using namespace frontier;

namespace {

constexpr double kNow = 1800000000;

std::vector<LeaseItem> lease(Store& store, double now, int64_t n, int64_t per_queue = 100) {
    LeaseRequest r;
    r.n = n;
    r.per_queue = per_queue;
    r.now = now;
    return store.lease(r).items;
}

// frontier-done of a robots.txt lease, answered 200 with `body_json` (a
// JSON string's contents).
void store_robots(Store& store, DoneProcessor& p, const LeaseItem& it, const std::string& body_json,
                  double now) {
    InputLine line;
    line.line_no = 1;
    REQUIRE(parse_record(R"({"url":")" + it.url + R"(","lease":")" + it.lease + R"(","status":200,"body":")" +
                             body_json + "\"}",
                         line.record));
    bool rejected = false;
    store.begin();
    p.process(line, now, rejected);
    store.commit();
    REQUIRE_FALSE(rejected);
}

std::vector<std::string> urls(const std::vector<LeaseItem>& items) {
    std::vector<std::string> out;
    for (const LeaseItem& it : items) out.push_back(it.url);
    return out;
}

}  // namespace

TEST_CASE("lease: a robots.txt stored again by another process applies at once", "[store][robots]") {
    TempDir dir;
    Store leaser(dir.path + "/f.db", Store::Mode::create);
    politeness_off(leaser);
    Enqueuer enq(leaser);
    leaser.begin();
    for (const char* path : {"x", "y", "z", "w"}) {
        Record r;
        REQUIRE(parse_record(std::string(R"({"url":"http://a.example/)") + path + "\"}", r));
        REQUIRE(enq.add(r, kNow).outcome.status == AddStatus::added);
    }
    leaser.commit();
    Store doer(dir.path + "/f.db", Store::Mode::write);
    DoneProcessor done(doer);

    std::vector<LeaseItem> first = lease(leaser, kNow, 10);
    REQUIRE(first.size() == 1);
    REQUIRE(first[0].robots);
    store_robots(doer, done, first[0], "User-agent: *\\nDisallow: /x\\n", kNow);
    // /x is blocked by the rules, /y leased.
    CHECK(urls(lease(leaser, kNow, 1)) == std::vector<std::string>{"http://a.example/y"});

    // A day later the robots.txt is fetched again, and now disallows /z.
    const double later = kNow + 25 * 3600;
    std::vector<LeaseItem> again = lease(leaser, later, 10);
    REQUIRE(again.size() == 1);
    REQUIRE(again[0].robots);
    store_robots(doer, done, again[0], "User-agent: *\\nDisallow: /z\\n", later);
    std::vector<std::string> got = urls(lease(leaser, later, 10));
    CHECK(std::find(got.begin(), got.end(), "http://a.example/z") == got.end());
    CHECK(std::find(got.begin(), got.end(), "http://a.example/w") != got.end());
    std::unique_ptr<Db> conn = Db::open(dir.path + "/f.db", false, true);
    Stmt st = conn->prepare("SELECT reason FROM urls WHERE url = 'http://a.example/z'");
    REQUIRE(st.step());
    CHECK(st.text(0) == "robots");
}

TEST_CASE("lease: disallowed URLs right behind a leased one end with it", "[store][robots]") {
    // Left queued, a disallowed last URL would hold its queue (and the end
    // of a crawl) for min-delay after the last allowed one.
    TempDir dir;
    Store store(dir.path + "/f.db", Store::Mode::create);
    store.set_setting("politeness.min-delay", "5");
    store.set_setting("politeness.delay-factor", "0");
    store.set_setting("politeness.max-in-flight", "100");
    Enqueuer enq(store);
    store.begin();
    for (const char* path : {"a", "private/1", "b", "private/2", "private/3"}) {
        Record r;
        REQUIRE(parse_record(std::string(R"({"url":"http://a.example/)") + path + "\"}", r));
        REQUIRE(enq.add(r, kNow).outcome.status == AddStatus::added);
    }
    store.commit();
    DoneProcessor done(store);
    std::vector<LeaseItem> first = lease(store, kNow, 10);
    REQUIRE(first.size() == 1);
    REQUIRE(first[0].robots);
    store_robots(store, done, first[0], "User-agent: *\\nDisallow: /private\\n", kNow);
    // One URL a call from the queue (--per-queue 1): /private/1 ends with
    // /a's lease, /private/2 and /3 with /b's, not min-delay later.
    CHECK(urls(lease(store, kNow + 5, 10, 1)) == std::vector<std::string>{"http://a.example/a"});
    CHECK(store.count("blocked") == 1);
    CHECK(urls(lease(store, kNow + 10, 10, 1)) == std::vector<std::string>{"http://a.example/b"});
    CHECK(store.count("queued") == 0);
    CHECK(store.count("blocked") == 3);
    std::unique_ptr<Db> conn = Db::open(dir.path + "/f.db", false, true);
    Stmt st = conn->prepare("SELECT count(*) FROM urls WHERE reason = 'robots' AND state = ?");
    st.bind(1, static_cast<int64_t>(UrlState::blocked));
    REQUIRE(st.step());
    CHECK(st.i64(0) == 3);
}
