// Values of the right type that are still impossible (a fault campaign):
// lease ids in another spelling, HTTP statuses outside 100-999 (0 only
// with an error class), fetch times outside
// [1990-01-01, now + 1 day], and frontier-budget --apply lines the options
// would refuse or that are not edits at all.
#include <catch2/catch.hpp>

#include "policy/budget_edit.hpp"
#include "frontier/done.hpp"
#include "frontier/enqueue.hpp"
#include "core/error.hpp"
#include "policy/settings.hpp"
#include "store/store.hpp"
#include "temp_dir.hpp"

using namespace frontier;

namespace {

constexpr double kNow = 1800000000;

// frontier-done's answer to one JSON line: "result reason field".
std::string done(DoneProcessor& p, const char* json) {
    InputLine line;
    line.line_no = 1;
    REQUIRE(parse_record(json, line.record));
    bool rejected = false;
    std::string out = p.process(line, kNow, rejected);
    Record r;
    REQUIRE(parse_record(out, r));
    return r.get_string("result").value_or("") + " " + r.get_string("reason").value_or("") + " " +
           r.get_string("field").value_or("");
}

BudgetEdit edit(const char* json) {
    Record r;
    REQUIRE(parse_record(json, r));
    return parse_budget_edit(r);
}

}  // namespace

TEST_CASE("frontier-done: lease ids in frontier-lease's form only", "[done][bounds]") {
    TempDir dir;
    Store store(dir.path + "/f.db", Store::Mode::create);
    DoneProcessor p(store);
    for (const char* bad : {"0x1-1", "1-0x1", "01-1", "1-01", "+1-1", "-1-1", " 1-1", "1-1 ", "1F-1", "1-1-1", "1-",
                            "-1", "1", "", "r0x1-1", "r01-1", "R1-1", "rr1-1", "1-\u00e9",
                            "1-111111111111111111111111111111111111111"}) {
        std::string json = std::string(R"({"lease":")") + bad + R"(","status":200})";
        INFO(bad);
        if (*bad) CHECK(done(p, json.c_str()) == "rejected bad-lease ");
    }
    // Canonical ids of leases that do not exist, even past any row id: stale,
    // not rejected.
    for (const char* good : {"1-1", "ff-1", "7fffffffffffffff-1", "0-0", "r1-1", "r2a-3", "8000000000000000-1",
                             "ffffffffffffffffffff-1", "r10000000000000001-1"}) {
        std::string json = std::string(R"({"lease":")") + good + R"(","status":200})";
        INFO(good);
        CHECK(done(p, json.c_str()) == "stale  ");
    }
}

TEST_CASE("frontier-done: status and fetched_at must be possible", "[done][bounds]") {
    TempDir dir;
    Store store(dir.path + "/f.db", Store::Mode::create);
    DoneProcessor p(store);
    for (const char* json : {R"({"lease":"1-1","status":-1})", R"({"lease":"1-1","status":2147483648})",
                             R"({"lease":"1-1","status":99})", R"({"lease":"1-1","status":1000})",
                             R"({"lease":"1-1","status":0})", R"({"lease":"1-1","status":-1,"error_class":"dns"})"}) {
        INFO(json);
        CHECK(done(p, json) == "rejected bad-field status");
    }
    for (const char* json : {R"({"lease":"1-1","status":200,"fetched_at":-1e18})",
                             R"({"lease":"1-1","status":200,"fetched_at":"9999-12-31T23:59:59Z"})",
                             R"({"lease":"1-1","status":200,"fetched_at":631151999})",
                             R"({"lease":"1-1","status":200,"fetched_at":1800086401})"}) {
        INFO(json);
        CHECK(done(p, json) == "rejected bad-field fetched_at");
    }
    for (const char* json : {R"({"lease":"1-1","status":100})", R"({"lease":"1-1","status":999})",
                             R"({"lease":"1-1","status":0,"error_class":"dns"})", R"({"lease":"1-1","error_class":"dns"})",
                             R"({"lease":"1-1","status":200,"fetched_at":631152000})",
                             R"({"lease":"1-1","status":200,"fetched_at":1800086400})",
                             R"({"lease":"1-1","status":200,"fetched_at":"2027-01-15T08:00:00Z"})"}) {
        INFO(json);
        CHECK(done(p, json) == "stale  ");
    }
}

TEST_CASE("frontier-done: duration_ms must be a measurement", "[done][bounds]") {
    TempDir dir;
    Store store(dir.path + "/f.db", Store::Mode::create);
    DoneProcessor p(store);
    for (const char* json : {R"({"lease":"1-1","status":200,"duration_ms":-1})",
                             R"({"lease":"1-1","status":200,"duration_ms":604800000})",
                             R"({"lease":"1-1","status":200,"duration_ms":1e300})"}) {
        INFO(json);
        CHECK(done(p, json) == "rejected bad-field duration_ms");
    }
    for (const char* json : {R"({"lease":"1-1","status":200,"duration_ms":0})",
                             R"({"lease":"1-1","status":200,"duration_ms":604799999})"}) {
        INFO(json);
        CHECK(done(p, json) == "stale  ");
    }
}

TEST_CASE("frontier-add: a lister's last_modified must be a possible time", "[add][bounds]") {
    TempDir dir;
    Store store(dir.path + "/f.db", Store::Mode::create);
    Enqueuer enq(store);
    auto add = [&](const char* json) {
        Record r;
        REQUIRE(parse_record(json, r));
        EnqueueResult res = enq.add(r, kNow);
        return std::string(add_status_name(res.outcome.status)) + " " + add_reason_name(res.outcome.reason) + " " + res.field;
    };
    for (const char* json : {R"({"url":"http://a.example/1","last_modified":-1e18})",
                             R"({"url":"http://a.example/2","last_modified":"9999-12-31T23:59:59Z"})",
                             R"({"url":"http://a.example/3","last_modified":631151999})"}) {
        INFO(json);
        CHECK(add(json) == "rejected bad-field last_modified");
    }
    CHECK(add(R"({"url":"http://a.example/4","last_modified":"2026-01-01T00:00:00Z"})") == "added  ");
}

TEST_CASE("frontier-budget: --apply checks what the options check", "[budget][bounds]") {
    // budget.total is -1 (none) or at least 0, budget.replenish at least 0,
    // through frontier-config, the options and --apply alike.
    CHECK(normalise_setting("budget.total", "-1") == "-1");
    CHECK(normalise_setting("budget.total", "0") == "0");
    CHECK_THROWS_AS(normalise_setting("budget.total", "-2"), UsageError);
    CHECK_THROWS_AS(normalise_setting("budget.total", "-9223372036854775808"), UsageError);
    CHECK(normalise_setting("budget.replenish", "0") == "0");
    CHECK_THROWS_AS(normalise_setting("budget.replenish", "-5"), UsageError);
    CHECK(edit(R"({"replenish":-5})").reason == "bad-value");
    for (const char* ok : {"example.org", "a-b_c.example", "127.0.0.1:8080", "[::1]:8080", "xn--bcher-kva.example"})
        CHECK(budget_scope_problem(ok).empty());
    for (std::string bad : {std::string(""), std::string("a b"), std::string("a\0b", 3), std::string("a\tb"),
                            std::string("b\xc3\xbc" "cher.de"), std::string("a/b"), std::string(261, 'a')}) {
        INFO(bad);
        CHECK(!budget_scope_problem(bad).empty());
    }
    CHECK(edit(R"({"total_budget":-5})").reason == "bad-value");
    CHECK(edit(R"({"total_budget":-5})").field == "total_budget");
    CHECK(edit(R"({"queue":"a.example","total_budget":-1})").reason.empty());
    CHECK(edit(R"({"domain":"a\u0000b","replenish":1})").reason == "bad-value");
    CHECK(edit(R"({"domain":"a\u0000b","replenish":1})").field == "domain");
    CHECK(edit(R"({"queue":"a b","replenish":1})").field == "queue");
    // Not an edit at all: rejected, not skipped.
    CHECK(edit(R"({})").reason == "not-an-edit");
    CHECK(edit(R"({"url":"hello world"})").reason == "not-an-edit");  // what a bare line reads as
    CHECK(edit(R"({"totalbudget":5})").reason == "not-an-edit");
    CHECK(edit(R"({"queue":null,"domain":null})").reason == "not-an-edit");
    // A report row with nothing to change is still only skipped.
    BudgetEdit e = edit(R"({"queue":"a.example","size":3})");
    CHECK(e.reason.empty());
    CHECK(e.empty());
}
