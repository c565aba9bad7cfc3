// frontier-add's run loop (lib/frontier/add_session.hpp) over a stand-in
// backend: transactions against the input's pauses and --batch, output in
// input order through the two-stage pipeline, the exit code.
#include <catch2/catch.hpp>
#include <functional>

#include "frontier/add_session.hpp"
#include "policy/settings.hpp"
#include "session_fakes.hpp"

using namespace frontier;
using namespace frontier::test;

namespace {

// Adds every URL (one with "dup" in it is a duplicate). prepare runs on
// the session's helper thread, so it logs nothing.
class FakeAddBackend : public AddBackend {
public:
    explicit FakeAddBackend(EventLog& log) : log_(log), settings_(build_settings({}, {})) {}
    const Settings& settings() override { return settings_; }
    void prepare(EnqueueResult& e, const Settings&) override {
        if (e.outcome.reason != AddReason::none) return;
        e.req.url.url = e.req.record.url;
        e.req.fp = std::hash<std::string>()(e.req.record.url);
        e.req.queue_key = "q";
        e.scoped = true;
    }
    void begin() override { log_.push_back("begin"); }
    void prefetch(const std::vector<uint64_t>& fps, const std::vector<const AddRequest*>&) override {
        log_.push_back("prefetch:" + std::to_string(fps.size()));
    }
    void store(EnqueueResult& e, double) override {
        if (e.outcome.reason != AddReason::none) return;
        e.outcome.status =
            e.req.url.url.find("dup") != std::string::npos ? AddStatus::duplicate : AddStatus::added;
        log_.push_back("store:" + e.req.url.url);
    }
    void commit() override { log_.push_back("commit"); }

private:
    EventLog& log_;
    Settings settings_;
};

std::vector<std::string> urls(int n) {
    std::vector<std::string> v;
    for (int i = 1; i <= n; ++i) v.push_back("http://a.example/" + std::to_string(i));
    return v;
}

}  // namespace

TEST_CASE("an add session commits and answers before it waits for input", "[add][session]") {
    EventLog log;
    FakeAddBackend backend(log);
    ScriptSource input({"http://a.example/1", "http://a.example/2", "", "http://a.example/3"}, log);
    RecordingSink sink(log);
    CHECK(AddSession(backend, input, sink, {}).run() == 0);
    size_t wait = find_event(log, "wait");
    REQUIRE(wait < log.size());
    size_t commit = find_event(log, "commit");
    CHECK(commit < wait);
    CHECK(find_event(log, "flush", commit) < wait);
    CHECK(find_event(log, "prefetch:2") < find_event(log, "store:http://a.example/1"));
    CHECK(count_events(log, "begin") == 2);
    CHECK(count_events(log, "commit") == 2);
    REQUIRE(sink.lines.size() == 3);
    CHECK(sink.lines[2] ==
          "{\"line\":3,\"url\":\"http://a.example/"
          "3\",\"status\":\"added\",\"queue\":\"q\",\"priority\":0,\"cost\":1}");
    CHECK(sink.messages == std::vector<std::string>{"3 added, 0 duplicate, 0 updated, 0 rejected"});
}

TEST_CASE("an add session commits at --batch records", "[add][session]") {
    EventLog log;
    FakeAddBackend backend(log);
    ScriptSource input(urls(5), log);
    RecordingSink sink(log);
    AddSessionOptions o;
    o.batch = 2;
    CHECK(AddSession(backend, input, sink, o).run() == 0);
    CHECK(count_events(log, "begin") == 3);
    CHECK(count_events(log, "commit") == 3);
    CHECK(find_event(log, "store:http://a.example/2") < find_event(log, "commit"));
    CHECK(find_event(log, "commit") < find_event(log, "store:http://a.example/3"));
    // A transaction begun inside a chunk reads ahead the records left in it.
    CHECK(log[find_event(log, "commit") + 2] == "begin");
    CHECK(log[find_event(log, "commit") + 3] == "prefetch:3");
}

// The answers wait for their commit in the sink (frontier-crawl's seeds
// file as much as stdout): past HeldOutput::kMaxHeldOutput bytes the
// session commits before --batch, so the lines held stay bounded.
TEST_CASE("an add session commits once its sink holds too much", "[add][session]") {
    EventLog log;
    FakeAddBackend backend(log);
    ScriptSource input(urls(6), log);
    RecordingSink sink(log);
    sink.line_bytes = HeldOutput::kMaxHeldOutput / 2;
    CHECK(AddSession(backend, input, sink, {}).run() == 0);
    CHECK(count_events(log, "commit") == 3);
    CHECK(find_event(log, "store:http://a.example/2") < find_event(log, "commit"));
    CHECK(find_event(log, "commit") < find_event(log, "store:http://a.example/3"));
}

TEST_CASE("an add session keeps input order across chunks", "[add][session]") {
    EventLog log;
    FakeAddBackend backend(log);
    const int n = static_cast<int>(AddSession::kChunk) * 2 + 100;
    ScriptSource input(urls(n), log);
    RecordingSink sink(log);
    AddSessionOptions o;
    o.batch = 1000;
    o.quiet = true;
    CHECK(AddSession(backend, input, sink, o).run() == 0);
    CHECK(sink.lines.empty());
    CHECK(count_events(log, "store:") == static_cast<size_t>(n));
    CHECK(count_events(log, "commit") == 2);
    size_t at = 0;
    for (int i = 1; i <= n; ++i) {
        at = find_event(log, "store:http://a.example/" + std::to_string(i), at);
        REQUIRE(at < log.size());
    }
}

TEST_CASE("an add session exits 1 when every record is rejected", "[add][session]") {
    EventLog log;
    FakeAddBackend backend(log);
    ScriptSource input({"{\"url\":5}", "{\"url\":6}"}, log);
    RecordingSink sink(log);
    CHECK(AddSession(backend, input, sink, {}).run() == 1);
    CHECK(sink.lines[0] == "{\"line\":1,\"status\":\"rejected\",\"reason\":\"bad-field\",\"field\":\"url\"}");
    CHECK(sink.messages.back() == "nothing added: every record was rejected");

    EventLog log2;
    FakeAddBackend backend2(log2);
    ScriptSource input2({"http://a.example/dup"}, log2);
    RecordingSink sink2(log2);
    CHECK(AddSession(backend2, input2, sink2, {}).run() == 0);  // a duplicate is accepted
}
