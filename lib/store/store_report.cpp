// The storage side of frontier-report (lib/report/report_data.hpp): the SQL that
// reads the summary. Part of the storage module; the per-queue, seed and
// failed-URL rows are in lib/store/store_report_rows.cpp.
//
// The summary reads the counters table (maintained by add, lease and done)
// and one pass over the queues table (on SQLite read row by row, finding
// the queues of the summary's tables too; on PostgreSQL an aggregate); it
// touches urls only for the revisit section, when URLs are marked for
// revisiting (read_revisits).
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "store/db.hpp"
#include "policy/recrawl.hpp"
#include "report/report_data.hpp"
#include "store/sql_codes.hpp"
#include "store/sql_columns.hpp"
#include "store/store.hpp"
#include "store/store_backend.hpp"
#include "store/store_connection.hpp"
#include "store/store_report_sql.hpp"

namespace frontier {

namespace {

// One test of the state rule in SQL; ?1 is "now".
std::string test_sql(const QueueTest& t) {
    const char* column = "";
    switch (t.field) {
        case QueueField::state: column = "state"; break;
        case QueueField::in_flight: column = "in_flight"; break;
        case QueueField::queued: column = "queued"; break;
        case QueueField::wake_at: column = "wake_at"; break;
    }
    const char* op = "";
    switch (t.cmp) {
        case QueueTest::Cmp::eq: op = " = "; break;
        case QueueTest::Cmp::ge: op = " >= "; break;
        case QueueTest::Cmp::le: op = " <= "; break;
        case QueueTest::Cmp::gt: op = " > "; break;
    }
    // The constants are small integers (states, 0).
    return std::string(column) + op + (t.now ? std::string("?1") : std::to_string(static_cast<int64_t>(t.value)));
}

// A rule's tests joined by AND ("1 = 1" for none).
std::string all_sql(const ReportStateRule& r) {
    if (r.all.empty()) return "1 = 1";
    std::string sql;
    for (const QueueTest& t : r.all) sql += (sql.empty() ? "" : " AND ") + test_sql(t);
    return sql;
}

}  // namespace

const char* state_condition(ReportState s) {
    // First match wins: a queue is in state s when it meets s's tests and
    // none of the rules before it. The columns are NOT NULL, so NOT is exact.
    static const std::map<ReportState, std::string> conditions = [] {
        std::map<ReportState, std::string> out;
        std::string earlier;
        for (const ReportStateRule& r : report_state_rules()) {
            out.emplace(r.state, "(" + earlier + all_sql(r) + ")");
            earlier += "NOT (" + all_sql(r) + ") AND ";
        }
        return out;
    }();
    auto it = conditions.find(s);
    return it == conditions.end() ? "0" : it->second.c_str();
}

namespace {

// The revisit section (only for frontiers with URLs marked for revisiting):
// counts from the revisit:* counters, plus two queries over revisited URLs.
// Revisited URLs that may be visited now are those queued and not waiting
// (state 0, no due time) and those whose revisit or retry time has passed
// but that no lease call has queued yet. The second part and next_due walk
// the urls_due index from `now`; the first part is an index-only scan of
// urls_next, whose last column is the recrawl flag (schema version 6), or
// a scan of url_next and url_next_new (queued_revisits_sql): it reads the
// queued URLs' order entries, not their rows. A separate index of
// revisited URLs would make it a range read, but every lease and result
// would then keep it up to date too, so it is not kept.
#define SQL_REVISITABLE_STATES "(" SQL_URL_QUEUED ", " SQL_URL_DONE ", " SQL_URL_FAILED ")"
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
    one(queued_revisits_sql(db), false, [&](Stmt& st) { r.due_now += st.i64(0); });
    one("SELECT count(*) FROM urls WHERE recrawl = 1 AND state IN " SQL_REVISITABLE_STATES " AND due_at <= ?1", true,
        [&](Stmt& st) { r.due_now += st.i64(0); });
    one("SELECT min(due_at) FROM urls WHERE recrawl = 1 AND state IN " SQL_REVISITABLE_STATES " AND due_at > ?1", true,
        [&](Stmt& st) { r.next_due = st.opt_dbl(0); });
    return r;
}

// The over-time buckets, start and rates: the first and last timeline rows
// (primary key ends), then one grouped pass over the timeline (one row per
// minute with a result: 1,440 a day of crawling), and the last 10 minutes.
void read_timeline(Db& db, Summary& s, double now) {
    int64_t first = 0, last = 0;
    {
        enum class E { first, last };
        Stmt st = db.prepare("SELECT min(minute), max(minute) FROM timeline");
        ResetOnExit guard{st};
        SqlRow<E> row(st);
        if (!st.step() || row.is_null(E::first)) return;
        first = row.i64(E::first);
        last = row.i64(E::last);
    }
    CrawlSummary& c = s.crawl;
    c.start = static_cast<double>(first) * 60;
    c.last = static_cast<double>(last + 1) * 60;
    c.avg_pages_per_s = average_pages_per_second(c.pages, *c.start, *c.last, now);
    s.timeline_bucket = timeline_bucket_seconds(*c.last - *c.start);
    int64_t k = s.timeline_bucket / 60;
    {
        enum class B { bucket, pages, bytes, errors };
        Stmt st = db.prepare("SELECT minute / ?1 AS b, sum(pages), sum(bytes), sum(errors) FROM timeline "
                             "GROUP BY minute / ?1 ORDER BY 1");
        ResetOnExit guard{st};
        st.bind(1, k);
        for (SqlRow<B> b(st); st.step();)
            s.timeline.push_back({static_cast<double>(b.i64(B::bucket) * s.timeline_bucket), b.i64(B::pages),
                                  b.i64(B::bytes), b.i64(B::errors)});
    }
    {
        Stmt st = db.prepare("SELECT coalesce(sum(pages), 0) FROM timeline WHERE minute >= ?1 AND minute < ?2");
        ResetOnExit guard{st};
        st.bind(1, recent_first_minute(now));
        st.bind(2, static_cast<int64_t>(std::floor(now / 60)) + 1);
        if (st.step()) c.recent_pages_per_s = recent_pages_per_second(st.i64(0), *c.start, now);
    }
}

}  // namespace

std::vector<TimelineBucket> read_visit_seconds(Store& store) {
    Db& db = store_db(store);
    enum class V { second, pages, errors };
    Stmt st = db.prepare("SELECT " + db.whole_part_sql("last_visit") + " AS s, count(*), count(CASE WHEN "
                         "error_class IS NOT NULL OR status >= 400 THEN 1 END) FROM urls WHERE last_visit >= 0 "
                         "GROUP BY 1 ORDER BY 1");
    ResetOnExit guard{st};
    std::vector<TimelineBucket> out;
    for (SqlRow<V> row(st); st.step();)
        out.push_back({static_cast<double>(row.i64(V::second)), row.i64(V::pages), 0, row.i64(V::errors)});
    return out;
}

namespace {

// Each reported state and its count in the summary.
constexpr std::pair<ReportState, int64_t QueueCounts::*> kStateCounts[] = {
    {ReportState::in_process, &QueueCounts::in_process}, {ReportState::ready, &QueueCounts::ready},
    {ReportState::snoozed, &QueueCounts::snoozed},       {ReportState::inactive, &QueueCounts::inactive},
    {ReportState::retired, &QueueCounts::retired},       {ReportState::exhausted, &QueueCounts::exhausted}};

// One pass over queues, no sort: a sum per reported state, with the same
// conditions that --state filters use, and the URLs of retired queues.
void read_queue_counts(Db& db, Summary& s, double now) {
    enum class C { total, retired_urls, first_state };
    std::string sql = "SELECT count(*), total(CASE WHEN state >= " SQL_QUEUE_RETIRED " THEN queued END)";
    for (auto& [state, member] : kStateCounts)
        sql += std::string(", count(CASE WHEN ") + state_condition(state) + " THEN 1 END)";
    Stmt st = db.prepare(sql + " FROM queues");
    ResetOnExit guard{st};
    st.bind(1, now);
    if (!st.step()) return;
    QueueCounts& q = s.queues;
    auto n = [&](int col) { return static_cast<int64_t>(st.dbl(col)); };
    q.total = st.i64(static_cast<int>(C::total));
    s.urls.retired = n(static_cast<int>(C::retired_urls));
    int col = static_cast<int>(C::first_state);
    for (auto& [state, member] : kStateCounts) q.*member = n(col++);
    q.active = q.in_process + q.ready + q.snoozed;
}

// The ids of the `n` largest keys offered, in the order of SQL's
// "ORDER BY key DESC, id" (a heap whose top is the worst kept).
class TopIds {
public:
    explicit TopIds(int64_t n) : n_(static_cast<size_t>(std::max<int64_t>(n, 0))) {}
    void offer(int64_t key, int64_t id) {
        if (n_ == 0 || (heap_.size() == n_ && !better({key, id}, heap_.front()))) return;
        heap_.push_back({key, id});
        std::push_heap(heap_.begin(), heap_.end(), better);
        if (heap_.size() > n_) {
            std::pop_heap(heap_.begin(), heap_.end(), better);
            heap_.pop_back();
        }
    }
    // Best first.
    std::vector<int64_t> ids() const {
        std::vector<Entry> sorted = heap_;
        std::sort_heap(sorted.begin(), sorted.end(), better);
        std::vector<int64_t> out;
        for (auto [key, id] : sorted) out.push_back(id);
        return out;
    }

private:
    using Entry = std::pair<int64_t, int64_t>;  // key, id
    static bool better(const Entry& a, const Entry& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; }
    size_t n_;
    std::vector<Entry> heap_;
};

// The queues of the summary's tables (QueueTops), best first: ids found by
// scan_queues, or the order and limit of SQL (PostgreSQL).
struct TopQueueIds {
    std::vector<int64_t> longest, costly, hosts, failing_hosts;
};

// read_queue_counts and the ids of the summary's queue tables in one pass
// (on SQLite: a second pass over a queues table larger than the page cache
// would read it from the file again).
TopQueueIds scan_queues(Db& db, Summary& s, double now, const QueueTops& tops) {
    enum class C { id, state, in_flight, queued, wake_at, total_spend, done, error_count };
    Stmt st = db.prepare("SELECT id, state, in_flight, queued, wake_at, total_spend, done, error_count FROM queues");
    ResetOnExit guard{st};
    const int64_t crawl_top = tops.crawl_tables ? tops.top : 0;
    TopIds by_size(tops.top), by_spend(tops.top), by_done(crawl_top), by_errors(crawl_top);
    QueueCounts& q = s.queues;
    for (SqlRow<C> row(st); st.step();) {
        const int64_t id = row.i64(C::id), state = row.i64(C::state), queued = row.i64(C::queued);
        ReportState rs = derive_report_state(state, row.i64(C::in_flight), queued, row.dbl(C::wake_at), now);
        ++q.total;
        if (state >= static_cast<int64_t>(QueueState::retired)) s.urls.retired += queued;
        for (auto& [state_of, member] : kStateCounts)
            if (state_of == rs) ++(q.*member);
        if (listed_as_longest(rs)) by_size.offer(queued, id);
        if (int64_t spend = row.i64(C::total_spend); spend > 0) by_spend.offer(spend, id);
        by_done.offer(row.i64(C::done), id);
        by_errors.offer(row.i64(C::error_count), id);
    }
    q.active = q.in_process + q.ready + q.snoozed;
    return {by_size.ids(), by_spend.ids(), by_done.ids(), by_errors.ids()};
}

// The rows of the summary's queue tables: by id after scan_queues, else
// sorted by SQL. A host table lists a queue with some crawl outcome, a
// failing-host table one with errors, among the first by done / errors.
void read_top_rows(Store& store, double now, const TopQueueIds* ids, QueueTops& tops) {
    struct List {
        const char* sort;
        const std::vector<int64_t>* ids;
        std::vector<QueueRow>& rows;
        bool (*listed)(const QueueRow&);
    };
    std::vector<List> lists = {
        {"size", ids ? &ids->longest : nullptr, tops.longest, [](const QueueRow&) { return true; }},
        {"total_spend", ids ? &ids->costly : nullptr, tops.costly, [](const QueueRow& r) { return r.total_spend > 0; }}};
    if (tops.crawl_tables) {
        lists.push_back({"done", ids ? &ids->hosts : nullptr, tops.hosts,
                         [](const QueueRow& r) { return r.done + r.failed + r.error_count > 0; }});
        lists.push_back({"error_count", ids ? &ids->failing_hosts : nullptr, tops.failing_hosts,
                         [](const QueueRow& r) { return r.error_count + r.failed > 0; }});
    }
    if (ids) {
        const QueueRowReader reader(store, now, tops.with_robots);
        for (List& l : lists)
            reader.by_ids(*l.ids, [&](const QueueRow& r) {
                if (l.listed(r)) l.rows.push_back(r);
            });
        return;
    }
    for (List& l : lists) {
        QueueQuery q;
        q.limit = tops.top;
        q.with_robots = tops.with_robots;
        q.sort = parse_queue_sort(l.sort);
        if (&l.rows == &tops.longest)
            for (auto& [state, member] : kStateCounts)
                if (listed_as_longest(state)) q.states.insert(state);
        for_each_queue(store, q, now, [&](const QueueRow& r) {
            if (l.listed(r)) l.rows.push_back(r);
        });
    }
}

// "heat:DISCOVERY\tTYPE" (no type: "other") and "heatd:DISCOVERY\tDEPTH".
void read_heat_counter(Summary& s, std::string_view name, int64_t n) {
    if (name.starts_with("heatd:")) {
        std::string_view rest = name.substr(6);
        auto tab = rest.find('\t');
        if (tab != std::string_view::npos)
            s.heat_depth[std::string(rest.substr(0, tab))][std::string(rest.substr(tab + 1))] += n;
        return;
    }
    std::string_view rest = name.substr(5);
    auto tab = rest.find('\t');
    std::string disc(rest.substr(0, tab));
    std::string type = tab == std::string_view::npos ? "other" : std::string(rest.substr(tab + 1));
    s.heatmap[disc][type] += n;
}

// One counter row into the summary (or, revisit:*, into `revisits`).
void read_counter(Summary& s, std::map<std::string, int64_t>& revisits, std::string_view name, int64_t n) {
    UrlCounts& u = s.urls;
    if (name == "queued") u.queued = n;
    else if (name == "leased") u.leased = n;
    else if (name == "robots_leased") u.robots_leased = n;
    else if (name == "done") u.done = n;
    else if (name == "failed") u.failed = n;
    else if (name == "blocked") u.blocked = n;
    else if (name == "disabled") u.disabled = n;
    else if (name == "added") u.added = n;
    else if (name.starts_with("revisit:")) revisits[std::string(name.substr(8))] = n;
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
    else if (name.starts_with("heatd:") || name.starts_with("heat:")) read_heat_counter(s, name, n);
}

// The counters table is small: URL states, results, heatmap, depth, revisits.
void read_counters(Db& db, Summary& s, std::map<std::string, int64_t>& revisits) {
    enum class C { name, n };
    Stmt st = db.prepare("SELECT name, n FROM counters");
    ResetOnExit guard{st};
    for (SqlRow<C> row(st); st.step();) read_counter(s, revisits, row.text(C::name), row.i64(C::n));
    s.urls.queued = std::max<int64_t>(s.urls.queued - s.urls.retired, 0);
}

// Calibration: revisited URLs at the shortest interval of their
// bucket, never-visited ones at recrawl.interval, against the recorded
// average rate.
void calibrate(const Settings& set, Summary& s) {
    std::vector<RevisitLoad> load;
    load.push_back({set.recrawl_interval / 86400, s.revisits->never_visited});
    for (auto& [b, n] : s.revisits->intervals)
        load.push_back({interval_bucket_floor_days(b, set.recrawl_min / 86400), n});
    s.crawl.calibration = calibrate_revisits(load, s.crawl.avg_pages_per_s * 86400);
}

}  // namespace

Summary read_summary(Store& store, double now) {
    QueueTops none;
    none.top = 0;
    return read_summary(store, now, none);
}

Summary read_summary(Store& store, double now, QueueTops& tops) {
    Summary s;
    s.now = now;
    Db& db = store_db(store);
    // Where the backend scans the queue rows (StoreBackend::report_scans_queues),
    // the pass that counts also finds the tables' ids.
    std::optional<TopQueueIds> ids;
    {
        ReadSnapshot snapshot(db);
        if (store_backend(store).report_scans_queues()) ids = scan_queues(db, s, now, tops);
        else read_queue_counts(db, s, now);
        std::map<std::string, int64_t> revisit_counters;
        read_counters(db, s, revisit_counters);
        for (const char* d : {"0", "1", "2", "3+"}) s.depth.try_emplace(d, 0);
        if (revisit_counters["urls"] > 0) s.revisits = read_revisits(db, revisit_counters, s.urls.disabled, now);
        read_timeline(db, s, now);
    }
    if (s.revisits) calibrate(store.settings(), s);
    if (tops.top > 0) read_top_rows(store, now, ids ? &*ids : nullptr, tops);
    return s;
}

}  // namespace frontier
