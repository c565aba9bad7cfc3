// Totals: the counter, timeline and crawl-aggregate deltas of a transaction.
#include "store/totals.hpp"

#include <cmath>

#include "report/crawl_stats.hpp"

namespace frontier {

Stmt& Totals::send_count(std::string_view name) {
    Stmt& st = statements_.q(kCounterRead);
    st.bind(1, name).send();
    return st;
}

int64_t Totals::read_count(std::string_view name, Stmt& st) {
    int64_t n = st.step() ? st.i64(0) : 0;
    st.reset();
    return n + own(name);
}

void Totals::flush() {
    if (added) {
        count("queued", added);
        count("added", added);
        added = 0;
    }
    for (int i = 0; i < 4; ++i) {
        if (depth_added[i]) count(i == 3 ? "depth:3+" : "depth:" + std::to_string(i), depth_added[i]);
        depth_added[i] = 0;
    }
    for (auto& [k, n] : heat_added) count("heat:" + k.first + "\t" + k.second, n);
    heat_added.clear();
    for (auto& [k, n] : heat_depth_added)
        count("heatd:" + k.first + "\t" + (k.second == 3 ? std::string("3+") : std::to_string(k.second)), n);
    heat_depth_added.clear();
    flush_timeline();
    flush_counters();
}

void Totals::clear() {
    queue_deltas.clear();
    fetch_deltas.clear();
    added = 0;
    for (auto& d : depth_added) d = 0;
    heat_added.clear();
    heat_depth_added.clear();
    timeline_deltas_.clear();
    crawl_delta_ = {};
    counter_deltas_.clear();
}

// The counters' deltas, each backend's way (StoreBackend::write_counters).
void Totals::flush_counters() {
    backend_.write_counters(counter_deltas_);
    counter_deltas_.clear();
}

// The crawl's aggregates for one URL result (frontier-report(1), CRAWL
// SUMMARY, OVER TIME, CODES, MIME TYPES): counter deltas and the minute's
// timeline sums, written with the other deltas at flush, in the same
// transaction as the result.
void Totals::note_result(const FetchFacts& f, bool error, int64_t successes_before, double now) {
    int64_t bytes = f.bytes.value_or(0);
    CrawlDelta& c = crawl_delta_;
    ++c.pages;
    c.bytes += bytes;
    if (error) ++c.errors;
    if (f.has_status && f.status > 0) ++c.statuses[f.status];
    bool ok = f.status >= 200 && f.status < 300 && f.error_class.empty();
    if (f.status == 304) ++c.not_modified;
    else if (ok) ++(successes_before > 0 ? c.revisit : c.novel);
    if (ok) {
        // Keyed by the raw header (a crawl sends few distinct ones); mime_key
        // runs once per distinct value at flush. Bounded like the other deltas.
        auto& m = c.mimes[f.content_type.value_or("")];
        ++m.first;
        m.second += bytes;
        if (c.mimes.size() >= kMaxPendingQueues) flush_timeline();
    }
    TimelineDelta& t = timeline_deltas_[static_cast<int64_t>(std::floor(now / 60))];
    ++t.pages;
    t.bytes += bytes;
    if (error) ++t.errors;
}

void Totals::flush_timeline() {
    CrawlDelta& c = crawl_delta_;
    if (c.pages) count("crawl:pages", c.pages);
    if (c.bytes) count("crawl:bytes", c.bytes);
    if (c.errors) count("crawl:errors", c.errors);
    if (c.novel) count("visit:novel", c.novel);
    if (c.revisit) count("visit:revisit", c.revisit);
    if (c.not_modified) count("visit:not-modified", c.not_modified);
    for (auto& [st, n] : c.statuses) count("status:" + std::to_string(st), n);
    for (auto& [ct, m] : c.mimes) {
        std::string key = mime_key(ct);
        count("mime:" + key, m.first);
        if (m.second) count("mime-bytes:" + key, m.second);
    }
    c = CrawlDelta{};
    for (auto& [minute, t] : timeline_deltas_)
        statements_.q("INSERT INTO timeline(minute, pages, bytes, errors) VALUES (?, ?, ?, ?) ON CONFLICT(minute) DO UPDATE SET "
          "pages = timeline.pages + excluded.pages, bytes = timeline.bytes + excluded.bytes, "
          "errors = timeline.errors + excluded.errors")
            .bind(1, minute).bind(2, t.pages).bind(3, t.bytes).bind(4, t.errors).exec();
    timeline_deltas_.clear();
}

}  // namespace frontier
