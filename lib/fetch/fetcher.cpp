#include "fetch/fetcher.hpp"

#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <limits>
#include <memory>
#include <queue>
#include <unordered_map>
#include <vector>

#include "core/clock.hpp"
#include "fetch/curl_handle.hpp"
#include "core/error.hpp"
#include "fetch/fetch_input.hpp"
#include "fetch/fetch_output.hpp"
#include "fetch/host_scoreboard.hpp"
#include "core/output.hpp"
#include "core/signals.hpp"
#include "core/tool.hpp"
#include "fetch/transfer.hpp"

namespace frontier {

namespace {

// Idle connections kept for reuse (fetch(1), DESCRIPTION): one per recently
// fetched host, up to 4,096, so a broad crawl that comes back to each of
// many hosts every min-delay reuses its connection instead of opening a new
// one each time (and waiting behind the other hosts' connects). The soft
// limit on open files is raised to the hard one (at most 65,536) for them;
// they take at most half of it, and never fewer than 2 x --concurrency.
long idle_connection_cap(int concurrency) {
    rlimit r{};
    if (::getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
        rlimit raised = r;
        raised.rlim_cur = std::min<rlim_t>(r.rlim_max, 65536);
        if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) r = raised;
    }
    const long files = static_cast<long>(std::min<rlim_t>(r.rlim_cur, 65536));  // RLIM_INFINITY is the largest
    return std::max({long(concurrency) * 2, 64L, std::min(files / 2, 4096L)});
}

}  // namespace

void curl_global_once() {
    static const bool done = [] {
        curl_global_init(CURL_GLOBAL_DEFAULT);
        return true;
    }();
    (void)done;
}

void validate_fetch_options(const FetchOptions& o) {
    if (o.concurrency < 1) throw UsageError("--concurrency must be at least 1");
    if (o.per_host < 1) throw UsageError("--per-host must be at least 1");
    if (!(o.timeout > 0)) throw UsageError("--timeout must be positive");
    if (!(o.connect_timeout > 0)) throw UsageError("--connect-timeout must be positive");
    if (o.max_size < 1) throw UsageError("--max-size must be at least 1");
    if (o.conn_retry < 0) throw UsageError("--conn-retry must not be negative");
    if (o.down_after_timeouts < 0) throw UsageError("--down-after-timeouts must not be negative");
    if (o.autothrottle < 0) throw UsageError("--autothrottle must not be negative");
    if (o.autothrottle_start < 0 || o.autothrottle_max < 0) throw UsageError("autothrottle delays must not be negative");
    if (o.warc_max_size < 1) throw UsageError("--warc-max-size must be at least 1");
    if (o.max_memory < 1) throw UsageError("--max-memory must be at least 1");
}

namespace {

ScoreboardConfig board_config(const FetchOptions& o) {
    ScoreboardConfig c;
    c.per_host = o.per_host;
    c.conn_retry = o.conn_retry;
    c.down_after_timeouts = o.down_after_timeouts;
    c.autothrottle_target = o.autothrottle;
    c.start_delay = o.autothrottle_start;
    c.max_delay = o.autothrottle_max;
    return c;
}

std::string human_bytes(double b) {
    const char* units[] = {"B", "kB", "MB", "GB", "TB"};
    int u = 0;
    while (b >= 1000 && u < 4) {
        b /= 1000;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, u ? "%.1f %s" : "%.0f %s", b, units[u]);
    return buf;
}

class Fetcher {
public:
    Fetcher(const FetchOptions& opt, ResultWriter& writer, FetchStats& stats, BodyBudget& budget)
        : opt_(opt), board_(board_config(opt)), writer_(writer), stats_(stats), budget_(budget) {
        read_ahead_ = opt.read_ahead ? opt.read_ahead : size_t(opt.concurrency) * 4 + 10000;
        curl_multi_setopt(multi_.get(), CURLMOPT_MAXCONNECTS, idle_connection_cap(opt.concurrency));
        if (!opt.cookie_jar.empty()) {
            share_ = std::make_unique<CurlShare>();
            curl_share_setopt(share_->get(), CURLSHOPT_SHARE, CURL_LOCK_DATA_COOKIE);
        }
        // A start waiting for memory goes on once the writer releases some.
        budget_.set_waker([m = multi_.get()] { curl_multi_wakeup(m); });
    }
    ~Fetcher() {
        budget_.set_waker(nullptr);
        for (auto& t : pool_)
            if (t->owner) curl_multi_remove_handle(multi_.get(), t->easy());
    }

    CURLM* multi() const { return multi_.get(); }
    void run(InputFeeder& input);

private:
    struct HostQueue {
        HostState st;
        std::deque<FetchJob> pending;
        bool runnable = false;
        bool timed = false;
    };
    using Timed = std::pair<double, HostQueue*>;

    void admit(FetchJob&& job, double t);
    void make_runnable(HostQueue& q);
    bool start_one(HostQueue& q, double t);
    void complete(CURLMsg* msg);
    void host_down(FetchJob&& job, const HostQueue& q, double t);
    void flush_down(HostQueue& q, double t);
    void emit(FetchResult&& r);
    void prune(double t);
    void progress(double t, bool final_line);

    const FetchOptions& opt_;
    HostScoreboard board_;
    ResultWriter& writer_;
    FetchStats& stats_;
    BodyBudget& budget_;
    CurlMulti multi_;
    // Cookies shared by all transfers (--cookie-jar); declared before pool_
    // so that every easy handle is cleaned up (writing the jar) first.
    std::unique_ptr<CurlShare> share_;
    std::vector<std::unique_ptr<Transfer>> pool_;
    std::vector<Transfer*> idle_;
    std::unordered_map<std::string, HostQueue> hosts_;
    std::deque<HostQueue*> runnable_;
    std::priority_queue<Timed, std::vector<Timed>, std::greater<Timed>> timed_;
    size_t held_ = 0;
    size_t active_ = 0;
    size_t read_ahead_ = 0;
    double started_ = monotonic_seconds();
    double last_progress_ = 0;
    uint64_t last_results_ = 0, last_bytes_ = 0;
    bool show_progress_ = false;
};

void Fetcher::emit(FetchResult&& r) { writer_.push(std::move(r)); }

void Fetcher::make_runnable(HostQueue& q) {
    if (q.runnable || q.timed || q.pending.empty()) return;
    q.runnable = true;
    runnable_.push_back(&q);
}

void Fetcher::host_down(FetchJob&& job, const HostQueue& q, double t) {
    FetchResult r;
    r.job = std::move(job);
    r.error_class = "host-down";
    char buf[128];
    std::snprintf(buf, sizeof buf, "host down after %s; not retried for %.0f s",
                  q.st.down_for_timeouts ? "timeouts in a row" : "a connection failure", std::ceil(q.st.down_until - t));
    r.error = buf;
    r.fetched_at = now();
    r.duration_ms = 0;
    emit(std::move(r));
}

void Fetcher::flush_down(HostQueue& q, double t) {
    while (!q.pending.empty()) {
        FetchJob job = std::move(q.pending.front());
        q.pending.pop_front();
        --held_;
        host_down(std::move(job), q, t);
    }
}

void Fetcher::admit(FetchJob&& job, double t) {
    if (!job.bad.empty()) {
        FetchResult r;
        r.error_class = "bad-input";
        r.error = job.bad;
        r.job = std::move(job);
        emit(std::move(r));
        return;
    }
    auto [it, inserted] = hosts_.try_emplace(job.host);
    HostQueue& q = it->second;
    if (inserted) board_.init(q.st);
    if (board_.down(q.st, t)) {
        host_down(std::move(job), q, t);
        return;
    }
    q.pending.push_back(std::move(job));
    ++held_;
    make_runnable(q);
}

// False when the memory budget cannot guarantee the next job's share yet:
// it stays first in line (the writer's release wakes the loop).
bool Fetcher::start_one(HostQueue& q, double t) {
    if (q.pending.empty()) return true;
    if (board_.down(q.st, t)) {
        flush_down(q, t);
        return true;
    }
    double at = board_.earliest_start(q.st, t, q.pending.front().delay);
    if (std::isinf(at)) return true;  // at the per-host cap: made runnable again on completion
    if (at > t) {
        q.timed = true;
        timed_.push({at, &q});
        return true;
    }
    BodyCharge charge;
    if (!budget_.try_start(charge, Transfer::guaranteed(opt_, q.pending.front(), budget_.share())))
        return false;
    Transfer* tr;
    if (!idle_.empty()) {
        tr = idle_.back();
        idle_.pop_back();
    } else {
        pool_.push_back(std::make_unique<Transfer>(opt_, &budget_, share_ ? share_->get() : nullptr));
        tr = pool_.back().get();
    }
    FetchJob job = std::move(q.pending.front());
    q.pending.pop_front();
    --held_;
    const std::optional<double> delay = job.delay;
    tr->begin(std::move(job), now(), std::move(charge));
    if (tr->refused()) {  // the address guard, before any request (--proxy)
        emit(tr->finish(CURLE_COULDNT_CONNECT));
        idle_.push_back(tr);
        make_runnable(q);
        return true;
    }
    tr->owner = &q;
    curl_multi_add_handle(multi_.get(), tr->easy());
    ++active_;
    board_.started(q.st, t, delay);
    make_runnable(q);
    return true;
}

void Fetcher::complete(CURLMsg* msg) {
    Transfer* tr = nullptr;
    curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &tr);
    CURLcode rc = msg->data.result;
    curl_multi_remove_handle(multi_.get(), msg->easy_handle);
    --active_;
    HostQueue& q = *static_cast<HostQueue*>(tr->owner);
    tr->owner = nullptr;
    FetchResult r = tr->finish(rc);
    double t = monotonic_seconds();
    bool timed_out = r.error_class == "timeout" && r.status == 0 && !tr->connection_failed();
    board_.finished(q.st, t, r.status, tr->latency(), tr->connection_failed(), timed_out);
    board_.retry_after(q.st, t, r.status, r.retry_after);
    idle_.push_back(tr);
    if (opt_.verbose && (tr->connection_failed() || timed_out) && board_.down(q.st, t))
        diag("host " + r.job.host + " down for " + std::to_string(int(opt_.conn_retry)) + " s: " + r.error);
    emit(std::move(r));
    if (board_.down(q.st, t)) flush_down(q, t);
    make_runnable(q);
}

void Fetcher::prune(double t) {
    for (auto it = hosts_.begin(); it != hosts_.end();) {
        const HostQueue& q = it->second;
        if (q.pending.empty() && !q.runnable && !q.timed && board_.idle(q.st, t))
            it = hosts_.erase(it);
        else
            ++it;
    }
}

void Fetcher::progress(double t, bool final_line) {
    bool tty = stderr_is_tty();
    double span = t - last_progress_;
    uint64_t n = stats_.results(), b = stats_.bytes();
    char buf[160];
    std::snprintf(buf, sizeof buf, "%llu results, %.0f pages/s, %s/s, %zu active, %zu waiting: ",
                  static_cast<unsigned long long>(n), span > 0 ? double(n - last_results_) / span : 0.0,
                  human_bytes(span > 0 ? double(b - last_bytes_) / span : 0).c_str(), active_, held_);
    std::string line = tool_name() + ": " + buf + stats_.by_class();
    if (tty) {
        line = "\r" + line + "\033[K";
        if (final_line) line += "\n";
    } else {
        line += "\n";
    }
    (void)!::write(2, line.data(), line.size());
    last_progress_ = t;
    last_results_ = n;
    last_bytes_ = b;
}

void Fetcher::run(InputFeeder& input) {
    show_progress_ = opt_.progress || (stderr_is_tty() && !opt_.quiet && !opt_.no_progress);
    last_progress_ = started_;
    double last_prune = started_;
    bool input_done = false;
    std::deque<FetchJob> intake;
    for (;;) {
        if (writer_.failed()) break;
        bool stopping = stop_requested();
        double t = monotonic_seconds();
        if (!stopping && !input_done && held_ < read_ahead_) {
            bool was_finished = input.finished();  // read before take: no job slips past
            input.take(intake, read_ahead_ - held_);
            while (!intake.empty()) {
                admit(std::move(intake.front()), t);
                intake.pop_front();
            }
            if (was_finished) input_done = true;
        }
        while (!timed_.empty() && timed_.top().first <= t) {
            HostQueue* q = timed_.top().second;
            timed_.pop();
            q->timed = false;
            make_runnable(*q);
        }
        while (!stopping && active_ < size_t(opt_.concurrency) && !runnable_.empty()) {
            HostQueue* q = runnable_.front();
            runnable_.pop_front();
            q->runnable = false;
            if (!start_one(*q, t)) {  // waiting for memory: first in line
                q->runnable = true;
                runnable_.push_front(q);
                break;
            }
        }
        if (active_ == 0 && (stopping || (input_done && held_ == 0))) break;

        int running = 0;
        curl_multi_perform(multi_.get(), &running);
        bool completed = false;
        int left = 0;
        while (CURLMsg* msg = curl_multi_info_read(multi_.get(), &left)) {
            if (msg->msg != CURLMSG_DONE) continue;
            complete(msg);
            completed = true;
        }
        if (show_progress_ && t - last_progress_ >= 1) progress(t, false);
        if (t - last_prune >= 30) {
            prune(t);
            last_prune = t;
        }
        if (completed) continue;

        double wait_ms = 250;
        if (!timed_.empty()) wait_ms = std::min(wait_ms, (timed_.top().first - t) * 1000 + 1);
        if (wait_ms < 0) wait_ms = 0;
        curl_multi_poll(multi_.get(), nullptr, 0, static_cast<int>(wait_ms), nullptr);
    }
    input.stop();
    // The closing progress line only when no summary follows (-q --progress);
    // on a terminal the summary replaces the live line (diag erases it).
    if (show_progress_ && opt_.quiet) progress(monotonic_seconds(), true);
}

}  // namespace

int run_fetch(const FetchOptions& opt) {
    validate_fetch_options(opt);
    // Blocks of 1 MiB and more (large bodies, link tables, result lines)
    // straight from the system and back to it when freed, and free memory at
    // the top of a heap given back past 1 MiB: by default glibc raises both
    // thresholds after each large free (up to 32 MiB and 64 MiB) and keeps
    // such blocks in its per-thread heaps, so fetch's memory would follow the
    // largest bodies it has seen rather than what it holds (fetch(1),
    // --max-memory). Smaller blocks, most pages, are reused as before.
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 20);
    curl_global_once();
    FetchStats stats;
    BodyBudget budget(opt.max_memory, opt.concurrency);  // outlives every result
    ResultWriter writer(opt, stats);
    double t0 = monotonic_seconds();
    {
        Fetcher fetcher(opt, writer, stats, budget);
        size_t cap = std::max<size_t>(1024, size_t(opt.concurrency) * 4);
        CURLM* m = fetcher.multi();
        InputFeeder input(opt.inputs, cap, [m] { curl_multi_wakeup(m); });
        writer.start();
        input.start();
        fetcher.run(input);
        writer.finish();  // rethrows BrokenPipe / IoError from the writer
        input.rethrow_error();
    }
    double secs = monotonic_seconds() - t0;
    if (!opt.quiet) {
        char buf[160];
        uint64_t n = stats.results();
        std::snprintf(buf, sizeof buf, "%llu results in %.2f s (%.0f pages/s, %s/s)",
                      static_cast<unsigned long long>(n), secs, secs > 0 ? double(n) / secs : 0.0,
                      human_bytes(secs > 0 ? double(stats.bytes()) / secs : 0).c_str());
        diag(std::string(buf) + (n > 0 ? ": " + stats.by_class() : std::string()));
    }
    return stats.count("bad-input") > 0 ? 1 : 0;
}

}  // namespace frontier
