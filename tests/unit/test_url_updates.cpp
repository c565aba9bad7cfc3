// frontier-done's held URL-row updates (lib/store/url_updates.hpp): every column
// comes back as it went in (NULLs included), one update per row, written in
// row-id order, and nothing stays held after a write, even a failed one.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

#include "store/url_updates.hpp"

using namespace frontier;

namespace {

UrlUpdate sample(int64_t id) {
    UrlUpdate u;
    u.id = id;
    u.state = 2;
    u.fetched_at = 1800000000.5;
    u.last_visit = 1800000001;
    u.retries = 1;
    u.failures = 2;
    u.visits = 3;
    u.successes = 4;
    u.changes = 5;
    u.tier = 1;
    u.tier_key = -7.25;
    if (id % 2) {
        u.due = 1800003600;
        u.reason = "http-503 (retries exhausted)";
        u.status = 503;
        u.error_class = "";  // an empty string is not NULL
        u.etag = "\"e" + std::to_string(id) + "\"";
        u.http_last_modified = "Wed, 25 Nov 2026 07:00:00 GMT";
        u.content_hash = std::string(64, 'a');
        u.last_success = 1799990000;
        u.interval = 86400;
        u.next_visit = 1800086400;
        u.first_success = 1800000000;
    }
    return u;
}

void require_same(const UrlUpdate& a, const UrlUpdate& b) {
    REQUIRE(a.id == b.id);
    REQUIRE(a.state == b.state);
    REQUIRE(a.due == b.due);
    REQUIRE(a.reason == b.reason);
    REQUIRE(a.status == b.status);
    REQUIRE(a.error_class == b.error_class);
    REQUIRE(a.fetched_at == b.fetched_at);
    REQUIRE(a.etag == b.etag);
    REQUIRE(a.http_last_modified == b.http_last_modified);
    REQUIRE(a.content_hash == b.content_hash);
    REQUIRE(a.retries == b.retries);
    REQUIRE(a.failures == b.failures);
    REQUIRE(a.last_visit == b.last_visit);
    REQUIRE(a.last_success == b.last_success);
    REQUIRE(a.visits == b.visits);
    REQUIRE(a.successes == b.successes);
    REQUIRE(a.changes == b.changes);
    REQUIRE(a.interval == b.interval);
    REQUIRE(a.next_visit == b.next_visit);
    REQUIRE(a.tier == b.tier);
    REQUIRE(a.tier_key == b.tier_key);
    REQUIRE(a.first_success == b.first_success);
}

}  // namespace

TEST_CASE("held URL updates: written in row-id order with every column intact", "[done][updates]") {
    PendingUrlUpdates p;
    const std::vector<int64_t> ids = {907, 3, 15000000000LL, 42, 8, 1};
    for (int64_t id : ids) p.add(sample(id));
    REQUIRE(p.size() == ids.size());
    REQUIRE(p.holds(42));
    REQUIRE_FALSE(p.holds(43));

    // take: one row's update comes out whole and is no longer held
    auto t = p.take(42);
    REQUIRE(t);
    require_same(*t, sample(42));
    REQUIRE_FALSE(p.holds(42));
    REQUIRE_FALSE(p.take(42));

    std::vector<int64_t> written;
    p.drain([&](const UrlUpdate& u) {
        require_same(u, sample(u.id));
        written.push_back(u.id);
    });
    REQUIRE(written == std::vector<int64_t>{1, 3, 8, 907, 15000000000LL});
    REQUIRE(p.size() == 0);
    REQUIRE_FALSE(p.holds(907));
}

TEST_CASE("held URL updates: a later update of a row replaces the earlier", "[done][updates]") {
    PendingUrlUpdates p;
    UrlUpdate a = sample(5);
    UrlUpdate b = sample(5);
    b.state = 3;
    b.visits = 9;
    p.add(a);
    p.add(b);
    REQUIRE(p.size() == 1);
    int n = 0;
    p.drain([&](const UrlUpdate& u) {
        ++n;
        require_same(u, b);
    });
    REQUIRE(n == 1);
}

TEST_CASE("held URL updates: a failed write leaves nothing held", "[done][updates]") {
    PendingUrlUpdates p;
    for (int64_t id = 1; id <= 10; ++id) p.add(sample(id));
    int calls = 0;
    REQUIRE_THROWS_AS(p.drain([&](const UrlUpdate&) {
        if (++calls == 4) throw std::runtime_error("disk full");
    }),
                      std::runtime_error);
    REQUIRE(calls == 4);
    REQUIRE(p.size() == 0);
    REQUIRE_FALSE(p.holds(7));
    // and the list is usable again
    p.add(sample(2));
    REQUIRE(p.holds(2));
}

TEST_CASE("held URL updates: full at kMaxHeld", "[done][updates]") {
    PendingUrlUpdates p;
    for (size_t i = 0; i + 1 < PendingUrlUpdates::kMaxHeld; ++i) p.add(sample(static_cast<int64_t>(i) * 2));
    REQUIRE_FALSE(p.full());
    p.add(sample(-1));
    REQUIRE(p.full());
    size_t n = 0;
    int64_t last = -2;
    p.drain([&](const UrlUpdate& u) {
        REQUIRE(u.id > last);
        last = u.id;
        ++n;
    });
    REQUIRE(n == PendingUrlUpdates::kMaxHeld);
    REQUIRE_FALSE(p.full());
}
