// The order frontier-lease takes queues in (lib/policy/lease_order.hpp),
// without a database: a small model of the ready index feeds LeaseOrder as
// Store::lease does, and the sequence of queues it takes is checked.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "policy/lease_order.hpp"

using namespace frontier;

namespace {

// A queue of the model: URLs of one class each, best rank first.
struct ModelQueue {
    std::vector<std::pair<double, int>> urls;  // (rank, class)
    int64_t served = 0;
};

// Runs a batch of `want` leases over `queues` (ids 1..N in the map) the way
// Store::LeaseRun::run drives LeaseOrder; returns "qid" per lease.
std::vector<int64_t> batch(std::map<int64_t, ModelQueue> queues, int64_t want, int64_t per_queue,
                           double discount, int64_t burst = 0, ClassRun run = {},
                           std::unordered_map<int64_t, int64_t>* taken = nullptr, bool* capped = nullptr,
                           int page = LeaseOrder::kPageSize) {
    std::unordered_map<int64_t, int64_t> here;
    LeaseOrder order(per_queue, discount, taken ? *taken : here, page);
    if (burst > 0) order.alternate(run, burst);
    int64_t served = 100;
    std::vector<int64_t> got;
    QueueCandidate c{};
    while (static_cast<int64_t>(got.size()) < want) {
        LeaseOrder::Step step = order.next(c);
        if (step == LeaseOrder::Step::load_page) {
            // The ready index in (best, served) order, from the cursor on, as
            // it is now (a queue leased from moved on in it), `page` rows.
            std::vector<QueueCandidate> rows;
            const QueueCandidate cursor{order.cursor_best(), order.cursor_served(), 0};
            for (auto& [id, q] : queues) {
                QueueCandidate r{q.urls.empty() ? 0 : q.urls.front().first, q.served, 0};
                if (!q.urls.empty() &&
                    (r.eff > cursor.eff || (r.eff == cursor.eff && r.served > cursor.served)))
                    rows.push_back({r.eff, r.served, id});
            }
            std::sort(rows.begin(), rows.end(), [](auto& a, auto& b) { return b > a; });
            if (rows.size() > static_cast<size_t>(page)) rows.resize(static_cast<size_t>(page));
            for (auto& r : rows) order.from_index(r.qid, r.eff, r.served);
            order.page_read(static_cast<int>(rows.size()));
            continue;
        }
        if (step == LeaseOrder::Step::empty) {
            if (order.stop_forcing()) continue;
            break;
        }
        if (step == LeaseOrder::Step::skip) continue;
        ModelQueue& q = queues[c.qid];
        int want_cls = order.wanted_class();
        auto it = q.urls.begin();
        if (want_cls >= 0) {
            while (it != q.urls.end() && it->second != want_cls) ++it;
            if (it == q.urls.end()) {
                order.class_missing(c);
                continue;
            }
        }
        if (it == q.urls.end()) continue;
        int cls = it->second;
        q.urls.erase(it);
        q.served = ++served;
        got.push_back(c.qid);
        order.leased(c, cls, !q.urls.empty(), q.urls.empty() ? 0 : q.urls.front().first, q.served);
    }
    if (capped) *capped = order.capped_with_more();
    return got;
}

using V = std::vector<int64_t>;

}  // namespace

TEST_CASE("queues are taken by best rank, then by when they were last served", "[lease][order]") {
    std::map<int64_t, ModelQueue> qs = {
        {1, {{{3, 0}, {3, 0}}, 5}},
        {2, {{{1, 0}, {9, 0}}, 7}},
        {3, {{{3, 0}}, 2}},
    };
    // One URL per queue: queue 2 (rank 1), then the two rank-3 queues, the
    // one served longer ago (3) first.
    CHECK(batch(qs, 10, 1, 0) == V{2, 3, 1});
    // Two per queue: queue 2 again only when its next URL (rank 9) comes.
    CHECK(batch(qs, 10, 2, 0) == V{2, 3, 1, 1, 2});
    // -n stops the batch.
    CHECK(batch(qs, 2, 2, 0) == V{2, 3});
}

TEST_CASE("the host discount spreads a batch over queues", "[lease][order]") {
    std::map<int64_t, ModelQueue> qs = {
        {1, {{{1, 0}, {1, 0}, {1, 0}}, 1}},
        {2, {{{2, 0}, {2, 0}}, 2}},
    };
    CHECK(batch(qs, 5, 3, 0) == V{1, 1, 1, 2, 2});
    // Each URL taken adds 1.5 to the queue's rank in this batch.
    CHECK(batch(qs, 5, 3, 1.5) == V{1, 2, 1, 2, 1});
}

TEST_CASE("--per-queue holds across the transactions of one batch", "[lease][order]") {
    std::map<int64_t, ModelQueue> qs = {
        {1, {{{1, 0}, {1, 0}}, 1}},
        {2, {{{2, 0}, {2, 0}}, 2}},
    };
    std::unordered_map<int64_t, int64_t> taken;
    CHECK(batch(qs, 1, 1, 0, 0, {}, &taken) == V{1});
    // The next transaction of the batch: queue 1 gave its one URL.
    CHECK(batch(qs, 1, 1, 0, 0, {}, &taken) == V{2});
    CHECK(batch(qs, 1, 1, 0, 0, {}, &taken).empty());
}

TEST_CASE("a batch says when a queue held to --per-queue had more ready", "[lease][order]") {
    std::map<int64_t, ModelQueue> qs = {
        {1, {{{1, 0}, {1, 0}, {1, 0}}, 1}},
        {2, {{{2, 0}}, 2}},
    };
    bool capped = true;
    // Queue 1 gives its 2 and keeps one URL: another batch may take it.
    CHECK(batch(qs, 10, 2, 0, 0, {}, nullptr, &capped) == V{1, 1, 2});
    CHECK(capped);
    // With 3 per queue every URL is taken: nothing more is ready.
    CHECK(batch(qs, 10, 3, 0, 0, {}, nullptr, &capped) == V{1, 1, 1, 2});
    CHECK_FALSE(capped);
    // -n ends the batch before any queue reaches its cap.
    CHECK(batch(qs, 1, 2, 0, 0, {}, nullptr, &capped) == V{1});
    CHECK_FALSE(capped);
}

TEST_CASE("URL classes alternate across queues with a burst limit", "[lease][order]") {
    // Queue 1: articles (acquisition) of the best rank; queue 2: a listing
    // page (discovery), worse rank.
    std::map<int64_t, ModelQueue> qs = {
        {1, {{{1, kClassAcquisition}, {1, kClassAcquisition}, {1, kClassAcquisition}, {1, kClassAcquisition}}, 1}},
        {2, {{{5, kClassDiscovery}, {6, kClassDiscovery}}, 2}},
    };
    // Off: rank order.
    CHECK(batch(qs, 6, 10, 0) == V{1, 1, 1, 1, 2, 2});
    // Burst 2: after two articles, the listing queue's discovery URL.
    CHECK(batch(qs, 6, 10, 0, 2) == V{1, 1, 2, 1, 1, 2});
    // The run carries over from the stored one: two articles were leased
    // by the last batch, so this one starts with discovery.
    CHECK(batch(qs, 6, 10, 0, 2, ClassRun{kClassAcquisition, 2}) == V{2, 1, 1, 2, 1, 1});
}

TEST_CASE("alternation gives up when the other class has no work", "[lease][order]") {
    std::map<int64_t, ModelQueue> qs = {
        {1, {{{1, kClassAcquisition}, {2, kClassAcquisition}, {3, kClassAcquisition}}, 1}},
        {2, {{{1.5, kClassAcquisition}}, 2}},
    };
    // No discovery URL anywhere: after the burst the queues wait for the
    // other class, none has it, and the batch goes on in rank order.
    CHECK(batch(qs, 4, 10, 0, 1) == V{1, 2, 1, 1});
}

TEST_CASE("kClassScan queues without the other class end the search", "[lease][order]") {
    std::map<int64_t, ModelQueue> qs;
    for (int64_t id = 1; id <= LeaseOrder::kClassScan + 5; ++id) qs[id] = {{{double(id), kClassAcquisition}}, id};
    qs[1000] = {{{5000, kClassDiscovery}}, 1000};  // the other class, behind them all
    // After the first lease the run is at the burst (1): the next
    // kClassScan queues miss, then the order is by rank again.
    V got = batch(qs, 3, 1, 0, 1);
    CHECK(got == V{1, 2, 3});
    // With fewer queues in the way, the discovery queue is reached.
    std::map<int64_t, ModelQueue> few = {{1, qs[1]}, {2, qs[2]}, {1000, qs[1000]}};
    CHECK(batch(few, 3, 1, 0, 1) == V{1, 1000, 2});
}

TEST_CASE("a lease call that leases nothing says why", "[lease][order]") {
    CHECK(empty_lease_status(3, 0) == LeaseStatus::not_ready);
    CHECK(empty_lease_status(3, 10) == LeaseStatus::not_ready);
    CHECK(empty_lease_status(0, 10) == LeaseStatus::paused);
    CHECK(empty_lease_status(0, 0) == LeaseStatus::finished);
    CHECK(may_lease_now(0, 1, 100, 100));
    CHECK_FALSE(may_lease_now(1, 1, 100, 100));
    CHECK_FALSE(may_lease_now(0, 1, 101, 100));
}

TEST_CASE("a batch read in small pages takes what one page gives", "[lease][order]") {
    CHECK(LeaseOrder::page_size_for(1) == 32);
    CHECK(LeaseOrder::page_size_for(16) == 32);
    CHECK(LeaseOrder::page_size_for(100) == 200);
    CHECK(LeaseOrder::page_size_for(1000) == LeaseOrder::kPageSize);
    // 40 queues, ranks interleaved, some served alike: whatever the page
    // size, the same queues in the same order (next() reads on while an
    // unread queue could come first).
    std::map<int64_t, ModelQueue> qs;
    for (int64_t id = 1; id <= 40; ++id) {
        ModelQueue q;
        for (int k = 0; k < 1 + id % 4; ++k)
            q.urls.push_back({static_cast<double>((id * 7 + k * 5) % 11), (id + k) % 2});
        q.served = id % 6;
        qs[id] = q;
    }
    for (int64_t per_queue : {1, 2, 5})
        for (double discount : {0.0, 1.5})
            for (int64_t burst : {0, 2}) {
                const V whole = batch(qs, 60, per_queue, discount, burst);
                REQUIRE(whole.size() > 30);
                for (int page : {1, 2, 3, 7, 32})
                    CHECK(batch(qs, 60, per_queue, discount, burst, {}, nullptr, nullptr, page) == whole);
            }
}

TEST_CASE("a follower that lost a race for free slots backs off", "[lease][follow]") {
    FollowBackoff b;
    CHECK(b.delay(0.5, 1.0) == 0);  // never lost: looks at once
    b.lost(0.002);
    CHECK(b.delay(0.5, 1.0) == Approx(0.002));  // half of 2 x 2 ms
    b.lost(0.002);
    b.lost(0.002);
    CHECK(b.delay(1.0, 1.0) == Approx(0.016));  // doubled per race lost in a row
    for (int i = 0; i < 10; ++i) b.lost(0.002);
    CHECK(b.delay(1.0, 1.0) == Approx(0.032));  // at most 16 times the call
    CHECK(b.delay(1.0, 0.02) == Approx(0.02));  // never past the poll interval
    CHECK(b.delay(0.0, 1.0) == 0);
    b.won();
    CHECK(b.delay(0.9, 1.0) == 0);  // a batch that took URLs closes the window
}
