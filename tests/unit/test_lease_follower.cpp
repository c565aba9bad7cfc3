// frontier-lease's batch and --follow loop (lib/frontier/lease_session.hpp,
// lease_follower.hpp) over a stand-in backend: lost batches leased again,
// polling against the leases out, and the stop.
#include <catch2/catch.hpp>
#include <deque>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "frontier/lease_follower.hpp"
#include "session_fakes.hpp"

using namespace frontier;
using namespace frontier::test;

namespace {

LeaseOutcome emitted(int n, int64_t in_flight) {
    LeaseOutcome r;
    r.status = LeaseStatus::emitted;
    for (int i = 0; i < n; ++i) {
        LeaseItem it;
        it.url = "http://a.example/" + std::to_string(i);
        it.lease = std::to_string(i + 1) + "-1";
        r.items.push_back(it);
    }
    r.in_flight = in_flight;
    return r;
}

LeaseOutcome with_status(LeaseStatus s, int64_t in_flight = 0) {
    LeaseOutcome r;
    r.status = s;
    r.in_flight = in_flight;
    return r;
}

// Answers lease() from a script (an empty optional: the connection is
// lost inside the transaction); once the script is done, `otherwise`.
class FakeLeaseBackend : public LeaseBackend {
public:
    explicit FakeLeaseBackend(EventLog& log) : log_(log) {}
    LeaseOutcome lease(LeaseRequest& req) override {
        log_.push_back("lease:" + std::to_string(req.n));
        if (script.empty()) return otherwise;
        std::optional<LeaseOutcome> r = script.front();
        script.pop_front();
        if (!r) {
            in_tx_ = true;
            throw ConnectionLost("the connection to the server was lost");
        }
        out = r->in_flight;
        return *r;
    }
    bool in_transaction() override { return in_tx_; }
    void rollback() override {
        log_.push_back("rollback");
        in_tx_ = false;
    }
    int64_t leases_out() override { return out; }
    int64_t queues_in_flight() override { return 0; }
    int64_t queued() override { return 0; }
    double lease_ttl() override { return 600; }
    int64_t data_version() override { return version; }
    bool can_wait_for_change() override { return can_wait; }
    bool wait_for_change(double) override {
        log_.push_back("wait");
        return false;
    }

    std::deque<std::optional<LeaseOutcome>> script;
    LeaseOutcome otherwise = with_status(LeaseStatus::finished);
    int64_t out = 0, version = 1;
    bool can_wait = false;

private:
    EventLog& log_;
    bool in_tx_ = false;
};

FollowOptions follow(int64_t n, int64_t max_in_flight) {
    FollowOptions f;
    f.n = n;
    f.max_in_flight = max_in_flight;
    f.stop = [] { return false; };
    return f;
}

}  // namespace

TEST_CASE("a follower leases a batch lost to a reconnect again", "[lease][session]") {
    EventLog log;
    FakeLeaseBackend backend(log);
    backend.script = {std::nullopt, emitted(2, 2)};
    RecordingSink sink(log);
    LeaseRequest req;
    CHECK(LeaseFollower(backend, req, sink, follow(10, 64)).run() == 0);
    CHECK(count_events(log, "lease:") == 3);  // lost, leased again, then finished
    CHECK(count_events(log, "rollback") == 1);
    CHECK(find_event(log, "rollback") < find_event(log, "line:", 0));
    REQUIRE(sink.lines.size() == 2);  // the lost batch printed nothing
    CHECK(sink.messages.front().find("--follow leases that batch again") != std::string::npos);
    CHECK(sink.messages.back() == "finished: nothing remains to lease");
}

TEST_CASE("a follower gives up after repeated lost batches", "[lease][session]") {
    EventLog log;
    FakeLeaseBackend backend(log);
    for (int i = 0; i < LeaseFollower::kMaxLostBatches; ++i) backend.script.push_back(std::nullopt);
    RecordingSink sink(log);
    LeaseRequest req;
    CHECK_THROWS_AS(LeaseFollower(backend, req, sink, follow(10, 64)).run(), ConnectionLost);
    CHECK(count_events(log, "lease:") == LeaseFollower::kMaxLostBatches);
}

TEST_CASE("a follower at --max-in-flight waits instead of leasing, and stops when asked",
          "[lease][session]") {
    EventLog log;
    FakeLeaseBackend backend(log);
    backend.can_wait = true;
    backend.script = {emitted(4, 4)};
    backend.otherwise = with_status(LeaseStatus::not_ready, 4);
    RecordingSink sink(log);
    LeaseRequest req;
    FollowOptions f = follow(100, 4);
    f.stop = [&] { return count_events(log, "wait") >= 3; };
    CHECK(LeaseFollower(backend, req, sink, f).run() == 0);
    // One full batch of min(-n, --max-in-flight); then the 4 leases out
    // hold it back until the stop.
    CHECK(count_events(log, "lease:") == 1);
    CHECK(log.front() == "lease:4");
    CHECK(sink.lines.size() == 4);
    CHECK(count_events(log, "wait") == 3);
}

TEST_CASE("a follower polls again once results bring the leases out down", "[lease][session]") {
    EventLog log;
    FakeLeaseBackend backend(log);
    backend.script = {emitted(2, 2), emitted(1, 1)};
    RecordingSink sink(log);
    LeaseRequest req;
    FollowOptions f = follow(2, 2);
    f.poll_interval = 0;
    int looks = 0;
    f.stop = [&] {
        // One look finds the 2 leases out and waits; then results came back.
        if (count_events(log, "lease:") == 1 && looks++ == 1) backend.out = 0;
        return false;
    };
    CHECK(LeaseFollower(backend, req, sink, f).run() == 0);
    CHECK(sink.lines.size() == 3);
    CHECK(looks == 2);
    CHECK(count_events(log, "lease:") == 3);  // the last one: finished
}

TEST_CASE("one batch of -n says why nothing was leased", "[lease][session]") {
    EventLog log;
    FakeLeaseBackend backend(log);
    backend.otherwise = with_status(LeaseStatus::finished);
    RecordingSink sink(log);
    LeaseRequest req;
    req.n = 3;
    CHECK(lease_once(backend, req, std::nullopt, false, sink) == 5);
    CHECK(req.ttl == 600);
    CHECK(sink.messages == std::vector<std::string>{"finished: nothing remains to lease"});
    backend.script = {emitted(3, 3)};
    req.n = 3;
    CHECK(lease_once(backend, req, 30.0, false, sink) == 0);
    CHECK(req.ttl == 30);
    CHECK(sink.lines.size() == 3);
}

TEST_CASE("a follower held at --max-in-flight by leases that expire leases again then",
          "[lease][session]") {
    // The 3 leases out are another pipeline's, gone: no result will bring
    // them back, and this follower's last batch took URLs (it learnt no due
    // time from a batch of nothing). It leases again once the first expires,
    // and that batch (which puts them back) finds the crawl finished.
    EventLog log;
    FakeLeaseBackend backend(log);
    LeaseOutcome r = emitted(1, 3);
    r.first_expiry = frontier::now() + 0.05;
    backend.script = {r};
    RecordingSink sink(log);
    LeaseRequest req;
    FollowOptions f = follow(1, 3);
    f.poll_interval = 0.01;
    int looks = 0;
    f.stop = [&] { return ++looks > 500; };  // a few seconds: long past the expiry
    CHECK(LeaseFollower(backend, req, sink, f).run() == 0);
    CHECK(count_events(log, "lease:") == 2);
    CHECK(looks < 500);
    REQUIRE(!sink.messages.empty());
    CHECK(sink.messages.back() == "finished: nothing remains to lease");
}

TEST_CASE("a follower whose batch did not say when leases expire leases again at its own ttl",
          "[lease][session]") {
    // As above, on a backend that did not know the first expiry (a
    // process's first lease on PostgreSQL): the leases out before the batch
    // expire by the time its own do.
    EventLog log;
    FakeLeaseBackend backend(log);
    backend.script = {emitted(1, 3)};
    RecordingSink sink(log);
    LeaseRequest req;
    FollowOptions f = follow(1, 3);
    f.ttl = 0.05;
    f.poll_interval = 0.01;
    int looks = 0;
    f.stop = [&] { return ++looks > 500; };
    CHECK(LeaseFollower(backend, req, sink, f).run() == 0);
    CHECK(count_events(log, "lease:") == 2);
    CHECK(looks < 500);
}
