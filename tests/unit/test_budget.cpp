#include <catch2/catch.hpp>

#include "policy/budget_edit.hpp"

using namespace frontier;

namespace {
BudgetEdit edit(const char* json) {
    Record r;
    REQUIRE(parse_record(json, r));
    return parse_budget_edit(r);
}
}  // namespace

TEST_CASE("budget edits: scopes and values", "[budget]") {
    BudgetEdit e = edit(R"({"queue":"A.Example","total_budget":5,"state":"retired","size":3})");
    CHECK(e.reason.empty());
    CHECK(e.queue == "a.example");
    CHECK(e.total_budget == 5);
    CHECK(!e.replenish);
    CHECK(!e.empty());

    e = edit(R"({"domain":"example.org","replenish":0})");
    CHECK(e.reason.empty());
    CHECK(e.domain == "example.org");
    CHECK(e.replenish == 0);

    e = edit(R"({"hold_queues":"off","cost_policy":"wag","error_penalty":100})");
    CHECK(e.reason.empty());
    CHECK(e.hold_queues == "false");
    CHECK(e.cost_policy == "\"wag\"");
    CHECK(e.error_penalty == "100");

    e = edit(R"({"queue":"a.example","size":3,"total_budget":null})");
    CHECK(e.reason.empty());
    CHECK(e.empty());
}

TEST_CASE("budget edits: rejections", "[budget]") {
    CHECK(edit(R"({"queue":"a","total_budget":"x"})").reason == "bad-field");
    CHECK(edit(R"({"queue":"a","total_budget":1.5})").reason == "bad-field");
    CHECK(edit(R"({"queue":1,"replenish":1})").reason == "bad-field");
    CHECK(edit(R"({"queue":"","replenish":1})").reason == "bad-value");
    CHECK(edit(R"({"cost_policy":"free"})").reason == "bad-value");
    CHECK(edit(R"({"queue":"a","domain":"b","replenish":1})").reason == "two-scopes");
    CHECK(edit(R"({"retire":true})").reason == "needs-queue");
    CHECK(edit(R"({"domain":"b","unretire":true})").reason == "needs-queue");
    CHECK(edit(R"({"queue":"a","retire":true,"unretire":true})").reason == "conflict");
    BudgetEdit e = edit(R"({"domain":"b","error_penalty":3})");
    CHECK(e.reason == "global-only");
    CHECK(e.field == "error_penalty");
}
