// frontier-import's rows (lib/frontier/import_session.hpp) over a stand-in
// backend: a target in use is left alone, rows are committed every --batch.
#include <catch2/catch.hpp>

#include "frontier/import_session.hpp"
#include "session_fakes.hpp"

using namespace frontier;
using namespace frontier::test;

namespace {

class FakeImportBackend : public ImportBackend {
public:
    explicit FakeImportBackend(EventLog& log) : log_(log) {}
    void begin() override { log_.push_back("begin"); }
    void commit() override { log_.push_back("commit"); }
    void rollback() override { log_.push_back("rollback"); }
    std::vector<std::string> non_empty_tables() override { return used; }
    std::string insert(const ImportRow& row) override {
        log_.push_back(std::string("insert:") + row.table->name);
        return clash;
    }

    std::vector<std::string> used;
    std::string clash;

private:
    EventLog& log_;
};

const std::string kRow = R"({"table":"seed_domains","domain":"a.example"})";

}  // namespace

TEST_CASE("an import session leaves a target in use alone", "[import][session]") {
    EventLog log;
    FakeImportBackend backend(log);
    backend.used = {"urls 3"};
    ScriptSource input({kRow}, log);
    RecordingSink sink(log);
    ImportSession s(backend, input, sink, {});
    CHECK(s.run() == std::vector<std::string>{"urls 3"});
    CHECK(log == EventLog{"begin", "rollback"});
}

TEST_CASE("an import session commits every --batch rows and prints rejections", "[import][session]") {
    EventLog log;
    FakeImportBackend backend(log);
    ScriptSource input({kRow, kRow, "{\"table\":\"nope\"}", kRow, R"({"end":true})", kRow}, log);
    RecordingSink sink(log);
    ImportSessionOptions o;
    o.batch = 2;
    ImportSession s(backend, input, sink, o);
    CHECK(s.run().empty());
    CHECK(count_events(log, "insert:") == 3);
    CHECK(count_events(log, "commit") == 2);  // after two rows, and at the end
    CHECK(find_event(log, "commit") < find_event(log, "insert:seed_domains", find_event(log, "commit")));
    CHECK(s.rejected == 2);  // the unknown table, and a row after the end line
    REQUIRE(sink.lines.size() == 2);
    CHECK(sink.lines[0] ==
          R"({"line":3,"status":"rejected","reason":"unknown-table","table":"nope","field":"table"})");
    CHECK(sink.lines[1] == R"({"line":6,"status":"rejected","reason":"after-end"})");
    int64_t seeds = 0;
    for (auto& [t, n] : s.imported)
        if (t == "seed_domains") seeds = n;
    CHECK(seeds == 3);
}
