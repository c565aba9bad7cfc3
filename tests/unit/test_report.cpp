// Unit tests for the pure parts of frontier-report: state derivation, --state
// and --sort parsing, row ordering, effective budgets and the renderers.
#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "report/report_data.hpp"
#include "report/report_render.hpp"

using namespace frontier;

TEST_CASE("derive_report_state partitions queues", "[report]") {
    const double now = 1000;
    CHECK(derive_report_state(2, 0, 5, 0, now) == ReportState::retired);
    CHECK(derive_report_state(3, 1, 0, 0, now) == ReportState::retired);  // retired by hand, even empty
    CHECK(derive_report_state(0, 0, 0, 2000, now) == ReportState::exhausted);
    CHECK(derive_report_state(1, 0, 0, 0, now) == ReportState::exhausted);
    CHECK(derive_report_state(1, 0, 3, 0, now) == ReportState::inactive);
    CHECK(derive_report_state(1, 1, 0, 0, now) == ReportState::inactive);  // leases out while deactivated
    CHECK(derive_report_state(0, 1, 0, 0, now) == ReportState::in_process);
    CHECK(derive_report_state(0, 1, 4, 5000, now) == ReportState::in_process);
    CHECK(derive_report_state(0, 0, 4, 1000.5, now) == ReportState::snoozed);
    CHECK(derive_report_state(0, 0, 4, 1000, now) == ReportState::ready);
}

TEST_CASE("parse_state_filter", "[report]") {
    auto s = parse_state_filter("active");
    CHECK(s == std::set<ReportState>{ReportState::in_process, ReportState::ready, ReportState::snoozed});
    CHECK(parse_state_filter("retired,exhausted") == std::set<ReportState>{ReportState::retired, ReportState::exhausted});
    CHECK(parse_state_filter("in_process") == std::set<ReportState>{ReportState::in_process});
    CHECK_THROWS_AS(parse_state_filter("sleeping"), UsageError);
    CHECK_THROWS_AS(parse_state_filter("ready,"), UsageError);
}

TEST_CASE("parse_queue_sort and queue_row_less", "[report]") {
    CHECK(parse_queue_sort("size").descending);
    CHECK_FALSE(parse_queue_sort("size:asc").descending);
    CHECK_FALSE(parse_queue_sort("queue").descending);
    CHECK(parse_queue_sort("queue:desc").descending);
    CHECK_THROWS_AS(parse_queue_sort("bogus"), UsageError);
    CHECK_THROWS_AS(parse_queue_sort("size:up"), UsageError);
    CHECK(sort_in_memory(parse_queue_sort("total_budget")));
    CHECK_FALSE(sort_in_memory(parse_queue_sort("total_spend")));

    QueueRow a, b;
    a.id = 1; a.queue = "a"; a.total_budget = -1; a.size = 5;
    b.id = 2; b.queue = "b"; b.total_budget = 100; b.size = 5;
    auto by_budget = parse_queue_sort("total_budget");
    CHECK(queue_row_less(a, b, by_budget));  // no limit counts as the largest budget
    auto by_size = parse_queue_sort("size");
    CHECK(queue_row_less(a, b, by_size));    // tie: by id
    CHECK_FALSE(queue_row_less(b, a, by_size));
    auto by_latency = parse_queue_sort("avg_latency_ms:asc");
    b.avg_latency_ms = 10;
    CHECK(queue_row_less(a, b, by_latency));  // missing sorts first ascending
}

TEST_CASE("text helpers", "[report]") {
    CHECK(format_relative(0, 100) == "-");
    CHECK(format_relative(100, 100) == "now");
    CHECK(format_relative(130, 100) == "in 30s");
    CHECK(format_relative(100, 400) == "5m ago");
    CHECK(format_relative(100 + 7500, 100) == "in 2h05m");
    CHECK(format_relative(100, 100 + 3 * 86400 + 4 * 3600) == "3d04h ago");
    QueueCounts q{10, 4, 1, 2, 1, 3, 2, 1};
    CHECK(queue_summary_line(q) ==
          "10 queues: 4 active (1 in-process; 2 ready; 1 snoozed); 3 inactive; 2 retired; 1 exhausted");
    CHECK(html_escape("<a href=\"x\">&'") == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
}

TEST_CASE("render_summary_json has the documented keys", "[report]") {
    Summary s;
    s.now = 5;
    s.results = {{"2xx", 3}, {"err:dns", 2}};
    s.heatmap["seed"]["other"] = 4;
    s.depth = {{"0", 4}};
    std::string j = render_summary_json(s);
    CHECK(j.find("\"queues\":{\"total\":0,\"active\":0,\"in_process\":0,\"ready\":0,\"snoozed\":0,\"inactive\":0,"
                 "\"retired\":0,\"exhausted\":0}") != std::string::npos);
    CHECK(j.find("\"urls\":{\"queued\":0,\"leased\":0,\"done\":0,\"failed\":0,\"blocked\":0,\"retired\":0,"
                 "\"disabled\":0") != std::string::npos);
    CHECK(j.find("\"results\":{\"2xx\":3,\"3xx\":0,\"4xx\":0,\"5xx\":0,\"errors\":{\"dns\":2}}") != std::string::npos);
    CHECK(j.find("\"heatmap\":{\"seed\":{\"other\":4}}") != std::string::npos);
    CHECK(j.find("\"depth\":{\"0\":4,\"1\":0,\"2\":0,\"3+\":0}") != std::string::npos);
}

TEST_CASE("render_report_html is self-contained and escapes names", "[report]") {
    Summary s;
    s.heatmap["<seed>"]["x&y"] = 1;
    QueueRow r;
    r.queue = "<evil>.example";
    r.total_spend = 5;
    r.total_budget = 4;
    std::string h = render_report_html(s, {r}, {r}, "t");
    CHECK(h.find("<evil>") == std::string::npos);
    CHECK(h.find("&lt;evil&gt;.example") != std::string::npos);
    CHECK(h.find("<script") == std::string::npos);
    CHECK(h.find("id=\"chart-spend\"") != std::string::npos);
    CHECK(h.find("#d62728") != std::string::npos);  // over budget in red
}

TEST_CASE("queue tables fit the width they are given", "[report]") {
    QueueRow r;
    r.queue = "example.org";
    r.last_peek_url = "http://example.org/" + std::string(200, 'p');
    r.last_queued_url = "http://example.org/" + std::string(200, 'q');
    // 0: whole lines, the URLs uncut.
    std::string whole = queue_table_row(r, 1800000000, false, 0);
    CHECK(whole.find(*r.last_peek_url) != std::string::npos);
    CHECK(whole.find(*r.last_queued_url) != std::string::npos);
    for (size_t width : {20u, 80u, 118u, 140u, 211u, 400u}) {
        INFO(width);
        for (bool wide : {false, true}) {
            CHECK(queue_table_header(wide, width).size() <= width);
            std::string row = queue_table_row(r, 1800000000, wide, width);
            CHECK(row.size() <= width);
            CHECK(row.rfind("example.org", 0) == 0);
        }
    }
    // Room for both URL columns: each cut with "~", both present.
    std::string fitted = queue_table_row(r, 1800000000, false, 211);
    CHECK(fitted.find("http://example.org/ppp") != std::string::npos);
    CHECK(fitted.find("http://example.org/qqq") != std::string::npos);
    CHECK(fitted.back() == '~');
    CHECK(fit_line("abcdef", 4) == "abc~");
    CHECK(fit_line("abc", 4) == "abc");
}
