// Pure helpers of the report data model (lib/report/report_data.hpp): queue state
// derivation, --state and --sort parsing, row ordering, effective budgets,
// the results chart's buckets.
#include <cstdlib>
#include <string_view>

#include "core/error.hpp"
#include "report/report_data.hpp"

namespace frontier {

const char* report_state_name(ReportState s) {
    switch (s) {
        case ReportState::in_process: return "in-process";
        case ReportState::ready: return "ready";
        case ReportState::snoozed: return "snoozed";
        case ReportState::inactive: return "inactive";
        case ReportState::retired: return "retired";
        case ReportState::exhausted: return "exhausted";
    }
    return "unknown";
}

const std::vector<ReportStateRule>& report_state_rules() {
    using F = QueueField;
    using C = QueueTest::Cmp;
    static const std::vector<ReportStateRule> rules = {
        {ReportState::retired, {{F::state, C::ge, static_cast<double>(QueueState::retired)}}},
        {ReportState::exhausted, {{F::queued, C::le, 0}, {F::in_flight, C::le, 0}}},
        {ReportState::inactive, {{F::state, C::eq, static_cast<double>(QueueState::inactive)}}},
        {ReportState::in_process, {{F::in_flight, C::gt, 0}}},
        {ReportState::snoozed, {{F::wake_at, C::gt, 0, true}}},
        {ReportState::ready, {}},
    };
    return rules;
}

bool listed_as_longest(ReportState s) { return s != ReportState::exhausted; }

ReportState derive_report_state(int64_t state, int64_t in_flight, int64_t queued, double wake_at, double now) {
    auto value = [&](QueueField f) -> double {
        switch (f) {
            case QueueField::state: return static_cast<double>(state);
            case QueueField::in_flight: return static_cast<double>(in_flight);
            case QueueField::queued: return static_cast<double>(queued);
            case QueueField::wake_at: return wake_at;
        }
        return 0;
    };
    auto holds = [&](const QueueTest& t) {
        double a = value(t.field), b = t.now ? now : t.value;
        switch (t.cmp) {
            case QueueTest::Cmp::eq: return a == b;
            case QueueTest::Cmp::ge: return a >= b;
            case QueueTest::Cmp::le: return a <= b;
            case QueueTest::Cmp::gt: return a > b;
        }
        return false;
    };
    for (const ReportStateRule& r : report_state_rules()) {
        bool met = true;
        for (const QueueTest& t : r.all) met = met && holds(t);
        if (met) return r.state;
    }
    return ReportState::ready;
}

std::set<ReportState> parse_state_filter(const std::string& text) {
    std::set<ReportState> out;
    size_t start = 0;
    while (start <= text.size()) {
        size_t comma = text.find(',', start);
        std::string name = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (name == "active") {
            out.insert({ReportState::in_process, ReportState::ready, ReportState::snoozed});
        } else {
            bool found = false;
            for (auto s : {ReportState::in_process, ReportState::ready, ReportState::snoozed, ReportState::inactive,
                           ReportState::retired, ReportState::exhausted}) {
                if (name == report_state_name(s) || (s == ReportState::in_process && name == "in_process")) {
                    out.insert(s);
                    found = true;
                }
            }
            if (!found)
                throw UsageError("unknown queue state '" + name +
                                 "' (expected active, in-process, ready, snoozed, inactive, retired, exhausted)");
        }
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

namespace {

// Every --sort key, and whether it sorts ascending by default.
struct SortKeyDef {
    const char* key;
    bool ascending;
};
constexpr SortKeyDef kSortKeys[] = {
    {"queue", true},          {"state", true},          {"size", false},        {"enqueued", false},
    {"session_balance", false}, {"last_cost", false},   {"average_cost", false}, {"total_spend", false},
    {"total_budget", false},  {"error_count", false},   {"in_flight", false},   {"wake_at", false},
    {"last_dequeue_at", false}, {"avg_latency_ms", false}, {"host_down", false}, {"retry_after_blocks", false},
    {"done", false},          {"failed", false},        {"blocked", false},         {"bytes", false},
};

// A row's value for a numeric sort key; missing values sort as -infinity.
double numeric(const QueueRow& r, std::string_view k) {
    constexpr double none = -1e300;
    if (k == "size") return static_cast<double>(r.size);
    if (k == "enqueued") return static_cast<double>(r.enqueued);
    if (k == "session_balance") return static_cast<double>(r.session_balance);
    if (k == "last_cost") return r.last_cost ? static_cast<double>(*r.last_cost) : none;
    if (k == "average_cost") return r.average_cost.value_or(none);
    if (k == "total_spend") return static_cast<double>(r.total_spend);
    if (k == "total_budget") return r.total_budget < 0 ? 1e300 : static_cast<double>(r.total_budget);
    if (k == "error_count") return static_cast<double>(r.error_count);
    if (k == "in_flight") return static_cast<double>(r.in_flight);
    if (k == "wake_at") return r.wake_at;
    if (k == "last_dequeue_at") return r.last_dequeue_at.value_or(none);
    if (k == "avg_latency_ms") return r.avg_latency_ms.value_or(none);
    if (k == "host_down") return static_cast<double>(r.host_down);
    if (k == "retry_after_blocks") return static_cast<double>(r.retry_after_blocks);
    if (k == "done") return static_cast<double>(r.done);
    if (k == "failed") return static_cast<double>(r.failed);
    if (k == "blocked") return static_cast<double>(r.blocked);
    if (k == "bytes") return static_cast<double>(r.bytes);
    return 0;
}

}  // namespace

QueueSort parse_queue_sort(const std::string& text) {
    QueueSort s;
    std::string key = text;
    std::string dir;
    if (auto colon = text.rfind(':'); colon != std::string::npos) {
        key = text.substr(0, colon);
        dir = text.substr(colon + 1);
        if (dir != "asc" && dir != "desc") throw UsageError("--sort: direction must be asc or desc, not '" + dir + "'");
    }
    for (const auto& d : kSortKeys) {
        if (key == d.key) {
            s.key = key;
            s.descending = dir.empty() ? !d.ascending : dir == "desc";
            return s;
        }
    }
    std::string all;
    for (const auto& d : kSortKeys) all += std::string(all.empty() ? "" : ", ") + d.key;
    throw UsageError("--sort: unknown key '" + key + "' (one of " + all + ")");
}

bool sort_in_memory(const QueueSort& s) { return s.key == "total_budget" || s.key == "state"; }

double queue_sort_value(const QueueRow& r, const QueueSort& s) {
    return s.key == "state" ? static_cast<double>(static_cast<int>(r.state)) : numeric(r, s.key);
}

bool queue_row_less(const QueueRow& a, const QueueRow& b, const QueueSort& s) {
    if (s.key.empty()) return a.id < b.id;
    int c = 0;
    if (s.key == "queue") {
        c = a.queue < b.queue ? -1 : (b.queue < a.queue ? 1 : 0);
    } else {
        double x = queue_sort_value(a, s), y = queue_sort_value(b, s);
        c = x < y ? -1 : (y < x ? 1 : 0);
    }
    if (c != 0) return s.descending ? c > 0 : c < 0;
    return a.id < b.id;
}

bool wants_visit_timeline(const Summary& s, int64_t max_urls) {
    const CrawlSummary& c = s.crawl;
    return c.start && c.last && *c.last - *c.start <= kVisitTimelineMaxSpan && s.urls.added <= max_urls;
}

void set_visit_timeline(Summary& s, const std::vector<TimelineBucket>& seconds) {
    s.visit_timeline.clear();
    s.visit_bucket = 0;
    int64_t pages = 0;
    for (const TimelineBucket& b : seconds) pages += b.pages;
    if (seconds.empty() || pages != s.crawl.pages) return;
    s.visit_bucket = timeline_bucket_seconds(seconds.back().start + 1 - seconds.front().start, 120, 1);
    s.visit_timeline = regroup_timeline(seconds, s.visit_bucket);
}

}  // namespace frontier
