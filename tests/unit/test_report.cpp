// Unit tests for the pure parts of frontier-report: state derivation, --state
// and --sort parsing, row ordering, effective budgets and the renderers.
#include <catch2/catch.hpp>
#include <sqlite3.h>

#include <map>
#include <memory>
#include <string>

#include "core/error.hpp"
#include "report/report_data.hpp"
#include "report/report_html_charts.hpp"
#include "report/report_render.hpp"
#include "store/db.hpp"
#include "store/store.hpp"
#include "store/store_check.hpp"
#include "store/store_report_sql.hpp"
#include "temp_dir.hpp"

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

// --- the crawl's story (lib/report/crawl_stats.hpp) --------------------

#include "report/crawl_stats.hpp"

TEST_CASE("mime_key normalises Content-Type", "[report]") {
    CHECK(mime_key("text/html; charset=UTF-8") == "text/html");
    CHECK(mime_key("Application/PDF") == "application/pdf");
    CHECK(mime_key("  image/svg+xml ") == "image/svg+xml");
    CHECK(mime_key("") == "unknown");
    CHECK(mime_key(" ; charset=x") == "unknown");
    CHECK(mime_key("text") == "other");
    CHECK(mime_key("a/b/c") == "other");
    CHECK(mime_key("/html") == "other");
    CHECK(mime_key("text/<script>") == "other");
    CHECK(mime_key(std::string(30, 'a') + "/" + std::string(40, 'b')) == "other");
}

TEST_CASE("timeline_bucket_seconds picks the smallest width that fits", "[report]") {
    CHECK(timeline_bucket_seconds(0) == 60);
    CHECK(timeline_bucket_seconds(120 * 60) == 60);
    CHECK(timeline_bucket_seconds(120 * 60 + 1) == 300);
    CHECK(timeline_bucket_seconds(10 * 3600) == 300);
    CHECK(timeline_bucket_seconds(24 * 3600) == 900);
    CHECK(timeline_bucket_seconds(5 * 86400) == 3600);
    CHECK(timeline_bucket_seconds(30 * 86400) == 6 * 3600);
    CHECK(timeline_bucket_seconds(100 * 86400) == 86400);
    CHECK(timeline_bucket_seconds(10 * 365 * 86400.0) == 7 * 86400);
    CHECK(timeline_bucket_seconds(3600, 6) == 900);
}

TEST_CASE("timeline_bucket_seconds goes down to seconds from URL rows", "[report]") {
    CHECK(timeline_bucket_seconds(0, 120, 1) == 1);
    CHECK(timeline_bucket_seconds(120, 120, 1) == 1);
    CHECK(timeline_bucket_seconds(121, 120, 1) == 2);
    CHECK(timeline_bucket_seconds(600, 120, 1) == 5);
    CHECK(timeline_bucket_seconds(3600, 120, 1) == 30);
    CHECK(timeline_bucket_seconds(3601, 120, 1) == 60);
    CHECK(timeline_bucket_seconds(100, 120, 60) == 60);  // the stored minutes: never finer
}

TEST_CASE("regroup_timeline sums into aligned buckets", "[report]") {
    std::vector<TimelineBucket> sec = {{1000, 1, 10, 0}, {1001, 2, 0, 1}, {1004, 3, 0, 0}, {1005, 4, 5, 2}};
    auto g = regroup_timeline(sec, 5);
    REQUIRE(g.size() == 2);
    CHECK(g[0].start == 1000);
    CHECK(g[0].pages == 6);
    CHECK(g[0].bytes == 10);
    CHECK(g[0].errors == 1);
    CHECK(g[1].start == 1005);
    CHECK(g[1].pages == 4);
    CHECK(regroup_timeline(sec, 1).size() == 4);
}

TEST_CASE("a short crawl's results chart is in seconds when URL rows account for every result", "[report]") {
    Summary s;
    CHECK_FALSE(wants_visit_timeline(s));  // no result yet
    s.crawl.start = 1800000000;
    s.crawl.last = 1800000180;  // a two-minute crawl over three stored minutes
    s.crawl.pages = 240;
    s.urls.added = 1000;
    CHECK(wants_visit_timeline(s));
    CHECK_FALSE(wants_visit_timeline(s, 999));  // too many URL rows to read
    std::vector<TimelineBucket> sec;
    for (int i = 0; i < 120; ++i) sec.push_back({1800000030.0 + i, 2, 0, i % 10 == 0});
    set_visit_timeline(s, sec);
    CHECK(s.visit_bucket == 1);
    CHECK(s.visit_timeline.size() == 120);
    std::string h = render_report_html(s, {}, {}, "t");
    CHECK(h.find("one bar per 1s (each URL's last result)") != std::string::npos);
    CHECK(h.find("bytes per 1m00s") != std::string::npos);  // bytes: the stored minutes
    // A URL retried or revisited has one row for several results: the minutes stay.
    s.crawl.pages = 241;
    set_visit_timeline(s, sec);
    CHECK(s.visit_timeline.empty());
    CHECK(render_report_html(s, {}, {}, "t").find("one bar per 1m00s</p>") != std::string::npos);
    s.crawl.last = *s.crawl.start + 2 * 3600;
    CHECK_FALSE(wants_visit_timeline(s));  // the minutes give enough bars
}

TEST_CASE("recent_pages_per_second divides by the span the crawl covered", "[report]") {
    const double now = 1800000120;  // a minute boundary
    CHECK(recent_first_minute(now) * 60 == 1799999520);
    // A two-minute crawl: 1200 results in the 120 s since its first minute.
    CHECK(recent_pages_per_second(1200, 1800000000, now) == Approx(10.0));
    // A long crawl: the whole window, from the start of its first minute.
    CHECK(recent_pages_per_second(1200, 1799000000, now) == Approx(2.0));
    CHECK(recent_pages_per_second(610, 1799000000, now + 10) == Approx(1.0));
    CHECK(recent_pages_per_second(5, now, now) == Approx(5.0));  // at least a second
}

TEST_CASE("average_pages_per_second: to the end of the last minute, or to now while it runs", "[report]") {
    const double start = 1800000000, last = 1800000180;
    CHECK(average_pages_per_second(360, start, last, last + 500) == Approx(2.0));  // a crawl that ended
    CHECK(average_pages_per_second(360, start, last, start + 120) == Approx(3.0));  // one that runs
    // A crawl of a few seconds reported at once: the seconds it took, as the recent rate.
    CHECK(average_pages_per_second(500, start, start + 60, start + 10) == Approx(50.0));
    CHECK(average_pages_per_second(500, start, start + 60, start + 10) ==
          Approx(recent_pages_per_second(500, start, start + 10)));
    CHECK(average_pages_per_second(5, start, start + 60, start) == Approx(5.0));  // at least a second
}

TEST_CASE("pages_per_second", "[report]") {
    CHECK(pages_per_second(100, 1000, 1100) == Approx(1.0));
    CHECK(pages_per_second(100, 1000, 1000) == 0);
    CHECK(pages_per_second(100, 1000, 900) == 0);
}

TEST_CASE("calibrate_revisits: can the intervals be met at the recorded rate", "[report]") {
    // 100 URLs daily and 70 weekly ask for 110 visits a day.
    Calibration c = calibrate_revisits({{1, 100}, {7, 70}, {64, 0}}, 200);
    CHECK(c.due_per_day == Approx(110));
    CHECK(c.met);
    REQUIRE(c.feasible_interval_days);
    CHECK(*c.feasible_interval_days == Approx(170.0 / 200));
    c = calibrate_revisits({{1, 1000}}, 100);
    CHECK_FALSE(c.met);
    CHECK(*c.feasible_interval_days == Approx(10));
    c = calibrate_revisits({{1, 5}}, 0);
    CHECK_FALSE(c.met);
    CHECK_FALSE(c.feasible_interval_days);
    CHECK(calibrate_revisits({}, 0).met);  // nothing due: met
}

TEST_CASE("interval_bucket_floor_days", "[report]") {
    CHECK(interval_bucket_floor_days("<1d", 0.5) == 0.5);
    CHECK(interval_bucket_floor_days("1-2d", 1) == 1);
    CHECK(interval_bucket_floor_days("16-32d", 1) == 16);
    CHECK(interval_bucket_floor_days(">=64d", 1) == 64);
}

TEST_CASE("middle_truncate keeps both ends", "[report]") {
    CHECK(middle_truncate("http://a.example/", 40) == "http://a.example/");
    std::string u = "http://example.org/a/very/long/path/that/goes/on/and/on/index.html";
    std::string t = middle_truncate(u, 30);
    CHECK(t.starts_with("http://example."));
    CHECK(t.ends_with("index.html"));
    CHECK(t.find("\xE2\x80\xA6") != std::string::npos);
    CHECK(t.size() == 29 + 3);  // 29 characters kept, the ellipsis is 3 bytes
    // A UTF-8 sequence is never cut.
    std::string v = "http://x/" + std::string(20, 'a') + "\xC3\xA9\xC3\xA9\xC3\xA9" + std::string(20, 'b');
    std::string w = middle_truncate(v, 30);
    for (size_t i = 0; i + 1 < w.size(); ++i)
        if (static_cast<unsigned char>(w[i]) == 0xC3) CHECK((static_cast<unsigned char>(w[i + 1]) & 0xC0) == 0x80);
}

TEST_CASE("host_failure_reason", "[report]") {
    CHECK(host_failure_reason("unreachable", 3, 1) == "robots.txt unreachable");
    CHECK(host_failure_reason("gave-up", 0, 0) == "robots.txt gave up");
    CHECK(host_failure_reason("ok", 2, 1) == "host down");
    CHECK(host_failure_reason("ok", 0, 1) == "rate-limited");
    CHECK(host_failure_reason("ok", 0, 0) == "errors");
}

TEST_CASE("format_duration", "[report]") {
    CHECK(format_duration(45) == "45s");
    CHECK(format_duration(725) == "12m05s");
    CHECK(format_duration(3 * 3600 + 4 * 60) == "3h04m");
    CHECK(format_duration(2 * 86400 + 5 * 3600) == "2d05h");
}

TEST_CASE("crawl summary text and JSON", "[report]") {
    Summary s;
    s.now = 1800000600;
    CHECK(crawl_text(s) == "Crawl: no URL result recorded yet\n");
    s.crawl.start = 1800000000;
    s.crawl.last = 1800000600;
    s.crawl.pages = 1200;
    s.crawl.errors = 7;
    s.crawl.bytes = 123456;
    s.crawl.novel = 1000;
    s.crawl.revisit = 150;
    s.crawl.not_modified = 43;
    s.crawl.avg_pages_per_s = 2;
    s.crawl.recent_pages_per_s = 1.5;
    s.timeline = {{1800000000, 600, 60000, 3}, {1800000300, 600, 63456, 4}};
    s.timeline_bucket = 300;
    CHECK(crawl_text(s) ==
          "Crawl: 2027-01-15T08:00:00Z to 2027-01-15T08:10:00Z (10m00s): 1200 results (7 errors); 123456 bytes; "
          "1000 novel; 150 revisits; 43 not modified\n"
          "Rate: 2.00 pages/s average; 1.50 pages/s in the last 10 minutes\n");
    std::string j = render_summary_json(s);
    CHECK(j.find("\"crawl\":{\"start\":1800000000,\"last\":1800000600,\"duration\":600,\"results\":1200,\"errors\":7,"
                 "\"bytes\":123456") != std::string::npos);
    CHECK(j.find("\"timeline\":{\"bucket_seconds\":300,\"buckets\":[{\"start\":1800000000,\"pages\":600,\"bytes\":60000,"
                 "\"errors\":3},") != std::string::npos);
    s.crawl.calibration = calibrate_revisits({{1, 100}}, 50);
    CHECK(crawl_text(s).find("Revisit capacity: the intervals ask for 100.0 visits/day; the crawl made 50.0/day: not met; "
                             "the rate covers every revisited URL at an interval of 2.0 days\n") != std::string::npos);
}

TEST_CASE("heatmap_by_depth only when no type is known", "[report]") {
    Summary s;
    s.heatmap["seed"]["other"] = 10;
    CHECK_FALSE(heatmap_by_depth(s));  // nothing to show instead
    s.heat_depth["seed"]["0"] = 10;
    CHECK(heatmap_by_depth(s));
    s.heatmap["link"]["article"] = 1;
    CHECK_FALSE(heatmap_by_depth(s));
}

TEST_CASE("HTML: no bar for a no-limit budget, retired balance, middle-cut URLs with the whole one on hover",
          "[report]") {
    Summary s;
    s.now = 1800000000;
    QueueRow unlimited;
    unlimited.id = 1;
    unlimited.queue = "unlimited.example";
    unlimited.total_spend = 522;
    unlimited.total_budget = -1;
    QueueRow capped = unlimited;
    capped.id = 2;
    capped.queue = "capped.example";
    capped.total_budget = 1000;
    capped.state = ReportState::retired;
    capped.session_balance = -3;
    std::string url = "http://capped.example/" + std::string(100, 'x') + "/end.html";
    capped.last_peek_url = url;
    std::string h = render_report_html(s, {capped}, {unlimited, capped}, "t");
    auto svg_start = h.find("id=\"chart-spend\"");
    auto svg = h.substr(svg_start, h.find("</svg>", svg_start) - svg_start);
    CHECK(svg.find("522 spent &middot; no limit") != std::string::npos);
    // Two rects for the capped queue (budget track and spend), none for the unlimited one.
    size_t rects = 0;
    for (size_t p = svg.find("<rect"); p != std::string::npos; p = svg.find("<rect", p + 1)) ++rects;
    CHECK(rects == 2);
    CHECK(h.find("<td title=\"stored session balance -3\">retired</td>") != std::string::npos);
    CHECK(h.find("title=\"" + url + "\"") != std::string::npos);
    CHECK(h.find(">" + url + "<") == std::string::npos);  // never printed whole
    CHECK(h.find("end.html</td>") != std::string::npos);
    CHECK(h.find("<script") == std::string::npos);
    CHECK(h.find("generated at <time id=\"generated\">2027-01-15T08:00:00Z</time>") != std::string::npos);
    CHECK(h.find(" ago") == std::string::npos);  // absolute times only
}

TEST_CASE("HTML: results, errors and bytes over time", "[report]") {
    Summary s;
    s.now = 1800000600;
    std::string h = render_report_html(s, {}, {}, "t");
    CHECK(h.find("id=\"chart-timeline\"") != std::string::npos);
    CHECK(h.find("no URL result recorded yet") != std::string::npos);
    s.timeline_bucket = 300;
    s.timeline = {{1800000000, 10, 5000, 0}, {1800000300, 4, 1000, 2}};
    h = render_report_html(s, {}, {}, "t");
    auto count = [&](const std::string& needle) {
        size_t n = 0;
        for (size_t p = h.find(needle); p != std::string::npos; p = h.find(needle, p + 1)) ++n;
        return n;
    };
    CHECK(count("class=\"tl-pages\"") == 2);
    CHECK(count("class=\"tl-errors\"") == 1);  // only the bucket with errors
    CHECK(count("class=\"tl-bytes\"") == 2);
    CHECK(h.find("id=\"chart-timeline-bytes\"") != std::string::npos);
    CHECK(h.find("<title>2027-01-15T08:05:00Z: 4 results, 2 errors, 1,000 bytes</title>") != std::string::npos);
    CHECK(h.find("one bar per 5m00s") != std::string::npos);
}

TEST_CASE("HTML: a seed's row shows its own outcome, not its queue's totals", "[report]") {
    Summary s;
    CrawlTables c;
    SeedRow failed;
    failed.url = "http://a.example/missing";
    failed.queue = "a.example";
    failed.state = UrlState::failed;
    failed.status = 404;
    failed.queue_done = 531;
    failed.queue_failed = 7;
    SeedRow timeout = failed;
    timeout.url = "http://a.example/slow";
    timeout.status.reset();
    timeout.error_class = "timeout";
    c.seeds = {failed, timeout};
    std::string h = render_report_html(s, {}, {}, "t", c);
    auto start = h.find("<table id=\"seeds\">");
    std::string seeds = h.substr(start, h.find("</table>", start) - start);
    CHECK(seeds.find("<td>failed</td><td>404</td><td>-</td><td>-</td>") != std::string::npos);
    CHECK(seeds.find("<td>failed</td><td>-</td><td>timeout</td><td>-</td>") != std::string::npos);
    CHECK(seeds.find("531") == std::string::npos);
    CHECK(seeds.find("there") == std::string::npos);
}

TEST_CASE("HTML: chart labels get the room they need, long ones cut in the middle", "[report]") {
    using report_html::text_px;
    // Generous: at least DejaVu Sans' digit advance (0.636 em) a character.
    CHECK(text_px("9,635,386") >= 9 * 0.636 * 13);
    CHECK(text_px("é") < text_px("ee"));  // a character, not two bytes
    Summary s;
    s.mimetypes["application/octet-stream"] = {3, 9635386};
    s.mimetypes["application/" + std::string(80, 'x')] = {1, 1};
    s.timeline = {{1800000000, 3, 9635386, 0}};
    std::string h = render_report_html(s, {}, {}, "t");
    auto chart = [&](const std::string& id) {
        auto p = h.find("id=\"" + id + "\"");
        return h.substr(p, h.find("</svg>", p) - p);
    };
    std::string m = chart("chart-mimetypes");
    CHECK(m.find(">application/octet-stream</text>") != std::string::npos);
    CHECK(m.find("<title>application/" + std::string(80, 'x') + "</title>application/") != std::string::npos);
    // The label column ends where the widest label does (x of the first bar).
    auto x = m.find("<rect x=\"");
    CHECK(std::stod(m.substr(x + 9)) >= text_px("application/octet-stream") + 8);
    // The bytes axis: its largest label starts right of 0.
    std::string b = chart("chart-timeline-bytes");
    auto t = b.find("\" text-anchor=\"end\" class=\"num\">9,635,386<");
    REQUIRE(t != std::string::npos);
    auto xs = b.rfind("x=\"", t);
    CHECK(std::stod(b.substr(xs + 3)) >= text_px("9,635,386"));
}

// The state rule is declared once (report_state_rules); the store renders it
// as SQL for --state filters and the summary's counts. Over a grid of stored
// values, every queue is selected by exactly the SQL condition of the state
// derive_report_state gives it.
TEST_CASE("state_condition selects what derive_report_state derives", "[report]") {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(":memory:", &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db, "CREATE TABLE queues(id INTEGER PRIMARY KEY, state INTEGER NOT NULL, "
                             "in_flight INTEGER NOT NULL, queued INTEGER NOT NULL, wake_at REAL NOT NULL)",
                         nullptr, nullptr, nullptr) == SQLITE_OK);
    const double now = 1000;
    std::map<int64_t, ReportState> want;
    int64_t id = 0;
    for (int state : {0, 1, 2, 3})
        for (int in_flight : {-1, 0, 1, 2})
            for (int queued : {-1, 0, 1, 5})
                for (double wake_at : {0.0, 999.5, 1000.0, 1000.5}) {
                    std::string sql = "INSERT INTO queues VALUES(" + std::to_string(++id) + "," +
                                      std::to_string(state) + "," + std::to_string(in_flight) + "," +
                                      std::to_string(queued) + "," + std::to_string(wake_at) + ")";
                    REQUIRE(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
                    want[id] = derive_report_state(state, in_flight, queued, wake_at, now);
                }
    size_t selected = 0;
    for (const ReportStateRule& rule : report_state_rules()) {
        std::string sql = std::string("SELECT id FROM queues WHERE ") + state_condition(rule.state);
        sqlite3_stmt* st = nullptr;
        REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK);
        sqlite3_bind_double(st, 1, now);
        while (sqlite3_step(st) == SQLITE_ROW) {
            ++selected;
            CHECK(want[sqlite3_column_int64(st, 0)] == rule.state);
        }
        sqlite3_finalize(st);
    }
    CHECK(selected == want.size());  // each queue selected once: the conditions partition
    sqlite3_close(db);
}

TEST_CASE("the count of queued revisited URLs reads no URL row", "[report][store]") {
    // Schema version 8: the lease order is kept in url_next and url_next_new
    // (SQLite), which hold recrawl, so the count reads those two
    // tables and never a URL row.
    TempDir dir;
    Store store(dir.path + "/f.db", Store::Mode::create);
    std::unique_ptr<Db> conn = Db::open(dir.path + "/f.db", false);  // a connection of its own
    std::string plan;
    Stmt st = conn->prepare(std::string("EXPLAIN QUERY PLAN ") + queued_revisits_sql(*conn));
    while (st.step()) plan += st.str(3) + "\n";
    st.reset();
    INFO(plan);
    CHECK(plan.find("SCAN url_next\n") != std::string::npos);
    CHECK(plan.find("SCAN url_next_new\n") != std::string::npos);
    CHECK(plan.find("urls") == std::string::npos);
}

// On SQLite the summary's pass over queues counts them in C++ and finds the
// queues of its two tables (read_summary with QueueTops). Over a grid of
// stored values, with tied sizes, spends, done and error counts, the counts
// equal those of the SQL conditions (PostgreSQL's aggregate) and the four
// tables those of the SQL sorts (for_each_queue, PostgreSQL's path).
TEST_CASE("read_visit_seconds groups URL rows by the second of their last result", "[report][store]") {
    TempDir dir;
    Store store(dir.path + "/f.db", Store::Mode::create);
    std::unique_ptr<Db> conn = Db::open(dir.path + "/f.db", false);  // a connection of its own
    // id, last_visit, status, error_class (SQL literals); a URL never visited has no last_visit.
    const char* rows[][4] = {{"1", "1000.2", "200", "NULL"},     {"2", "1000.9", "404", "NULL"},
                             {"3", "1003.5", "NULL", "'timeout'"}, {"4", "NULL", "NULL", "NULL"},
                             {"5", "1003.0", "301", "NULL"}};
    for (auto& r : rows)
        conn->exec(std::string("INSERT INTO urls(id, fp, url, queue_id, host_id, rank, priority, cost, last_visit, "
                               "status, error_class) VALUES (") + r[0] + ", " + r[0] + ", 'http://a.example/" + r[0] +
                   "', 1, 1, 0, 0, 1, " + r[1] + ", " + r[2] + ", " + r[3] + ")");
    std::vector<TimelineBucket> v = read_visit_seconds(store);
    REQUIRE(v.size() == 2);
    CHECK(v[0].start == 1000);
    CHECK(v[0].pages == 2);
    CHECK(v[0].errors == 1);  // the 404
    CHECK(v[1].start == 1003);
    CHECK(v[1].pages == 2);
    CHECK(v[1].errors == 1);  // the timeout, not the 301
}

TEST_CASE("one pass over queues gives the SQL counts and tables", "[report][store]") {
    TempDir dir;
    Store store(dir.path + "/f.db", Store::Mode::create);
    std::unique_ptr<Db> conn = Db::open(dir.path + "/f.db", false);  // a connection of its own
    const double now = 1000;
    int64_t n = 0;
    for (int state : {0, 1, 2, 3})
        for (int in_flight : {0, 2})
            for (int queued : {0, 1, 5, 7})
                for (double wake_at : {0.0, 1000.5})
                    for (int spend : {0, 3, 9}) {
                        ++n;
                        conn->prepare("INSERT INTO queues(key, state, in_flight, queued, wake_at, total_spend, done, "
                                     "failed, error_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
                            .bind(1, "q" + std::to_string(n)).bind(2, state).bind(3, in_flight).bind(4, queued)
                            .bind(5, wake_at).bind(6, spend).bind(7, (n * 7) % 5 == 0 ? 0 : n % 4)
                            .bind(8, n % 3 == 0 ? 1 : 0).bind(9, (n * 5) % 7 < 2 ? n % 3 : 0).exec();
                    }
    auto ids = [](const std::vector<QueueRow>& rows) {
        std::vector<int64_t> out;
        for (const QueueRow& r : rows) out.push_back(r.id);
        return out;
    };
    for (int64_t top : {1, 10, 1000}) {
        INFO("top " << top);
        QueueTops tops;
        tops.top = top;
        tops.crawl_tables = true;
        Summary one = read_summary(store, now, tops);
        CHECK(one.queues.total == n);
        const std::map<ReportState, int64_t> counted = {
            {ReportState::in_process, one.queues.in_process}, {ReportState::ready, one.queues.ready},
            {ReportState::snoozed, one.queues.snoozed},       {ReportState::inactive, one.queues.inactive},
            {ReportState::retired, one.queues.retired},       {ReportState::exhausted, one.queues.exhausted}};
        for (auto [state, count] : counted) {
            Stmt st = conn->prepare(std::string("SELECT count(*) FROM queues WHERE ") + state_condition(state));
            st.bind(1, now);
            REQUIRE(st.step());
            CHECK(count == st.i64(0));
            st.reset();
        }
        Stmt st = conn->prepare("SELECT total(queued) FROM queues WHERE state >= 2");
        REQUIRE(st.step());
        CHECK(one.urls.retired == static_cast<int64_t>(st.dbl(0)));
        st.reset();
        std::vector<QueueRow> longest, costly;
        QueueQuery q;
        q.limit = top;
        q.with_robots = false;
        q.states = {ReportState::in_process, ReportState::ready, ReportState::snoozed, ReportState::inactive,
                    ReportState::retired};
        q.sort = parse_queue_sort("size");
        for_each_queue(store, q, now, [&](const QueueRow& r) { longest.push_back(r); });
        q.states.clear();
        q.sort = parse_queue_sort("total_spend");
        for_each_queue(store, q, now, [&](const QueueRow& r) {
            if (r.total_spend > 0) costly.push_back(r);
        });
        std::vector<QueueRow> hosts, failing;
        q.sort = parse_queue_sort("done");
        for_each_queue(store, q, now, [&](const QueueRow& r) {
            if (r.done + r.failed + r.error_count > 0) hosts.push_back(r);
        });
        q.sort = parse_queue_sort("error_count");
        for_each_queue(store, q, now, [&](const QueueRow& r) {
            if (r.error_count + r.failed > 0) failing.push_back(r);
        });
        CHECK(ids(tops.longest) == ids(longest));
        CHECK(ids(tops.costly) == ids(costly));
        CHECK(ids(tops.hosts) == ids(hosts));
        CHECK(ids(tops.failing_hosts) == ids(failing));
        CHECK(!tops.hosts.empty());
        CHECK(!tops.failing_hosts.empty());
        CHECK(tops.longest.size() == std::min<size_t>(top, longest.size()));
        CHECK(!tops.costly.empty());
    }
}

// A computed sort key (state, total_budget) holds a key and an id per queue
// and reads the rows again by id, 500 at a time: over 1,234 queues, with
// ties, the order and the limit are queue_row_less's over whole rows.
TEST_CASE("computed sort keys read rows by id in queue_row_less order", "[report][store]") {
    TempDir dir;
    Store store(dir.path + "/f.db", Store::Mode::create);
    std::unique_ptr<Db> conn = Db::open(dir.path + "/f.db", false);  // a connection of its own
    const double now = 1000;
    for (int i = 0; i < 1234; ++i) {
        conn->prepare("INSERT INTO queues(key, state, in_flight, queued, wake_at) VALUES (?, ?, ?, ?, ?)")
            .bind(1, "q" + std::to_string(i)).bind(2, (i * 7) % 4).bind(3, (i * 5) % 3 == 0 ? 1 : 0)
            .bind(4, (i * 11) % 5).bind(5, (i % 2) ? 0.0 : 2000.0).exec();
        // Budgets of their own on some queues (tied among them, and below
        // the others' no limit), so total_budget orders by value too.
        if (i % 3 == 0) store.set_budget_override({"queue", "q" + std::to_string(i), std::nullopt, (i * 13) % 40});
    }
    std::vector<QueueRow> all;
    QueueQuery whole;
    whole.with_robots = false;
    for_each_queue(store, whole, now, [&](const QueueRow& r) { all.push_back(r); });
    REQUIRE(all.size() == 1234);
    CHECK(all[3].total_budget == 39);
    CHECK(all[1].total_budget == -1);
    for (const char* key : {"state", "state:asc", "total_budget", "total_budget:asc"})
        for (int64_t limit : {int64_t{-1}, int64_t{3}, int64_t{700}}) {
            INFO(key << " limit " << limit);
            QueueQuery q = whole;
            q.sort = parse_queue_sort(key);
            q.limit = limit;
            REQUIRE(sort_in_memory(q.sort));
            std::vector<int64_t> got, want;
            for_each_queue(store, q, now, [&](const QueueRow& r) { got.push_back(r.id); });
            std::vector<QueueRow> sorted = all;
            std::stable_sort(sorted.begin(), sorted.end(),
                             [&](const QueueRow& a, const QueueRow& b) { return queue_row_less(a, b, q.sort); });
            for (const QueueRow& r : sorted)
                if (limit < 0 || static_cast<int64_t>(want.size()) < limit) want.push_back(r.id);
            CHECK(got == want);
        }
}

// --check's per-queue recounts are a flat array over the queue ids up to
// twice their number: a damaged or imported file with a huge queue id
// (here 2,000,000,000: 56 GB of array) is recounted through the map.
TEST_CASE("check_frontier recounts queues with huge ids", "[report][store]") {
    TempDir dir;
    Store store(dir.path + "/f.db", Store::Mode::create);
    std::unique_ptr<Db> conn = Db::open(dir.path + "/f.db", false);  // a connection of its own
    for (const char* key : {"a.example", "b.example"})
        conn->prepare("INSERT INTO queues(key, enqueued, queued) VALUES (?, 0, 0)").bind(1, key).exec();
    conn->prepare("UPDATE queues SET id = 2000000000 WHERE key = 'b.example'").exec();
    CheckResult r = check_frontier(store, 1000);
    CHECK(r.queues == 2);
    for (auto& [name, n] : r.checks)
        if (name == "queue-counts" || name == "queue-state") CHECK(n == 0);
}
