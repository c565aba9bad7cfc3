#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>

#include "store/db.hpp"
#include "store/export_format.hpp"
#include "json/json.hpp"
#include "store/store.hpp"
#include "store/store_export.hpp"

using namespace frontier;

namespace {

Record rec(const std::string& json) {
    Record r;
    REQUIRE(parse_record(json, r));
    return r;
}

RowProblem decode(const std::string& json, ImportRow& row, Record& keep) {
    keep = rec(json);
    return decode_row(keep, row);
}

}  // namespace

TEST_CASE("export tables list every column of the schema but the lease holders and fingerprints",
          "[export][store]") {
    char dir[] = "/tmp/frontier-test-XXXXXX";
    REQUIRE(mkdtemp(dir) != nullptr);
    std::string path = std::string(dir) + "/f.db";
    {
        Store store(path, Store::Mode::create);
        std::unique_ptr<Db> conn = Db::open(path, false, true);  // a connection of its own
        std::set<std::string> exported;
        for (const ExportTable& t : export_tables()) {
            exported.insert(t.name);
            std::vector<std::string> schema_cols, export_cols;
            Stmt st = conn->prepare(std::string("PRAGMA table_info(") + t.name + ")");
            // Kept out: the lease holders (meaningless in another frontier).
            while (st.step())
                if (st.str(1) != "holder" && st.str(1) != "robots_holder") schema_cols.push_back(st.str(1));
            for (const ExportColumn& c : t.columns) export_cols.push_back(c.name);
            INFO("table " << t.name);
            CHECK(export_cols == schema_cols);  // same columns, same order
            // NOT NULL in the schema <=> required on import.
            Stmt nn = conn->prepare(std::string("PRAGMA table_info(") + t.name + ")");
            size_t i = 0;
            while (nn.step() && i < t.columns.size()) {
                if (nn.str(1) != t.columns[i].name) continue;  // a column kept out
                INFO("column " << t.columns[i].name);
                bool not_null = nn.i64(3) != 0 || nn.i64(5) != 0;  // notnull, or part of the primary key
                CHECK(t.columns[i].not_null == not_null);
                ++i;
            }
        }
        // Every table of the file is exported, but lease_holders and the
        // fingerprint and lease order tables (derived from urls, built by the import).
        const std::set<std::string> kept_out = {"lease_holders", "url_fps", "url_fps_new", "url_next",
                                                "url_next_new"};
        Stmt tables = conn->prepare("SELECT name FROM sqlite_master WHERE type = 'table'");
        while (tables.step()) {
            INFO("table " << tables.str(0));
            CHECK(exported.count(tables.str(0)) == (kept_out.count(tables.str(0)) ? 0u : 1u));
        }
    }
    std::string cmd = std::string("rm -rf ") + dir;
    REQUIRE(std::system(cmd.c_str()) == 0);
}

TEST_CASE("decode_row checks tables, columns and types", "[export]") {
    ImportRow row;
    Record keep;
    CHECK(decode(R"({"table":"seed_domains","domain":"a.example"})", row, keep).reason.empty());
    REQUIRE(row.table != nullptr);
    CHECK(std::string(row.table->name) == "seed_domains");
    REQUIRE(row.values.size() == 1);
    CHECK(*row.values[0].s == "a.example");

    CHECK(decode(R"({"domain":"a.example"})", row, keep).reason == "missing-table");
    CHECK(decode(R"({"table":1})", row, keep).reason == "bad-field");
    CHECK(decode(R"({"table":"nope"})", row, keep).reason == "unknown-table");
    RowProblem p = decode(R"({"table":"seed_domains","domain":"a","x":1})", row, keep);
    CHECK(p.reason == "unknown-field");
    CHECK(p.field == "x");
    p = decode(R"({"table":"counters","name":"queued"})", row, keep);
    CHECK(p.reason == "missing-field");
    CHECK(p.field == "n");
    CHECK(decode(R"({"table":"counters","name":"queued","n":null})", row, keep).reason == "missing-field");
    CHECK(decode(R"({"table":"counters","name":"queued","n":"3"})", row, keep).reason == "bad-field");
    CHECK(decode(R"({"table":"counters","name":"queued","n":3.5})", row, keep).reason == "bad-field");
    CHECK(decode(R"({"table":"counters","name":"queued","n":3.0})", row, keep).reason.empty());
    CHECK(row.values[1].i == 3);
    // Nullable columns may be absent or null; the last of a repeated key wins.
    CHECK(decode(R"({"table":"queue_budgets","scope":"queue","name":"q","total":5,"total":null})", row, keep)
              .reason.empty());
    CHECK(row.values[3].kind == ImportValue::Kind::null);
    CHECK(row.values[2].kind == ImportValue::Kind::null);
    // Real columns take integers and fractions; integers keep full 64 bits.
    CHECK(
        decode(R"({"table":"hosts","id":9223372036854775807,"name":"h","robots_state":0,"robots_retries":0,)"
               R"("robots_lease_seq":0,"crawl_delay":2,"robots_at":1800000000.25})",
               row, keep)
            .reason.empty());
    CHECK(row.values[0].i == INT64_MAX);
    CHECK(row.values[11].kind == ImportValue::Kind::real);
    CHECK(row.values[11].d == 2.0);
    CHECK(row.values[4].d == 1800000000.25);
    CHECK(decode(R"({"table":"hosts","id":1,"name":"h","robots_state":0,"robots_retries":0,)"
                 R"("robots_lease_seq":0,"crawl_delay":"2"})",
                 row, keep)
              .reason == "bad-field");
    // meta values keep their type.
    CHECK(decode(R"({"table":"meta","key":"k","value":"text"})", row, keep).reason.empty());
    CHECK(row.values[1].kind == ImportValue::Kind::text);
    CHECK(decode(R"({"table":"meta","key":"k","value":7})", row, keep).reason.empty());
    CHECK(row.values[1].kind == ImportValue::Kind::integer);
}

TEST_CASE("export header and end lines", "[export]") {
    ExportHeader h;
    h.schema_version = 2;
    h.tool_version = "0.1.0";
    h.exported_at = 1800000000.5;
    std::string line = export_header_line(h);
    CHECK(line ==
          R"({"format":"frontier-export","format_version":1,"schema_version":2,"tool":"frontier-export",)"
          R"("tool_version":"0.1.0","exported_at":1800000000.5})");
    Record r = rec(line);
    CHECK(is_export_header(r));
    CHECK_FALSE(is_export_end(r));
    ExportHeader back;
    CHECK(read_export_header(r, 2, back).empty());
    CHECK(back.exported_at == 1800000000.5);
    CHECK(back.schema_version == 2);
    CHECK(read_export_header(r, 1, back).find("schema version 2, newer") != std::string::npos);
    CHECK(read_export_header(rec(R"({"format":"frontier-export","format_version":2,"schema_version":2})"), 2,
                             back)
              .find("format version 2, newer") != std::string::npos);
    CHECK(read_export_header(rec(R"({"format":"other","format_version":1,"schema_version":2})"), 2, back)
              .find("not a frontier-export stream") != std::string::npos);
    CHECK(read_export_header(rec(R"({"format":"frontier-export","schema_version":2})"), 2, back)
              .find("format_version") != std::string::npos);

    RowCounts counts = {{"meta", 3}, {"urls", 10}};
    std::string end = export_end_line(counts);
    CHECK(end == R"({"end":"frontier-export","rows":{"meta":3,"urls":10},"total":13})");
    Record e = rec(end);
    CHECK(is_export_end(e));
    CHECK(check_export_end(e, counts).empty());
    auto problems = check_export_end(e, {{"meta", 3}, {"urls", 9}});
    REQUIRE(problems.size() == 1);
    CHECK(problems[0] == "the end line lists 10 urls rows, 9 were imported");
    problems = check_export_end(e, {{"meta", 3}});
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].find("table urls, which this tool does not know") != std::string::npos);
    CHECK(check_export_end(rec(R"({"end":"frontier-export"})"), counts).size() == 1);
}

TEST_CASE("an imported URL's fingerprint is findable from its batch's commit, in url_fps after finish", "[export][store]") {
    char dir[] = "/tmp/frontier-test-XXXXXX";
    REQUIRE(mkdtemp(dir) != nullptr);
    std::string path = std::string(dir) + "/f.db";
    {
        Store store(path, Store::Mode::create);
        std::unique_ptr<Db> conn = Db::open(path, false, true);  // a connection of its own
        RowImporter importer(store);
        auto pairs = [&](const char* table) {
            Stmt st = conn->prepare(std::string("SELECT count(*) FROM ") + table + " WHERE fp = 123 AND id = 7");
            REQUIRE(st.step());
            return st.i64(0);
        };
        store.begin();
        ImportRow row;
        Record keep;
        REQUIRE(decode(R"({"table":"urls","id":7,"fp":123,"url":"http://a.example/","queue_id":1,"host_id":1,)"
                       R"("state":0,"rank":1,"priority":1,"tier":0,"tier_key":0,"cost":1,"cls":0,"depth":0,)"
                       R"("recrawl":0,"attempts":0,"retries":0,"lease_seq":0,"visits":0,"successes":0,)"
                       R"("changes":0,"failures":0})",
                       row, keep)
                    .reason.empty());
        REQUIRE(importer.insert(row).empty());
        store.commit();
        // An import cut short here (killed) still has the pair.
        CHECK(pairs("url_fps_new") == 1);
        CHECK(pairs("url_fps") == 0);
        importer.finish();
        CHECK(pairs("url_fps_new") == 0);
        CHECK(pairs("url_fps") == 1);
    }
    std::string cmd = std::string("rm -rf ") + dir;
    REQUIRE(std::system(cmd.c_str()) == 0);
}
