// The data behind frontier-report (frontier-report(1)): a frontier summary read from
// maintained counters and the queues table, and per-queue rows streamed
// from the queues table. The SQL lives in lib/store/store_report.cpp (the storage
// module); the pure helpers here (state derivation, sort keys, effective
// budgets) are in lib/report/report_model.cpp and need no database.
//
// Cost: read_summary() reads the counters table and one pass over the
// queues table (one row per queue; on SQLite the same pass finds the
// summary's queue tables); only when URLs are marked for revisiting does it
// read urls, for the revisit section's due-now count and next due time (see
// lib/store/store_report.cpp).
// for_each_queue() streams queue rows as SQLite produces them.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "policy/model.hpp"
#include "policy/settings.hpp"
#include "report/crawl_stats.hpp"

namespace frontier {

class Store;

// A queue's reported state (frontier(7), BUDGETS): the stored state refined by its
// in-flight leases, wake time and size. The values partition all queues.
enum class ReportState { in_process, ready, snoozed, inactive, retired, exhausted };

// "in-process", "ready", "snoozed", "inactive", "retired", "exhausted".
const char* report_state_name(ReportState s);

// The rule that gives a queue its reported state, declared once as data: an
// ordered list of (state, condition), where a queue has the state of the
// first condition it meets. derive_report_state evaluates it on a row's
// values; the store renders the same list as SQL (lib/store/store_report.cpp,
// state_condition), so --state filters and the summary's counts cannot
// drift from the per-queue rows. In words: state 2/3 (retired by budget /
// by hand) -> retired; else queued <= 0 and in_flight <= 0 -> exhausted;
// else state 1 -> inactive; else (active) in_flight > 0 -> in-process,
// wake_at > now -> snoozed, else ready.
enum class QueueField { state, in_flight, queued, wake_at };
struct QueueTest {
    enum class Cmp { eq, ge, le, gt };
    QueueField field;
    Cmp cmp;
    double value;      // compared with this constant,
    bool now = false;  // or, when set, with "now"
};
struct ReportStateRule {
    ReportState state;
    std::vector<QueueTest> all;  // met when every test holds (none: always)
};
const std::vector<ReportStateRule>& report_state_rules();

// Derives the reported state from the stored columns (report_state_rules). Pure.
ReportState derive_report_state(int64_t state, int64_t in_flight, int64_t queued, double wake_at, double now);

// Parses a --state filter: a comma-separated list of state names, where
// "active" stands for in-process, ready and snoozed. Throws UsageError on an
// unknown name.
std::set<ReportState> parse_state_filter(const std::string& text);

struct QueueCounts {
    int64_t total = 0, active = 0, in_process = 0, ready = 0, snoozed = 0;
    int64_t inactive = 0, retired = 0, exhausted = 0;
};

struct UrlCounts {
    // queued excludes URLs in retired queues; those are `retired`.
    int64_t queued = 0, leased = 0, done = 0, failed = 0, blocked = 0, retired = 0, disabled = 0;
    int64_t robots_leased = 0;  // robots.txt prerequisites out
    int64_t added = 0;          // URLs ever added
};

// Revisit state (frontier(7), RECRAWL), when the frontier has URLs marked for revisiting.
// Counts come from maintained counters; due_now and next_due from two
// queries over revisited URLs (see read_summary).
struct RevisitSummary {
    int64_t urls = 0;           // URLs marked for revisiting
    int64_t never_visited = 0;  // of those, never visited successfully
    int64_t due_now = 0;        // may be visited now: queued, or past their revisit / retry time
    std::optional<double> next_due;  // the earliest revisit or retry time after now
    int64_t disabled = 0;       // disabled after recrawl.max-failures failures in a row
    int64_t first_visits = 0, eventful = 0, uneventful = 0;  // successful visits, by outcome
    // Revisited URLs by stored interval, all buckets of interval_bucket_names() in order.
    std::vector<std::pair<std::string, int64_t>> intervals;
};

// The crawl summary (frontier-report(1), CRAWL SUMMARY), from the crawl:*
// and visit:* counters and the timeline table kept by Store::finish.
struct CrawlSummary {
    std::optional<double> start;  // the first minute with a URL result
    std::optional<double> last;   // the end of the last minute with one
    int64_t pages = 0, bytes = 0, errors = 0;  // URL results recorded (robots.txt apart)
    int64_t novel = 0, revisit = 0, not_modified = 0;
    double avg_pages_per_s = 0;     // average_pages_per_second
    double recent_pages_per_s = 0;  // recent_pages_per_second: the last 10 minutes the crawl covered
    std::optional<Calibration> calibration;  // when URLs are marked for revisiting
};

struct MimeCount {
    int64_t count = 0, bytes = 0;
};

struct Summary {
    double now = 0;
    QueueCounts queues;
    UrlCounts urls;
    // Results by class: "1xx".."5xx" and "err:<class>" (robots.txt fetches included).
    std::map<std::string, int64_t> results;
    // discovery -> type -> URLs added (an empty discovery is "seed", an empty type "other").
    std::map<std::string, std::map<std::string, int64_t>> heatmap;
    // "0", "1", "2", "3+" -> URLs added at that depth.
    std::map<std::string, int64_t> depth;
    std::optional<RevisitSummary> revisits;  // absent when no URL is marked for revisiting
    CrawlSummary crawl;
    std::map<int64_t, int64_t> statuses;         // HTTP status -> results (status:* counters)
    std::map<std::string, MimeCount> mimetypes;  // mime_key -> 2xx results and their bytes
    // discovery -> depth ("0".."3+") -> URLs added (heatd:* counters).
    std::map<std::string, std::map<std::string, int64_t>> heat_depth;
    int64_t timeline_bucket = 60;         // seconds per bucket (timeline_bucket_seconds)
    std::vector<TimelineBucket> timeline;  // buckets with a result, in time order
    // A short crawl's results and errors in buckets of seconds, from URL
    // rows (set_visit_timeline; no bytes); empty otherwise.
    int64_t visit_bucket = 0;
    std::vector<TimelineBucket> visit_timeline;
};

// The longest crawl, by its timeline, whose results chart may use seconds,
// and the most URLs read for it (one pass over urls).
inline constexpr double kVisitTimelineMaxSpan = 3600;
inline constexpr int64_t kVisitTimelineMaxUrls = 250000;

// True when the results chart may use seconds (frontier-report(1), OVER
// TIME): some result recorded, the timeline spans at most
// kVisitTimelineMaxSpan and the frontier holds at most `max_urls` URLs. Pure.
bool wants_visit_timeline(const Summary& s, int64_t max_urls = kVisitTimelineMaxUrls);

// Sets s.visit_timeline from `seconds` (read_visit_seconds) in buckets of
// timeline_bucket_seconds(their span, 120, 1) when they account for every
// URL result (their pages sum to s.crawl.pages: each result is its URL's
// last one); else leaves it empty, and the timeline's minutes are shown. Pure.
void set_visit_timeline(Summary& s, const std::vector<TimelineBucket>& seconds);

// URL rows by the second their last result was recorded (urls.last_visit):
// results and errors (an error class or a status of 400 or more) per second
// with one, in time order; no bytes (a URL row does not keep them). One pass
// over urls. Throws DbError.
std::vector<TimelineBucket> read_visit_seconds(Store& store);

// Reads the summary at time `now` (one short read; no statement is left
// open). Throws DbError.
Summary read_summary(Store& store, double now);

// One queue of the per-queue report (Heritrix's per-queue columns plus fetch health).
struct QueueRow {
    int64_t id = 0;
    std::string queue;
    ReportState state = ReportState::ready;
    bool retired_by_hand = false;
    int64_t size = 0, enqueued = 0, session_balance = 0;
    std::optional<int64_t> last_cost;
    std::optional<double> average_cost;  // total_spend / costs charged
    int64_t total_spend = 0;
    int64_t total_budget = -1;    // effective; -1: no limit
    int64_t session_budget = 0;   // effective replenish
    int64_t error_count = 0, in_flight = 0;
    double wake_at = 0;
    std::optional<double> last_dequeue_at;
    std::optional<double> avg_latency_ms;  // latency_sum / latency_n
    std::optional<std::string> last_peek_url, last_queued_url;
    int64_t done = 0, failed = 0, blocked = 0;
    int64_t bytes = 0;  // response bytes of the queue's URL results
    int64_t host_down = 0, retry_after_blocks = 0;
    // robots.txt of the queue's host(s): "ok", "allow-all", "fetching",
    // "unknown", "unreachable", "gave-up" (the worst over its hosts), or
    // "disabled" when robots.enabled is off for the queue.
    std::string robots;
};

// Sort keys accepted by --sort: the numeric and string columns of QueueRow
// by their JSON names ("size", "total_spend", "queue", "total_budget", ...).
struct QueueSort {
    std::string key;        // empty: queue creation order
    bool descending = true; // numeric keys default to descending, "queue" and "state" to ascending
};

// Parses "KEY", "KEY:asc" or "KEY:desc". Throws UsageError on an unknown key.
QueueSort parse_queue_sort(const std::string& text);

// True when the sort cannot be done by SQL (computed columns): each queue's
// key is computed and sorted in memory, then the rows read again by id.
bool sort_in_memory(const QueueSort& s);

// Orders two rows by `s` (ties by queue id). Pure.
bool queue_row_less(const QueueRow& a, const QueueRow& b, const QueueSort& s);

// A row's value for a numeric sort key or "state", as queue_row_less
// compares them (not for "queue" or no key). Pure.
double queue_sort_value(const QueueRow& r, const QueueSort& s);

struct QueueQuery {
    std::set<ReportState> states;  // empty: all
    QueueSort sort;
    int64_t limit = -1;            // -1: no limit
    bool with_robots = true;       // fill QueueRow::robots (one pass over hosts first)
    std::vector<int64_t> ids;      // these queues only (empty: all)
};

// Calls `row` for each queue matching `q`, at time `now`, in order, as rows
// are read (in-memory sort keys collect first). `row` may throw (e.g.
// BrokenPipe); the statement is reset either way. Throws DbError.
void for_each_queue(Store& store, const QueueQuery& q, double now, const std::function<void(const QueueRow&)>& row);

// The summary's queue tables (frontier-report(1), OUTPUT): the `top`
// longest queues that are not exhausted and the `top` most expensive (some
// spend); with `crawl_tables` (the HTML page) also the hosts of most URLs
// done and most errors. With robots.txt when `with_robots`.
struct QueueTops {
    int64_t top = 10;
    bool with_robots = false;
    bool crawl_tables = false;
    std::vector<QueueRow> longest, costly;
    std::vector<QueueRow> hosts, failing_hosts;  // crawl_tables
};

// True when a queue in state `s` may be listed among the longest queues.
bool listed_as_longest(ReportState s);

// read_summary with the tables `tops` asks for. On an SQLite file one pass
// over queues gives the counts and every table's queues; PostgreSQL counts
// and sorts on the server (a statement a table, no row sent per queue).
Summary read_summary(Store& store, double now, QueueTops& tops);

// A seed (frontier-report --seeds): a URL added at depth 0 with no
// discovery method (or "seed"), its last result, and what its queue (host)
// reached: pages done and failed there, seed or not.
struct SeedRow {
    int64_t id = 0;
    std::string url, queue;
    UrlState state = UrlState::queued;
    std::optional<int64_t> status;
    std::string error_class, reason;
    int64_t queue_done = 0, queue_failed = 0;
};

// Calls `row` for each seed in order of addition, at most `limit` (-1: all).
// Reads the urls_seed partial index, then one queue row per seed.
void for_each_seed(Store& store, int64_t limit, const std::function<void(const SeedRow&)>& row);

// A failed URL (frontier-report --failed): state failed, latest first.
struct FailedUrl {
    std::string url, queue;
    std::optional<int64_t> status;
    std::string error_class, reason;
    std::optional<double> fetched_at;
};

// The `limit` most recently failed URLs (the urls_failed partial index).
void for_each_failed_url(Store& store, int64_t limit, const std::function<void(const FailedUrl&)>& row);

}  // namespace frontier
