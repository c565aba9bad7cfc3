// frontier-done's run loop (lib/frontier/done_session.hpp) over a stand-in
// backend: when transactions begin and commit, against the input's pauses.
#include <catch2/catch.hpp>

#include "frontier/done_session.hpp"
#include "frontier/enqueue.hpp"
#include "session_fakes.hpp"
#include "store/store.hpp"
#include "store_setup.hpp"
#include "temp_dir.hpp"

using namespace frontier;
using namespace frontier::test;

namespace {

// Applies every line as "done" (a line {"bad":1} is rejected), logging
// each call.
class FakeDoneBackend : public DoneBackend {
public:
    FakeDoneBackend(EventLog& log, size_t together) : log_(log), together_(together) {}
    size_t records_read_together() override { return together_; }
    void begin_batch(double) override { log_.push_back("begin"); }
    bool begin_batch_of(double now, const InputLine*, size_t, bool) override {
        begin_batch(now);
        return alone;
    }
    void prefetch(const InputLine*, size_t n) override { log_.push_back("prefetch:" + std::to_string(n)); }
    bool settle_batch(double, const InputLine*, size_t) override {
        log_.push_back("settle");
        return settle_again;
    }
    std::string apply(const InputLine& line, double, bool& rejected) override {
        rejected = line.record.has("bad");
        ++tally_.results;
        log_.push_back("apply:" + std::to_string(line.line_no));
        return "{\"line\":" + std::to_string(line.line_no) + "}";
    }
    void commit() override { log_.push_back("commit"); }
    const DoneTally& tally() const override { return tally_; }

    bool settle_again = false;
    bool alone = false;  // each batch's transaction holds it only (partitions)

private:
    EventLog& log_;
    size_t together_;
    DoneTally tally_;
};

const std::string kLine = "{\"lease\":\"1-1\",\"status\":200}";

}  // namespace

TEST_CASE("a done session commits and flushes before it waits for input", "[done][session]") {
    EventLog log;
    FakeDoneBackend backend(log, 1);
    ScriptSource input({kLine, kLine, "", kLine}, log);
    RecordingSink sink(log);
    CHECK(DoneSession(backend, input, sink, {}).run() == 0);
    size_t wait = find_event(log, "wait");
    REQUIRE(wait < log.size());
    size_t commit = find_event(log, "commit");
    CHECK(commit < wait);
    CHECK(find_event(log, "flush", commit) < wait);
    CHECK(find_event(log, "line:{\"line\":2}") < commit);  // both lines in the first transaction
    CHECK(count_events(log, "begin") == 2);
    CHECK(count_events(log, "commit") == 2);
    CHECK(log.back() == "flush");
    CHECK(sink.lines.size() == 3);
}

TEST_CASE("a done session commits at --batch results", "[done][session]") {
    EventLog log;
    FakeDoneBackend backend(log, 1);
    ScriptSource input(std::vector<std::string>(5, kLine), log);
    RecordingSink sink(log);
    DoneSessionOptions o;
    o.batch = 2;
    CHECK(DoneSession(backend, input, sink, o).run() == 0);
    CHECK(count_events(log, "begin") == 3);
    CHECK(count_events(log, "commit") == 3);
    // The commit comes after the second result, before the third is applied.
    CHECK(find_event(log, "commit") < find_event(log, "apply:3"));
    CHECK(find_event(log, "apply:2") < find_event(log, "commit"));
}

TEST_CASE("a done session gathers ready lines and settles the first batch", "[done][session]") {
    EventLog log;
    FakeDoneBackend backend(log, 256);
    backend.settle_again = true;
    ScriptSource input({kLine, kLine, kLine, "", kLine}, log);
    RecordingSink sink(log);
    CHECK(DoneSession(backend, input, sink, {}).run() == 0);
    // Three lines read together; housekeeping changed rows, so they are read again.
    REQUIRE(log.size() > 5);
    EventLog head(log.begin(), log.begin() + 5);
    CHECK(head == EventLog{"flush", "begin", "prefetch:3", "settle", "prefetch:3"});
    CHECK(count_events(log, "settle") == 2);  // once per transaction
}

TEST_CASE("a done session exits 1 after a rejected line, and stops when asked", "[done][session]") {
    EventLog log;
    FakeDoneBackend backend(log, 1);
    ScriptSource input({kLine, "{\"bad\":1}", kLine}, log);
    RecordingSink sink(log);
    CHECK(DoneSession(backend, input, sink, {}).run() == 1);

    EventLog log2;
    FakeDoneBackend backend2(log2, 1);
    ScriptSource input2({kLine, kLine}, log2);
    RecordingSink sink2(log2);
    DoneSessionOptions o;
    o.quiet = true;
    o.stop = [&] { return count_events(log2, "apply:") >= 1; };
    CHECK(DoneSession(backend2, input2, sink2, o).run() == 0);
    CHECK(count_events(log2, "apply:") == 1);
    CHECK(count_events(log2, "commit") == 1);  // what was applied is committed
    CHECK(sink2.lines.empty());
}

TEST_CASE("a done session commits after each batch that runs in partitions", "[done][session]") {
    EventLog log;
    FakeDoneBackend backend(log, 2);
    backend.alone = true;
    ScriptSource input(std::vector<std::string>(5, kLine), log);
    RecordingSink sink(log);
    CHECK(DoneSession(backend, input, sink, {}).run() == 0);
    // Five lines read two at a time, none waiting: three batches, three
    // transactions (without partitions they would share one).
    CHECK(count_events(log, "begin") == 3);
    CHECK(count_events(log, "commit") == 3);
    CHECK(find_event(log, "commit") < find_event(log, "apply:3"));
}

namespace {
// Input lines parsed from JSON texts (a text that is not an object: a line to reject).
std::vector<InputLine> lines_of(const std::vector<std::string>& texts) {
    std::vector<InputLine> out;
    for (const std::string& t : texts) {
        InputLine l;
        l.line_no = out.size() + 1;
        if (!parse_record(t, l.record)) l.error = "bad-json";
        out.push_back(std::move(l));
    }
    return out;
}
bool only_ends_leases(const std::vector<std::string>& texts) {
    std::vector<InputLine> l = lines_of(texts);
    return DoneProcessor::only_ends_leases(l.data(), l.size());
}
}  // namespace

TEST_CASE("a result batch runs in partitions only when each result just ends its URL lease", "[done]") {
    const std::string ok = R"({"url":"http://a.example/","lease":"12-1","status":200})";
    CHECK(only_ends_leases({ok, ok}));
    CHECK(only_ends_leases({ok, "{oops"}));  // a line to reject writes nothing
    CHECK(only_ends_leases({R"({"url":"http://a.example/","lease":"12-1","status":200,"links":[ ]})"}));
    CHECK(only_ends_leases({R"({"url":"http://a.example/","lease":"12-1","status":503,"links":null})"}));
    // URLs added, a robots.txt, a result found by its URL: the writer runs alone.
    CHECK_FALSE(only_ends_leases({ok, R"({"url":"http://a.example/","lease":"12-1","status":200,"links":["/b"]})"}));
    CHECK_FALSE(only_ends_leases({R"({"url":"http://a.example/","lease":"12-1","status":301,"location":"/b"})"}));
    CHECK_FALSE(only_ends_leases({R"({"url":"http://a.example/robots.txt","lease":"r3-1","robots":true,"status":200})"}));
    CHECK_FALSE(only_ends_leases({R"({"url":"http://a.example/","status":200})"}));
}

TEST_CASE("a result batch with links runs in partitions when this process knows each is in the frontier, "
          "or, asked for them, with the queues its new links go to",
          "[done]") {
    constexpr double kNow = 1800000000;
    TempDir dir;
    Store store(dir.path + "/f.db", Store::Mode::create);
    store.set_setting("robots.enabled", "false");
    politeness_off(store);
    DoneProcessor proc(store);
    Enqueuer enq(store);
    store.begin();
    for (const char* u : {"http://a.example/", "http://a.example/2"}) {
        Record r;
        REQUIRE(parse_record(std::string("{\"url\":\"") + u + "\"}", r));
        REQUIRE(enq.add(r, kNow).outcome.status == AddStatus::added);
    }
    store.commit();
    LeaseRequest req;
    req.n = 2;
    req.per_queue = 2;
    req.now = kNow;
    req.ttl = 60;
    LeaseOutcome leased = store.lease(req);
    REQUIRE(leased.items.size() == 2);
    auto result = [&](const LeaseItem& it, const std::string& links) {
        return R"({"url":")" + it.url + R"(","lease":")" + it.lease + R"(","status":200,"links":)" + links + "}";
    };
    auto in_partitions = [&](const std::string& text) {
        std::vector<InputLine> l = lines_of({text});
        return proc.runs_in_partitions(l.data(), l.size(), kNow);
    };
    const LeaseItem& first = leased.items[0];
    // Not known to this process yet: a link may add a URL.
    CHECK_FALSE(in_partitions(result(first, R"(["http://a.example/nav"])")));
    // The first result adds it; from then on this process knows it.
    std::vector<InputLine> one = lines_of({result(first, R"(["http://a.example/nav"])")});
    store.begin();
    bool rejected = false;
    proc.process(one[0], kNow, rejected);
    store.commit();
    REQUIRE_FALSE(rejected);
    const LeaseItem& second = leased.items[1];
    CHECK(in_partitions(result(second, R"(["http://a.example/nav"])")));
    CHECK(in_partitions(result(second, R"(["http://a.example/nav",{"url":"http://b.example/","nofollow":true}])")));
    CHECK_FALSE(in_partitions(result(second, R"(["http://a.example/nav","http://a.example/new"])")));
    CHECK_FALSE(in_partitions(result(second, R"(["/nav"])")));  // relative: resolved against the row's URL
    CHECK_FALSE(in_partitions(result(second, R"([{"url":"http://a.example/nav","discovery":"sitemap"}])")));
    CHECK_FALSE(in_partitions(R"({"url":"http://a.example/","lease":"12-1","status":301,"location":"/b"})"));
    // Settings moved: what a link does may have changed with them.
    store.set_setting("scope.max-depth", "5");
    CHECK_FALSE(in_partitions(result(second, R"(["http://a.example/nav"])")));

    // Where new links may be added too: the keys of their queues, each once
    // (scope.seed-domains, checked as a URL is stored, has not rejected
    // other.test yet); a link the scope's expressions reject needs none.
    store.set_setting("scope.exclude", R"(["/skip"])");
    auto queues_of = [&](const std::string& text, std::vector<std::string>& queues) {
        std::vector<InputLine> l = lines_of({text});
        BatchLocks locks;
        const bool ok = proc.runs_in_partitions(l.data(), l.size(), kNow, &locks);
        queues = locks.link_queues;
        return ok;
    };
    std::vector<std::string> queues;
    CHECK(queues_of(result(second, R"(["http://a.example/nav","http://a.example/new","http://www.a.example/x",)"
                                   R"("http://a.example/new2","http://other.test/","http://a.example/skip"])"),
                    queues));
    CHECK(queues == std::vector<std::string>{"a.example", "www.a.example", "other.test"});
    CHECK_FALSE(queues_of(result(second, R"(["/nav"])"), queues));
    CHECK_FALSE(queues_of(result(second, R"([{"url":"http://a.example/s","discovery":"sitemap"}])"), queues));
    // A robots.txt result without sitemaps: its host's queue is locked; one
    // naming a sitemap adds URLs that are not plain links.
    {
        std::vector<InputLine> l = lines_of({R"({"url":"http://a.example/robots.txt","lease":"r7-2","robots":true,)"
                                             R"("status":200,"body":"User-agent: *\nDisallow: /p"})"});
        BatchLocks locks;
        CHECK(proc.runs_in_partitions(l.data(), l.size(), kNow, &locks));
        CHECK(locks.robots_hosts == std::vector<int64_t>{7});
        CHECK_FALSE(proc.runs_in_partitions(l.data(), l.size(), kNow));  // not asked for locks
        l = lines_of({R"({"url":"http://a.example/robots.txt","lease":"r7-2","robots":true,"status":200,)"
                      R"("body":"SITEMAP: http://a.example/s.xml"})"});
        CHECK_FALSE(proc.runs_in_partitions(l.data(), l.size(), kNow, &locks));
    }
    // A frontier-wide cap on queued URLs: a new link waits for the lock.
    store.set_setting("scope.max-queued", "1000");
    CHECK_FALSE(queues_of(result(second, R"(["http://a.example/new"])"), queues));
}
