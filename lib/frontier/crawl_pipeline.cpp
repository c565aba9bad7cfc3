// The crawl loop of frontier-crawl (lib/frontier/crawl_pipeline.hpp).
#include "frontier/crawl_pipeline.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <memory>
#include <vector>

#include "core/child.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/output.hpp"
#include "core/signals.hpp"
#include "core/tool.hpp"
#include "policy/lease_ahead.hpp"
#include "report/report_pages.hpp"
#include "store/store.hpp"

namespace frontier {

namespace {

int open_or_throw(const std::string& path, int flags) {
    int fd = ::open(path.c_str(), flags | O_CLOEXEC, 0644);
    if (fd < 0) throw IoError("cannot open " + path + ": " + std::strerror(errno));
    return fd;
}

// The three tools, returned as {frontier-lease, fetch, frontier-done}.
// frontier-done is spawned first and leads their process group: it cannot
// end before the others are spawned, as this process holds its input's
// write end until then. frontier-lease comes last, after o.before_lease.
std::vector<Child> start_pipeline(const CrawlPipelineOptions& o, int64_t per_host, int64_t queued_leases) {
    int p1[2], p2[2];
    if (::pipe2(p1, O_CLOEXEC) != 0 || ::pipe2(p2, O_CLOEXEC) != 0)
        throw IoError("pipe: " + std::string(std::strerror(errno)));
    int res = open_or_throw(o.out + "/results.jsonl", O_WRONLY | O_CREAT | O_APPEND);
    int null_in = open_or_throw("/dev/null", O_RDONLY);  // a background group must not read the terminal
    std::string c = std::to_string(o.concurrency), queued = std::to_string(queued_leases);
    std::vector<std::string> lease_args{"-f", o.frontier, "--follow", "--max-in-flight", queued, "-n", queued,
                                        "--per-queue", queued, "--no-progress"};
    // The per-host cap is frontier-lease's (politeness.max-in-flight leases
    // out per queue); fetch's keeps it where leases wait in fetch beyond it
    // (politeness.lease-ahead, lib/policy/lease_ahead.hpp).
    std::vector<std::string> fetch_args{"-c", c, "--per-host", std::to_string(per_host), "--links", "--no-progress"};
    if (o.timeout > 0) fetch_args.insert(fetch_args.end(), {"--timeout", std::to_string(o.timeout)});
    if (o.warc) {
        std::string dir = o.out + "/warc";
        if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
            throw IoError("cannot create " + dir + ": " + std::strerror(errno));
        fetch_args.insert(fetch_args.end(),
                          {"--warc", dir + "/crawl-" + std::to_string(static_cast<int64_t>(frontier::now()))});
    }
    if (o.quiet) {
        lease_args.push_back("-q");
        fetch_args.push_back("-q");
    }
    std::vector<Child> kids(3);
    kids[2] = spawn("frontier-done", {"-f", o.frontier, "--no-progress"}, p2[0], res, false, 0);
    kids[1] = spawn("fetch", fetch_args, p1[0], p2[1], false, kids[2].pid);
    try {
        if (o.before_lease) o.before_lease();
        kids[0] = spawn("frontier-lease", lease_args, null_in, p1[1], false, kids[2].pid);
    } catch (...) {
        // fetch reads the end of its input, frontier-done then the end of its own
        for (int fd : {p1[0], p1[1], p2[0], p2[1], res, null_in}) ::close(fd);
        std::vector<Child> started{kids[1], kids[2]};
        wait_all(started);
        throw;
    }
    for (int fd : {p1[0], p1[1], p2[0], p2[1], res, null_in}) ::close(fd);
    return kids;
}

// One progress line of the crawl's own (the tools draw none): what the
// frontier holds, the rate over the last seconds, and the time left at
// that rate for what is queued now (more may be found).
class Progress {
public:
    explicit Progress(Store& view) : view_(view), tty_(stderr_is_tty()), started_(monotonic_seconds()) {
        ended_before_ = ended_at_start_ = ended();
    }

    void tick() {
        int64_t e = ended(), queued = view_.count("queued"), in_flight = view_.count("leased");
        rate_ = rate_ == 0 ? double(e - ended_before_) : 0.7 * rate_ + 0.3 * double(e - ended_before_);
        ended_before_ = e;
        std::string line = "frontier-crawl: " + std::to_string(view_.count("done")) + " done, " +
                           std::to_string(view_.count("failed")) + " failed, " +
                           std::to_string(view_.count("blocked")) + " blocked, " + std::to_string(queued) +
                           " queued, " + std::to_string(in_flight) + " in flight; " +
                           std::to_string(static_cast<int64_t>(rate_ + 0.5)) + " URLs/s";
        if (rate_ >= 0.5 && queued > 0)
            line += "; " + std::to_string(static_cast<int64_t>(double(queued) / rate_ + 0.5)) + " s left at this rate";
        line = tty_ ? "\r" + line + "\033[K" : line + "\n";
        (void)!::write(2, line.data(), line.size());
    }

    // The last line, then the URLs ended and the rate over the whole run.
    void finish(const Say& say) {
        tick();
        if (tty_) (void)!::write(2, "\n", 1);
        double secs = monotonic_seconds() - started_;
        int64_t n = ended() - ended_at_start_;
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.1f s (%.0f URLs/s)", secs, secs > 0 ? double(n) / secs : 0.0);
        say(std::to_string(n) + " URLs ended in " + buf);
    }

private:
    int64_t ended() { return view_.count("done") + view_.count("failed") + view_.count("blocked"); }

    Store& view_;
    const bool tty_;
    const double started_;
    int64_t ended_before_ = 0, ended_at_start_ = 0;
    double rate_ = 0;
};

// Why the pipeline was told to stop (none: frontier-lease ended on its own).
struct Ending {
    int signals = 0;                  // SIGINT/SIGTERM received
    bool waiting = false;             // only work due beyond --max-wait was left
    int64_t urls_waiting = 0;
    double next_due = 0, now = 0;
};

// Nothing out, URLs queued, and the earliest of them due beyond max_wait.
bool only_far_work(Store& view, const CrawlPipelineOptions& o, Ending& e) {
    if (o.max_wait < 0 || view.leases_out() > 0) return false;
    int64_t queued = view.count("queued");
    if (queued <= 0) return false;
    double now = frontier::now();
    std::optional<double> next = view.next_lease_time(now);
    if (!next || *next <= now + o.max_wait) return false;
    e.urls_waiting = queued;
    e.next_due = *next;
    e.now = now;
    return true;
}

// Job control: the tools' process group is not the terminal's foreground
// group, so ^Z (SIGTSTP) would stop frontier-crawl alone. The handler stops
// them, then this process; once continued (fg, bg), it continues them.
volatile sig_atomic_t g_pipeline_group = 0;

extern "C" void on_terminal_stop(int) {
    int saved = errno;
    pid_t group = g_pipeline_group;
    if (group > 0) ::kill(-group, SIGSTOP);
    ::kill(::getpid(), SIGSTOP);
    if (group > 0) ::kill(-group, SIGCONT);
    errno = saved;
}

void pass_on_terminal_signals(pid_t group) {
    g_pipeline_group = group;
    struct sigaction sa {};
    sa.sa_handler = group > 0 ? on_terminal_stop : SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGTSTP, &sa, nullptr);
    stop_on_hangup();
}

// A signal stops the pipeline at its head: frontier-lease stops leasing,
// fetch finishes its transfers under way and hands the leases it did not
// start back to their expiry (or to the next run, once this pipeline's
// process group is gone), frontier-done records all it is given. A second
// signal ends frontier-lease and fetch at once.
void tell_stop(std::vector<Child>& kids, int signals, int told, const Say& say) {
    if (told == 0) {
        say("stopping: the transfers under way are finished and recorded (a second signal stops at once)");
        for (int i : {0, 1})
            if (!kids[i].done) ::kill(kids[i].pid, SIGTERM);
    }
    if (signals >= 2)
        for (int i : {0, 1})
            if (!kids[i].done) ::kill(kids[i].pid, SIGKILL);
}

// Waits for the pipeline, drawing progress, passing signals on and ending
// it when only far work is left.
Ending watch(std::vector<Child>& kids, Store& view, const CrawlPipelineOptions& o, Progress* progress,
             const Say& say) {
    Ending e;
    double last_tick = monotonic_seconds();
    int idle_checks = 0;
    while (reap(kids)) {
        if (int n = stop_signals(); n > e.signals) {
            tell_stop(kids, n, e.signals, say);
            e.signals = n;
        }
        if (monotonic_seconds() - last_tick >= 1) {
            last_tick = monotonic_seconds();
            if (progress) progress->tick();
            // The log in the file each second: what is left at the end,
            // when the last connection copies it and deletes the log, is
            // small (frontier-crawl(1)).
            view.checkpoint_log();
            // Twice in a row, a second apart: a result just committed has
            // had the time to be leased from.
            bool far = !e.waiting && e.signals == 0 && only_far_work(view, o, e);
            idle_checks = far ? idle_checks + 1 : 0;
            if (idle_checks >= 2) {
                e.waiting = true;
                if (!kids[0].done) ::kill(kids[0].pid, SIGTERM);
            }
        }
        // Short: the reports start as soon as the pipeline has ended.
        struct timespec ts{0, 2'000'000};
        ::nanosleep(&ts, nullptr);
    }
    return e;
}

std::string utc_time(double t) {
    time_t s = static_cast<time_t>(std::ceil(t));
    struct tm tmv;
    gmtime_r(&s, &tmv);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%SZ", &tmv);
    return buf;
}

// What the pipeline's exit codes mean: the crawl's exit code (before the
// reports), said on standard error.
int crawl_outcome(const CrawlPipelineOptions& o, const std::vector<Child>& kids, const Ending& e, const Say& say) {
    int lease_rc = exit_code_of(kids[0]), fetch_rc = exit_code_of(kids[1]), done_rc = exit_code_of(kids[2]);
    const std::string again = "run frontier-crawl -o " + o.out + " again";
    int rc = kCrawlFinished;
    if (e.signals >= 2) {
        say("stopped at once; " + again + " to go on");
        return rc;  // frontier-lease and fetch were killed: their exit codes say nothing
    } else if (lease_rc == 4) {
        say("paused at finish: some sites reached their budget (budget.total" +
            (o.per_site ? " = --per-site " + std::to_string(*o.per_site) : std::string()) +
            "); see frontier-report -f " + o.frontier + " --queues --state retired, raise it with frontier-budget, " +
            again);
        rc = kCrawlPaused;
    } else if (lease_rc == 0 && e.waiting) {
        say(std::to_string(e.urls_waiting) + (e.urls_waiting == 1 ? " URL waits" : " URLs wait") + ", the first due at " + utc_time(e.next_due) + " (in " +
            std::to_string(static_cast<int64_t>(std::ceil(e.next_due - e.now))) + " s, beyond --max-wait " +
            std::to_string(static_cast<int64_t>(o.max_wait)) + " s): stopped; " + again + " then to go on");
        rc = kCrawlWaiting;
    } else if (lease_rc == 0 && e.signals == 0) {
        say("finished: nothing is left to crawl");
    } else if (lease_rc == 0) {
        say("stopped; " + again + " to go on");
    } else {
        say("frontier-lease exited " + std::to_string(lease_rc));
        rc = kCrawlFailed;
    }
    if (fetch_rc > 1 || done_rc > 1) {
        say("fetch or frontier-done failed (exit " + std::to_string(fetch_rc) + ", " + std::to_string(done_rc) + ")");
        rc = kCrawlFailed;
    }
    return rc;
}

// What `frontier-report -f F > OUT/report.txt` and `frontier-report -f F
// --html OUT/report.html` write, written here: for a short crawl, two more
// processes that each load the tools' libraries and open the frontier took
// longer than the reports. A further ^C only counts (install_signal_handlers):
// the reports are written whatever comes.
void write_reports(const CrawlPipelineOptions& o) {
    Store store(o.frontier, Store::Mode::read);
    const double now = frontier::now();
    const std::string title = "frontier-report: " + frontier_display_name(o.frontier);
    write_file_replacing(o.out + "/report.txt",
                         text_report(store, now, kReportTop, title, report_text_width(-1)) + "\n");
    write_file_replacing(o.out + "/report.html", html_report(store, now, kReportTop, title));
}

}  // namespace

int run_crawl_pipeline(const CrawlPipelineOptions& o, const Say& say) {
    Store view(o.frontier, Store::Mode::read);
    // Leases waiting in fetch beyond a site's transfers (lease-ahead) need
    // room under frontier-lease's --max-in-flight as well.
    const Politeness& global = view.settings().politeness;
    std::vector<Child> kids = start_pipeline(o, fetch_per_host(view.settings(), o.concurrency),
                                             pipeline_leases_out(o.queued_leases, global));
    pass_on_terminal_signals(kids[2].pid);
    std::unique_ptr<Progress> progress;
    if (o.progress) progress = std::make_unique<Progress>(view);
    Ending e = watch(kids, view, o, progress.get(), say);
    pass_on_terminal_signals(0);
    if (progress) progress->finish(say);
    int rc = crawl_outcome(o, kids, e, say);
    try {
        write_reports(o);
    } catch (const std::exception& ex) {
        say(std::string("frontier-report failed: ") + ex.what());
        return kCrawlFailed;
    }
    say("reports: " + o.out + "/report.txt, " + o.out + "/report.html");
    return rc;
}

}  // namespace frontier
