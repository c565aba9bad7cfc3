// The storage side of frontier-report (lib/report/report_data.hpp): the SQL that
// reads the summary and the per-queue rows. Part of the storage module.
//
// The summary reads the counters table (maintained by add, lease and done)
// and one aggregate pass over the queues table; it touches urls only for the
// revisit section, when URLs are marked for revisiting (read_revisits).
// Queue rows stream from one statement; SQL does the filtering, ordering and
// limit except for computed sort keys (see sort_in_memory()).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <unordered_map>

#include "store/db.hpp"
#include "policy/recrawl.hpp"
#include "report/report_data.hpp"
#include "store/store.hpp"

namespace frontier {

namespace {

// Resets a statement when leaving scope, so no read transaction stays open
// (an open read would pin the WAL of a running crawl).
struct ResetOnExit {
    Stmt& st;
    ~ResetOnExit() { st.reset(); }
};

// On PostgreSQL, each report part (the summary; the queue rows) is read
// from one read-only snapshot. (SQLite reads each statement from one.)
struct ReadSnapshot {
    Db& db;
    bool on;
    explicit ReadSnapshot(Db& d) : db(d), on(d.postgres()) {
        if (on) db.begin_read();
    }
    ~ReadSnapshot() {
        if (on) db.rollback();
    }
};

// SQL conditions selecting exactly the queues of one reported state (the
// same rule as derive_report_state); ?1 is "now".
const char* state_condition(ReportState s) {
    switch (s) {
        case ReportState::in_process: return "(state = 0 AND in_flight > 0)";
        case ReportState::ready: return "(state = 0 AND in_flight <= 0 AND queued > 0 AND wake_at <= ?1)";
        case ReportState::snoozed: return "(state = 0 AND in_flight <= 0 AND queued > 0 AND wake_at > ?1)";
        case ReportState::inactive: return "(state = 1 AND (queued > 0 OR in_flight > 0))";
        case ReportState::retired: return "(state >= 2)";
        case ReportState::exhausted: return "(state < 2 AND queued <= 0 AND in_flight <= 0)";
    }
    return "0";
}

// ORDER BY expression for an SQL-sortable key.
const char* order_expression(const std::string& key) {
    static const std::unordered_map<std::string, const char*> m = {
        {"queue", "key"},
        {"size", "queued"},
        {"enqueued", "enqueued"},
        {"session_balance", "session_balance"},
        {"last_cost", "last_cost"},
        {"average_cost", "(CASE WHEN cost_count > 0 THEN CAST(total_spend AS REAL) / cost_count END)"},
        {"total_spend", "total_spend"},
        {"error_count", "error_count"},
        {"in_flight", "in_flight"},
        {"wake_at", "wake_at"},
        {"last_dequeue_at", "last_dequeue_at"},
        {"avg_latency_ms", "(CASE WHEN latency_n > 0 THEN latency_sum / latency_n END)"},
        {"host_down", "host_down"},
        {"retry_after_blocks", "retry_after_blocks"},
        {"done", "done"},
        {"failed", "failed"},
        {"blocked", "blocked"},
        {"bytes", "bytes"},
    };
    auto it = m.find(key);
    return it == m.end() ? "id" : it->second;
}

// robots.txt status of one host, ranked so that the worst wins for a queue.
struct RobotsStatus {
    int rank;
    const char* name;
};
RobotsStatus robots_status(int64_t state, std::optional<int64_t> status, bool lease_out) {
    switch (state) {
        case 1: return status && *status >= 200 && *status < 300 ? RobotsStatus{0, "ok"} : RobotsStatus{1, "allow-all"};
        case 2: return {4, "unreachable"};
        case 3: return {5, "gave-up"};
        default: return lease_out ? RobotsStatus{3, "fetching"} : RobotsStatus{2, "unknown"};
    }
}

// The revisit section (only for frontiers with URLs marked for revisiting):
// counts from the revisit:* counters, plus two queries over revisited URLs.
// Revisited URLs that may be visited now are those queued and not waiting
// (state 0, no due time) and those whose revisit or retry time has passed
// but that no lease call has queued yet. The second part and next_due walk
// the urls_due index from `now`; the first part reads every queued URL's
// row (the recrawl flag is not in urls_next). A partial index
// urls(state, due_at) WHERE recrawl = 1 would make all three index-only
// range reads of revisited URLs; the statements are written so SQLite picks
// it up when it exists.
RevisitSummary read_revisits(Db& db, std::map<std::string, int64_t>& c, int64_t disabled, double now) {
    RevisitSummary r;
    r.urls = c["urls"];
    r.first_visits = c["first"];
    r.never_visited = std::max<int64_t>(r.urls - r.first_visits, 0);
    r.eventful = c["eventful"];
    r.uneventful = c["uneventful"];
    r.disabled = disabled;
    for (const std::string& b : interval_bucket_names()) r.intervals.emplace_back(b, c["interval:" + b]);
    auto one = [&](const char* sql, bool with_now, auto&& read) {
        Stmt st = db.prepare(sql);
        ResetOnExit guard{st};
        if (with_now) st.bind(1, now);
        if (st.step()) read(st);
    };
    one("SELECT count(*) FROM urls WHERE recrawl = 1 AND state = 0 AND due_at IS NULL", false,
        [&](Stmt& st) { r.due_now += st.i64(0); });
    one("SELECT count(*) FROM urls WHERE recrawl = 1 AND state IN (0, 2, 3) AND due_at <= ?1", true,
        [&](Stmt& st) { r.due_now += st.i64(0); });
    one("SELECT min(due_at) FROM urls WHERE recrawl = 1 AND state IN (0, 2, 3) AND due_at > ?1", true,
        [&](Stmt& st) { r.next_due = st.opt_dbl(0); });
    return r;
}

// The over-time buckets, start and rates: the first and last timeline rows
// (primary key ends), then one grouped pass over the timeline (one row per
// minute with a result: 1,440 a day of crawling), and the last 10 minutes.
void read_timeline(Db& db, Summary& s, double now) {
    int64_t first = 0, last = 0;
    {
        Stmt st = db.prepare("SELECT min(minute), max(minute) FROM timeline");
        ResetOnExit guard{st};
        if (!st.step() || st.is_null(0)) return;
        first = st.i64(0);
        last = st.i64(1);
    }
    CrawlSummary& c = s.crawl;
    c.start = static_cast<double>(first) * 60;
    c.last = static_cast<double>(last + 1) * 60;
    c.avg_pages_per_s = pages_per_second(c.pages, *c.start, std::min(*c.last, std::max(now, *c.start + 60)));
    s.timeline_bucket = timeline_bucket_seconds(*c.last - *c.start);
    int64_t k = s.timeline_bucket / 60;
    {
        Stmt st = db.prepare("SELECT minute / ?1 AS b, sum(pages), sum(bytes), sum(errors) FROM timeline "
                             "GROUP BY minute / ?1 ORDER BY 1");
        ResetOnExit guard{st};
        st.bind(1, k);
        while (st.step())
            s.timeline.push_back({static_cast<double>(st.i64(0) * s.timeline_bucket), st.i64(1), st.i64(2), st.i64(3)});
    }
    {
        Stmt st = db.prepare("SELECT coalesce(sum(pages), 0) FROM timeline WHERE minute >= ?1 AND minute < ?2");
        ResetOnExit guard{st};
        st.bind(1, static_cast<int64_t>(std::floor((now - 600) / 60)));
        st.bind(2, static_cast<int64_t>(std::floor(now / 60)) + 1);
        if (st.step()) c.recent_pages_per_s = static_cast<double>(st.i64(0)) / 600;
    }
}

}  // namespace

void for_each_seed(Store& store, int64_t limit, const std::function<void(const SeedRow&)>& row) {
    Db& db = store.db();
    ReadSnapshot snapshot(db);
    Stmt st = db.prepare(
        "SELECT u.id, u.url, u.state, u.status, u.error_class, u.reason, q.key, q.done, q.failed FROM urls u "
        "JOIN queues q ON q.id = u.queue_id WHERE u.depth = 0 AND coalesce(u.discovery, '') IN ('', 'seed') "
        "ORDER BY u.id LIMIT ?1");
    ResetOnExit guard{st};
    st.bind(1, limit);
    while (st.step()) {
        SeedRow r;
        r.id = st.i64(0);
        r.url = st.str(1);
        r.state = static_cast<UrlState>(st.i64(2));
        r.status = st.opt_i64(3);
        if (r.status && *r.status <= 0) r.status.reset();  // no response
        if (!st.is_null(4)) r.error_class = st.str(4);
        if (!st.is_null(5)) r.reason = st.str(5);
        r.queue = st.str(6);
        r.queue_done = st.i64(7);
        r.queue_failed = st.i64(8);
        row(r);
    }
}

void for_each_failed_url(Store& store, int64_t limit, const std::function<void(const FailedUrl&)>& row) {
    Db& db = store.db();
    ReadSnapshot snapshot(db);
    Stmt st = db.prepare(
        "SELECT u.url, q.key, u.status, u.error_class, u.reason, u.fetched_at FROM urls u "
        "JOIN queues q ON q.id = u.queue_id WHERE u.state = 3 ORDER BY u.fetched_at DESC NULLS LAST, u.id DESC LIMIT ?1");
    ResetOnExit guard{st};
    st.bind(1, limit);
    while (st.step()) {
        FailedUrl r;
        r.url = st.str(0);
        r.queue = st.str(1);
        r.status = st.opt_i64(2);
        if (r.status && *r.status <= 0) r.status.reset();  // no response
        if (!st.is_null(3)) r.error_class = st.str(3);
        if (!st.is_null(4)) r.reason = st.str(4);
        r.fetched_at = st.opt_dbl(5);
        row(r);
    }
}

Summary read_summary(Store& store, double now) {
    std::map<std::string, int64_t> revisit_counters;
    Summary s;
    s.now = now;
    Db& db = store.db();
    ReadSnapshot snapshot(db);
    {
        // One pass over queues, no sort: a sum per reported state, with the
        // same conditions that --state filters use.
        constexpr ReportState kStates[] = {ReportState::in_process, ReportState::ready,   ReportState::snoozed,
                                           ReportState::inactive,   ReportState::retired, ReportState::exhausted};
        std::string sql = "SELECT count(*), total(CASE WHEN state >= 2 THEN queued END)";
        for (ReportState r : kStates) sql += std::string(", count(CASE WHEN ") + state_condition(r) + " THEN 1 END)";
        Stmt st = db.prepare(sql + " FROM queues");
        ResetOnExit guard{st};
        st.bind(1, now);
        if (st.step()) {
            QueueCounts& q = s.queues;
            auto n = [&](int col) { return static_cast<int64_t>(st.dbl(col)); };
            q.total = st.i64(0);
            s.urls.retired = n(1);
            q.in_process = n(2);
            q.ready = n(3);
            q.snoozed = n(4);
            q.inactive = n(5);
            q.retired = n(6);
            q.exhausted = n(7);
            q.active = q.in_process + q.ready + q.snoozed;
        }
    }
    {
        // The counters table is small: URL states, results, heatmap, depth, revisits.
        Stmt st = db.prepare("SELECT name, n FROM counters");
        ResetOnExit guard{st};
        UrlCounts& u = s.urls;
        while (st.step()) {
            std::string_view name = st.text(0);
            int64_t n = st.i64(1);
            if (name == "queued") u.queued = n;
            else if (name == "leased") u.leased = n;
            else if (name == "robots_leased") u.robots_leased = n;
            else if (name == "done") u.done = n;
            else if (name == "failed") u.failed = n;
            else if (name == "blocked") u.blocked = n;
            else if (name == "disabled") u.disabled = n;
            else if (name == "added") u.added = n;
            else if (name.starts_with("revisit:")) revisit_counters[std::string(name.substr(8))] = n;
            else if (name.starts_with("result:")) s.results[std::string(name.substr(7))] += n;
            else if (name.starts_with("depth:")) s.depth[std::string(name.substr(6))] += n;
            else if (name.starts_with("status:")) s.statuses[std::atoll(std::string(name.substr(7)).c_str())] += n;
            else if (name.starts_with("mime:")) s.mimetypes[std::string(name.substr(5))].count += n;
            else if (name.starts_with("mime-bytes:")) s.mimetypes[std::string(name.substr(11))].bytes += n;
            else if (name == "crawl:pages") s.crawl.pages = n;
            else if (name == "crawl:bytes") s.crawl.bytes = n;
            else if (name == "crawl:errors") s.crawl.errors = n;
            else if (name == "visit:novel") s.crawl.novel = n;
            else if (name == "visit:revisit") s.crawl.revisit = n;
            else if (name == "visit:not-modified") s.crawl.not_modified = n;
            else if (name.starts_with("heatd:")) {
                std::string_view rest = name.substr(6);
                auto tab = rest.find('\t');
                if (tab != std::string_view::npos)
                    s.heat_depth[std::string(rest.substr(0, tab))][std::string(rest.substr(tab + 1))] += n;
            }
            else if (name.starts_with("heat:")) {
                std::string_view rest = name.substr(5);
                auto tab = rest.find('\t');
                std::string disc(rest.substr(0, tab));
                std::string type = tab == std::string_view::npos ? "other" : std::string(rest.substr(tab + 1));
                s.heatmap[disc][type] += n;
            }
        }
        u.queued = std::max<int64_t>(u.queued - u.retired, 0);
    }
    for (const char* d : {"0", "1", "2", "3+"}) s.depth.try_emplace(d, 0);
    if (revisit_counters["urls"] > 0) s.revisits = read_revisits(db, revisit_counters, s.urls.disabled, now);
    read_timeline(db, s, now);
    if (s.revisits) {
        // Calibration (issue #28): revisited URLs at the shortest interval
        // of their bucket, never-visited ones at recrawl.interval, against
        // the recorded average rate.
        const Settings& set = store.settings();
        std::vector<RevisitLoad> load;
        load.push_back({set.recrawl_interval / 86400, s.revisits->never_visited});
        for (auto& [b, n] : s.revisits->intervals)
            load.push_back({interval_bucket_floor_days(b, set.recrawl_min / 86400), n});
        s.crawl.calibration = calibrate_revisits(load, s.crawl.avg_pages_per_s * 86400);
    }
    return s;
}

void for_each_queue(Store& store, const QueueQuery& q, double now, const std::function<void(const QueueRow&)>& row) {
    const Settings& settings = store.settings();
    Db& db = store.db();
    ReadSnapshot snapshot(db);

    // robots.txt per queue: hosts whose robots.txt the queue leased (one pass over hosts).
    std::unordered_map<int64_t, RobotsStatus> robots;
    if (q.with_robots) {
        Stmt st = db.prepare(
            "SELECT robots_queue, robots_state, robots_status, robots_lease_expires IS NOT NULL FROM hosts "
            "WHERE robots_queue IS NOT NULL");
        ResetOnExit guard{st};
        while (st.step()) {
            RobotsStatus r = robots_status(st.i64(1), st.opt_i64(2), st.i64(3) != 0);
            auto [it, fresh] = robots.try_emplace(st.i64(0), r);
            if (!fresh && r.rank > it->second.rank) it->second = r;
        }
    }

    std::string sql =
        "SELECT id, key, state, in_flight, queued, wake_at, enqueued, session_balance, last_cost, cost_count, "
        "total_spend, error_count, last_dequeue_at, latency_sum, latency_n, last_peek_url, last_queued_url, "
        "done, failed, blocked, host_down, retry_after_blocks, bytes FROM queues";
    if (!q.states.empty()) {
        sql += " WHERE ";
        bool first = true;
        for (ReportState s : q.states) {
            if (!first) sql += " OR ";
            sql += state_condition(s);
            first = false;
        }
    }
    bool in_memory = sort_in_memory(q.sort);
    if (!q.sort.key.empty() && !in_memory)
        sql += std::string(" ORDER BY ") + order_expression(q.sort.key) + (q.sort.descending ? " DESC NULLS LAST" : " ASC NULLS FIRST") + ", id";
    else
        sql += " ORDER BY id";
    sql += " LIMIT ?2";

    Stmt st = db.prepare(sql);
    ResetOnExit guard{st};
    st.bind(1, now);
    st.bind(2, in_memory ? int64_t{-1} : q.limit);
    std::vector<QueueRow> held;
    while (st.step()) {
        QueueRow r;
        r.id = st.i64(0);
        r.queue = st.str(1);
        int64_t state = st.i64(2);
        r.in_flight = st.i64(3);
        r.size = st.i64(4);
        r.wake_at = st.dbl(5);
        r.state = derive_report_state(state, r.in_flight, r.size, r.wake_at, now);
        r.retired_by_hand = state == 3;
        r.enqueued = st.i64(6);
        r.session_balance = st.i64(7);
        r.last_cost = st.opt_i64(8);
        int64_t cost_count = st.i64(9);
        r.total_spend = st.i64(10);
        if (cost_count > 0) r.average_cost = static_cast<double>(r.total_spend) / static_cast<double>(cost_count);
        r.error_count = st.i64(11);
        r.last_dequeue_at = st.opt_dbl(12);
        if (int64_t n = st.i64(14); n > 0) r.avg_latency_ms = st.dbl(13) / static_cast<double>(n);
        if (!st.is_null(15)) r.last_peek_url = st.str(15);
        if (!st.is_null(16)) r.last_queued_url = st.str(16);
        r.done = st.i64(17);
        r.failed = st.i64(18);
        r.blocked = st.i64(19);
        r.host_down = st.i64(20);
        r.retry_after_blocks = st.i64(21);
        r.bytes = st.i64(22);
        Store::BudgetValues b = store.effective_budget(r.queue);
        r.total_budget = b.total;
        r.session_budget = b.replenish;
        if (!settings.politeness_for(r.queue).robots_enabled) r.robots = "disabled";
        else if (auto it = robots.find(r.id); it != robots.end()) r.robots = it->second.name;
        else r.robots = "unknown";
        if (in_memory) held.push_back(std::move(r));
        else row(r);
    }
    st.reset();
    if (in_memory) {
        std::stable_sort(held.begin(), held.end(),
                         [&](const QueueRow& a, const QueueRow& b) { return queue_row_less(a, b, q.sort); });
        size_t n = q.limit < 0 ? held.size() : std::min(held.size(), static_cast<size_t>(q.limit));
        for (size_t i = 0; i < n; ++i) row(held[i]);
    }
}

}  // namespace frontier
