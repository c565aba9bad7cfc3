// The sessions over a real SQLite Store (their adapters and
// lib/store/store_sessions.cpp): a URL added, leased and its result
// applied, each through the entry point its tool calls.
#include <catch2/catch.hpp>

#include "frontier/add_session.hpp"
#include "frontier/done_session.hpp"
#include "frontier/lease_session.hpp"
#include "session_fakes.hpp"
#include "store_setup.hpp"
#include "temp_dir.hpp"

using namespace frontier;
using namespace frontier::test;

TEST_CASE("add, lease and done sessions over a SQLite store", "[session][store]") {
    TempDir dir;
    Store store(dir.path + "/f.db", Store::Mode::create);
    politeness_off(store);
    CHECK(store.records_read_together() == 1);  // SQLite reads its own pages: nothing to gather

    EventLog log;
    ScriptSource adds({"http://a.example/"}, log);
    RecordingSink add_out(log);
    CHECK(run_add_session(store, adds, add_out, {}) == 0);
    REQUIRE(add_out.lines.size() == 1);
    CHECK(add_out.lines[0].find("\"status\":\"added\"") != std::string::npos);
    CHECK_FALSE(store.in_transaction());

    LeaseRequest req;
    req.n = 10;
    RecordingSink lease_out(log);
    CHECK(lease_once(store, req, std::nullopt, false, lease_out) == 0);
    REQUIRE_FALSE(lease_out.lines.empty());  // the page, or its robots.txt first
    CHECK(store.leases_out() == static_cast<int64_t>(lease_out.lines.size()));

    std::vector<std::string> results;
    for (const std::string& line : lease_out.lines) {
        Record r;
        REQUIRE(parse_record(line, r));
        results.push_back("{\"lease\":\"" + *r.get_string("lease") + "\",\"status\":404}");
    }
    ScriptSource done_in(results, log);
    RecordingSink done_out(log);
    CHECK(run_done_session(store, done_in, done_out, {}) == 0);
    REQUIRE(done_out.lines.size() == results.size());
    for (const std::string& line : done_out.lines) CHECK(line.find("\"result\":") != std::string::npos);
    CHECK_FALSE(store.in_transaction());
    CHECK(store.leases_out() == 0);
}
