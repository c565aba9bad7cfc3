// A known URL added again (lib/policy/readd.hpp), without a database.
#include <catch2/catch.hpp>

#include "policy/readd.hpp"

using namespace frontier;

namespace {

constexpr double kNow = 1800000000;
constexpr double kDay = 86400;

AddRequest record(std::string discovery = "") {
    AddRequest r;
    r.record.discovery = std::move(discovery);
    r.now = kNow;
    return r;
}

Settings defaults() { return build_settings({}, {}); }

}  // namespace

TEST_CASE("a record that changes nothing is a duplicate", "[add][readd]") {
    Settings s = defaults();
    StoredUrl k;
    k.priority = 2;
    AddRequest r = record();
    CHECK_FALSE(readd(k, r, s).changed);
    r.record.priority = r.priority = 2;  // the same priority, given
    CHECK_FALSE(readd(k, r, s).changed);
    r.record.priority.reset();
    r.priority = 7;  // computed, not given: it does not replace the stored one
    CHECK_FALSE(readd(k, r, s).changed);
    r.record.priority = r.priority = 5;
    Readd d = readd(k, r, s);
    CHECK(d.changed);
    CHECK(d.priority == 5);
    CHECK(d.state == UrlState::queued);
    CHECK_FALSE(d.due_at);
}

TEST_CASE("revisiting turned on, and a newer lister date", "[add][readd]") {
    Settings s = defaults();
    StoredUrl k;
    AddRequest r = record();
    r.recrawl = true;
    Readd d = readd(k, r, s);
    CHECK(d.changed);
    CHECK(d.recrawl_on);
    CHECK(d.recrawl);
    k.recrawl = true;  // already revisited: nothing new
    CHECK_FALSE(readd(k, r, s).changed);
    r.record.last_modified = kNow - kDay;
    d = readd(k, r, s);
    CHECK(d.changed);
    CHECK_FALSE(d.recrawl_on);
    CHECK(d.last_modified == kNow - kDay);
    k.last_modified = kNow - kDay;  // the same date again
    CHECK_FALSE(readd(k, r, s).changed);
}

TEST_CASE("a disabled revisit comes back when listed, not when linked", "[add][readd]") {
    Settings s = defaults();
    StoredUrl k;
    k.state = UrlState::disabled;
    k.recrawl = true;
    for (const char* disc : {"", "frontier-add", "sitemap"}) {
        Readd d = readd(k, record(disc), s);
        CHECK(d.changed);
        CHECK(d.relisted);
        CHECK(d.state == UrlState::queued);
    }
    for (const char* disc : {"link", "redirect"}) CHECK_FALSE(readd(k, record(disc), s).changed);
}

TEST_CASE("visit_now requeues unless leased or blocked", "[add][readd]") {
    Settings s = defaults();
    StoredUrl k;
    k.state = UrlState::done;
    k.recrawl = true;
    k.successes = 1;
    k.last_success = kNow - kDay;
    k.due_at = kNow + 7 * kDay;  // the next revisit
    AddRequest r = record();
    r.record.visit_now = true;
    Readd d = readd(k, r, s);
    CHECK(d.state == UrlState::queued);
    CHECK_FALSE(d.due_at);
    for (UrlState st : {UrlState::leased, UrlState::blocked}) {
        k.state = st;
        CHECK_FALSE(readd(k, r, s).changed);
    }
}

TEST_CASE("a lister date newer than the last success brings a revisit forward", "[add][readd]") {
    Settings s = defaults();
    StoredUrl k;
    k.state = UrlState::done;
    k.recrawl = true;
    k.successes = 1;
    k.last_success = kNow - 30 * kDay;  // long enough ago: due now
    k.due_at = kNow + 7 * kDay;
    AddRequest r = record();
    r.record.last_modified = kNow - kDay;
    Readd d = readd(k, r, s);
    CHECK(d.state == UrlState::queued);
    CHECK_FALSE(d.due_at);
    // Visited an hour ago, changed since: due once recrawl.min-interval
    // (a day) has passed; it waits until then.
    k.last_success = kNow - 3600;
    r.record.last_modified = kNow - 60;
    d = readd(k, r, s);
    CHECK(d.state == UrlState::done);
    REQUIRE(d.due_at);
    CHECK(*d.due_at > kNow);
    CHECK(*d.due_at == kNow - 3600 + kDay);
    // A date older than the last success says nothing new: the due time stays.
    r.record.last_modified = kNow - 60 * kDay;
    d = readd(k, r, s);
    CHECK(d.due_at == kNow + 7 * kDay);
}

TEST_CASE("the fork flag changes only a queued URL never loaded", "[add][readd]") {
    Settings s = defaults();
    StoredUrl k;
    AddRequest r = record();
    r.record.fork = true;
    Readd d = readd(k, r, s);
    CHECK(d.changed);
    CHECK(d.tier.key >= kForkKey / 2);
    k.successes = 1;  // loaded once: not a fork any more for ordering
    CHECK_FALSE(readd(k, r, s).changed);
    k.successes = 0;
    k.fork = true;
    r.record.fork.reset();  // no flag: the stored one stays
    CHECK_FALSE(readd(k, r, s).changed);
}
