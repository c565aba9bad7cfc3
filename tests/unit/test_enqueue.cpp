// The add path's shapes (lib/frontier/enqueue.hpp, lib/policy/model.hpp):
// one record moved along, outcomes as AddReason with one table of words.
#include <catch2/catch.hpp>

#include <set>

#include "frontier/enqueue.hpp"
#include "store/store.hpp"
#include "temp_dir.hpp"

using namespace frontier;

namespace {

constexpr double kNow = 1800000000;

// Every AddReason, in the enum's order.
std::vector<AddReason> all_reasons() {
    std::vector<AddReason> v;
    for (int i = 0; i <= static_cast<int>(AddReason::queue_full); ++i) v.push_back(static_cast<AddReason>(i));
    return v;
}

}  // namespace

TEST_CASE("add reasons: the words the tools print, and back", "[add][reason]") {
    std::set<std::string> seen;
    for (AddReason r : all_reasons()) {
        std::string name = add_reason_name(r);
        INFO(name);
        CHECK(seen.insert(name).second);  // one word per reason
        REQUIRE(add_reason_from_name(name));
        CHECK(*add_reason_from_name(name) == r);
    }
    CHECK(std::string(add_reason_name(AddReason::none)).empty());
    CHECK(std::string(add_reason_name(AddReason::bad_url)) == "bad-url");
    CHECK(std::string(add_reason_name(AddReason::bad_scheme)) == "bad-scheme");
    CHECK(std::string(add_reason_name(AddReason::bad_field)) == "bad-field");
    CHECK(std::string(add_reason_name(AddReason::bad_priority)) == "bad-priority");
    CHECK(std::string(add_reason_name(AddReason::missing_url)) == "missing-url");
    CHECK(std::string(add_reason_name(AddReason::url_too_long)) == "url-too-long");
    CHECK(std::string(add_reason_name(AddReason::out_of_scope)) == "out-of-scope");
    CHECK(std::string(add_reason_name(AddReason::max_depth)) == "max-depth");
    CHECK(std::string(add_reason_name(AddReason::queue_full)) == "queue-full");
    CHECK_FALSE(add_reason_from_name("no-such-reason"));
    // LineReader's reasons (lib/json/json.hpp, InputLine) and
    // canonicalize_url's are words of the table.
    for (const char* w : {"bad-json", "bad-utf8", "nul-byte", "line-too-long", "not-object"}) {
        INFO(w);
        CHECK(add_reason_from_name(w));
    }
    CHECK(add_reason_from_name(canonicalize_url("ftp://example.com/").reason) == AddReason::bad_scheme);
    CHECK(add_reason_from_name(canonicalize_url("http://").reason) == AddReason::bad_url);
    CHECK(add_reason_from_name(canonicalize_url("not a url").reason) == AddReason::bad_url);
}

TEST_CASE("the add path: one record, read, prepared and stored in place", "[add][enqueue]") {
    TempDir dir;
    Store store(dir.path + "/f.db", Store::Mode::create);
    store.set_setting("scope.max-depth", "2");
    store.set_setting("scope.exclude", R"(["/private/"])");
    store.set_setting("recrawl.types", R"(["hub"])");
    Enqueuer enq(store);
    store.begin();
    auto add = [&](const char* json) {
        Record r;
        REQUIRE(parse_record(json, r));
        return enq.add(r, kNow);
    };
    auto reason = [&](const char* json) { return std::string(add_reason_name(add(json).outcome.reason)); };

    EnqueueResult e = add(R"({"url":"HTTP://A.example/x","type":"hub","via":"http://a.example/","meta":{"k":"v"}})");
    CHECK(e.outcome.status == AddStatus::added);
    CHECK(e.outcome.reason == AddReason::none);
    CHECK(e.req.url.url == "http://a.example/x");
    CHECK(e.req.record.url == "HTTP://A.example/x");  // the record as given
    CHECK(e.req.record.via == "http://a.example/");
    CHECK(e.req.record.meta == R"({"k":"v"})");
    CHECK(e.req.queue_key == "a.example");
    CHECK(e.req.recrawl);  // a recrawl.types type
    CHECK(e.priority_source == "base");
    CHECK(add(R"({"url":"http://a.example/x"})").outcome.status == AddStatus::duplicate);
    EnqueueResult given = add(R"({"url":"http://a.example/y","priority":-3,"cost":7})");
    CHECK(given.req.priority == -3);
    CHECK(given.req.cost == 7);
    CHECK(given.priority_source.empty());  // not computed

    CHECK(reason(R"({"type":"hub"})") == "missing-url");
    CHECK(reason(R"({"url":null})") == "bad-url");
    CHECK(reason(R"({"url":5})") == "bad-field");
    CHECK(reason(R"({"url":"ftp://a.example/"})") == "bad-scheme");
    EnqueueResult bad = add(R"({"url":"http://a.example/z","depth":"deep"})");
    CHECK(add_reason_name(bad.outcome.reason) == std::string("bad-field"));
    CHECK(bad.field == "depth");
    CHECK(bad.req.url.url.empty());  // never canonicalised
    std::string long_url = R"({"url":"http://a.example/)" + std::string(kMaxUrlBytes, 'a') + "\"}";
    CHECK(reason(long_url.c_str()) == "url-too-long");
    EnqueueResult out = add(R"({"url":"http://a.example/private/1"})");
    CHECK(add_reason_name(out.outcome.reason) == std::string("out-of-scope"));
    CHECK(out.req.url.url == "http://a.example/private/1");  // canonical, printed with the rejection
    CHECK(reason(R"({"url":"http://a.example/deep","depth":3})") == "max-depth");
    // A discovery outside the seeds' domains: the seed-domain check comes
    // before max-depth.
    CHECK(reason(R"({"url":"http://b.example/deep","depth":3,"discovery":"link"})") == "out-of-scope");
    CHECK(reason(R"({"url":"http://a.example/big","bonuses":{"a":1e308,"b":1e308}})") == "bad-priority");
    store.commit();
}

TEST_CASE("discovered links: outcomes only, a known link at once", "[add][enqueue]") {
    TempDir dir;
    Store store(dir.path + "/f.db", Store::Mode::create);
    store.set_setting("scope.max-depth", "1");
    Enqueuer enq(store);
    store.begin();
    Record seed;
    REQUIRE(parse_record(R"({"url":"http://a.example/"})", seed));
    REQUIRE(enq.add(seed, kNow).outcome.status == AddStatus::added);
    Discovered d;
    d.url = "http://a.example/next";
    d.via = "http://a.example/";
    d.depth = 1;
    d.discovery = "link";
    AddResult r = enq.add_discovered(d, kNow);
    CHECK(r.status == AddStatus::added);
    r = enq.add_discovered(d, kNow);  // known: no canonicalisation, no read
    CHECK(r.status == AddStatus::duplicate);
    CHECK(r.reason == AddReason::none);
    d.depth = 2;
    r = enq.add_discovered(d, kNow);
    CHECK(r.status == AddStatus::rejected);
    CHECK(r.reason == AddReason::max_depth);
    d.url = "mailto:x@a.example";
    d.depth = 1;
    CHECK(enq.add_discovered(d, kNow).reason == AddReason::bad_scheme);
    store.commit();
}

TEST_CASE("a link's target: its queue, host, domain and fingerprint, under the settings", "[add][enqueue]") {
    TempDir dir;
    Store store(dir.path + "/f.db", Store::Mode::create);
    Enqueuer enq(store);
    Discovered d;
    d.url = "http://WWW.a.example:80/x#frag";
    d.via = "http://a.example/";
    d.depth = 1;
    d.discovery = "link";
    std::optional<Enqueuer::Target> t = enq.target_of(d);
    REQUIRE(t);
    CHECK(t->queue_key == "www.a.example");
    CHECK(t->host_key == "http://www.a.example");
    CHECK(t->domain == "a.example");
    CHECK(t->fp == url_fingerprint("http://www.a.example/x"));
    // Out of scope once the settings say so; in again after.
    store.set_setting("scope.exclude", R"(["^http://www\\.a\\.example/"])");
    CHECK_FALSE(enq.target_of(d));
    store.set_setting("scope.exclude", "[]");
    REQUIRE(enq.target_of(d));
    // Past scope.max-depth: still a target (max-depth is checked by depth, later).
    store.set_setting("scope.max-depth", "0");
    REQUIRE(enq.target_of(d));
    CHECK(enq.target_of(d)->fp == t->fp);
    d.url = "mailto:x@a.example";
    CHECK_FALSE(enq.target_of(d));
}
