// frontier-crawl: a one-off crawl in one command (frontier-crawl(1)).
// It sets the frontier up (settings, seeds as frontier-add adds them), runs the
// crawl loop as the three tools in a pipeline
//
//   frontier-lease --follow | fetch --links [--warc] | frontier-done >> OUT/results.jsonl
//
// and writes the reports (lib/frontier/crawl_pipeline.hpp). The tools are
// the ones installed beside this one (or on PATH); nothing here decides
// crawl policy.

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <optional>
#include <cstring>
#include <string_view>
#include <string>
#include <vector>

#include "core/child.hpp"
#include "core/error.hpp"
#include "core/output.hpp"
#include "core/process_group.hpp"
#include "core/tool.hpp"
#include "frontier/add_session.hpp"
#include "frontier/crawl_pipeline.hpp"
#include "policy/settings.hpp"
#include "store/store.hpp"

namespace frontier {

// frontier-crawl: the one-command crawl (frontier-crawl(1)).
struct CrawlOptions {
    CommonOptions common;               // -f (default OUT/crawl.db), -q, -v, --progress
    std::vector<std::string> seeds;     // seed URLs
    std::string input;                  // -i FILE: more seeds (URLs or JSON lines), "-" = stdin
    std::string out = "crawl";          // -o DIR
    std::optional<int64_t> depth;       // scope.max-depth (5 for a new frontier)
    std::optional<int64_t> per_site;    // budget.total
    std::optional<int64_t> concurrency; // fetches at once over all sites (none: one per ready host, capped)
    double timeout = 0;                 // fetch --timeout (0: fetch's default)
    double max_wait = 300;              // end when all that is left is due later than this (-1: never)
    bool warc = false;                  // WARC files in OUT/warc/
    std::vector<std::string> set;       // KEY=VALUE settings
    bool reclaim = false;               // end leases left by a crashed run first
};
int run_crawl(const CrawlOptions& o);

namespace {

// The crawl directory's claim (DIR/crawl.pid: "HOST PID START"), so that
// two crawls never run in one directory and a crawl that died is known as
// such: its leases are then reclaimed at the next start.
struct Claim {
    std::string host;
    long pid = 0;
    uint64_t start = 0;
};

std::optional<Claim> read_claim(const std::string& path) {
    FILE* fp = std::fopen(path.c_str(), "r");
    if (!fp) return std::nullopt;
    char host[256];
    long pid = 0;
    unsigned long long start = 0;
    int got = std::fscanf(fp, "%255s %ld %llu", host, &pid, &start);
    std::fclose(fp);
    if (got != 3) return std::nullopt;
    return Claim{host, pid, start};
}

// The --set KEY=VALUE settings, checked (with the other options) before
// anything is created.
std::vector<std::pair<std::string, std::string>> checked_settings(const CrawlOptions& o) {
    if (o.concurrency && *o.concurrency < 1) throw UsageError("-c must be at least 1");
    if (o.timeout < 0) throw UsageError("--timeout must not be negative");
    if (o.max_wait < 0 && o.max_wait != -1) throw UsageError("--max-wait must be 0 or more, or -1");
    if (o.depth && *o.depth < 0) throw UsageError("--depth must be 0 or more");
    if (o.per_site && *o.per_site < 1) throw UsageError("--per-site must be at least 1");
    std::vector<std::pair<std::string, std::string>> settings;
    for (auto& kv : o.set) {
        size_t eq = kv.find('=');
        if (eq == std::string::npos || eq == 0) throw UsageError("--set " + kv + ": expected KEY=VALUE");
        settings.emplace_back(kv.substr(0, eq), normalise_setting(kv.substr(0, eq), kv.substr(eq + 1)));
    }
    return settings;
}

// The settings a new frontier gets (before --set), for a crawl that ends.
const std::pair<const char*, const char*> kOneOffSettings[] = {
    {"retry.delay", "10"}, {"retry.max", "3"}, {"politeness.host-down-delay", "60"}};

// Creates the frontier `f` if needed and stores the crawl's settings.
void set_up_frontier(const CrawlOptions& o, const std::string& f,
                     const std::vector<std::pair<std::string, std::string>>& settings) {
    struct stat st;
    bool fresh = f.find("://") == std::string::npos && ::stat(f.c_str(), &st) != 0;
    Store store(f, Store::Mode::create);
    if (o.depth || fresh)
        store.set_setting("scope.max-depth", normalise_setting("scope.max-depth", std::to_string(o.depth.value_or(5))));
    if (o.per_site) store.set_setting("budget.total", normalise_setting("budget.total", std::to_string(*o.per_site)));
    // A one-off crawl retries soon and gives up soon (frontier-crawl(1)).
    if (fresh)
        for (auto& [k, v] : kOneOffSettings) store.set_setting(k, normalise_setting(k, v));
    for (auto& [k, v] : settings) store.set_setting(k, v);
    // One fetch serves every host: leases may wait in it (frontier-crawl(1)).
    auto ahead_set = [](auto& kv) { return kv.first == "politeness.lease-ahead"; };
    if (fresh && std::none_of(settings.begin(), settings.end(), ahead_set))
        store.set_setting("politeness.lease-ahead", std::to_string(crawl_lease_ahead(store.settings().politeness)));
}

// What frontier-add prints for the seeds: its answers to OUT/seeds.jsonl,
// each line once its record is committed, its summary on standard error
// as frontier-add's (none with -q).
class SeedsSink : public SessionSink {
public:
    SeedsSink(const std::string& path, bool quiet) : path_(path), quiet_(quiet) {
        fp_ = std::fopen(path.c_str(), "w");
        if (!fp_) throw IoError("cannot write " + path + ": " + std::strerror(errno));
    }
    ~SeedsSink() override {
        if (fp_) std::fclose(fp_);
    }
    void line(std::string_view text) override {
        held_.append(text);
        held_ += '\n';
    }
    void flush() override {
        if (!held_.empty() && std::fwrite(held_.data(), 1, held_.size(), fp_) != held_.size())
            throw IoError("cannot write " + path_ + ": " + std::strerror(errno));
        held_.clear();
        if (std::fflush(fp_) != 0) throw IoError("cannot write " + path_ + ": " + std::strerror(errno));
    }
    void message(std::string_view text) override {
        if (quiet_) return;
        std::string m = "frontier-add: " + std::string(text) + "\n";
        (void)!::write(2, m.data(), m.size());
    }
    size_t held() const override { return held_.size(); }

private:
    std::string path_, held_;
    bool quiet_;
    FILE* fp_ = nullptr;
};

// Adds the seeds as `frontier-add -f F SEEDS > OUT/seeds.jsonl` does, in
// this process (a process of its own, loading the tools' libraries, cost a
// short crawl more than its adds). The pipeline calls the function returned
// before it starts frontier-lease, once fetch and frontier-done are starting.
std::function<void()> add_seeds(const CrawlOptions& o, const std::string& f, const Say& say) {
    if (o.seeds.empty() && o.input.empty()) return [] {};
    return [&o, f, say] {
        std::vector<std::string> inputs;
        struct Removed {
            std::string path;
            ~Removed() {
                if (!path.empty()) std::remove(path.c_str());
            }
        } list{o.seeds.empty() ? "" : o.out + "/.seeds.txt"};
        if (!list.path.empty()) {
            FILE* fp = std::fopen(list.path.c_str(), "w");
            if (!fp) throw IoError("cannot write " + list.path + ": " + std::strerror(errno));
            for (auto& s : o.seeds) std::fprintf(fp, "%s\n", s.c_str());
            if (std::fclose(fp) != 0) throw IoError("cannot write " + list.path + ": " + std::strerror(errno));
            inputs.push_back(list.path);
        }
        if (!o.input.empty()) inputs.push_back(o.input);
        Store store(f, Store::Mode::create);
        ReaderSource input(inputs);
        SeedsSink sink(o.out + "/seeds.jsonl", o.common.quiet);
        if (run_add_session(store, input, sink, AddSessionOptions{}) == 1) say("some seeds were rejected: see " + o.out + "/seeds.jsonl");
    };
}

// One crawl per directory. A claim left by a crawl that is provably gone
// (this host, its pid no longer that process) means it died with leases
// out: they are reclaimed, when the frontier is the directory's own. Writes
// this crawl's claim; returns whether to reclaim leases first.
bool claim_directory(const CrawlOptions& o, const std::string& f, const std::string& claim_path, const Say& say) {
    bool reclaim = o.reclaim;
    if (std::optional<Claim> c = read_claim(claim_path)) {
        bool here = c->host == host_name();
        bool alive = here && process_start(c->pid) == c->start;
        if (alive)
            throw IoError("a crawl is running in " + o.out + " (pid " + std::to_string(c->pid) + "); stop it first");
        bool own_frontier = f == o.out + "/crawl.db";
        if (here && own_frontier) {
            say("the last crawl in " + o.out + " (pid " + std::to_string(c->pid) +
                ") stopped without finishing: handing its leases out again");
            reclaim = true;
        } else if (!reclaim) {
            say("the last crawl in " + o.out + " (pid " + std::to_string(c->pid) + " on " + c->host +
                ") did not finish; its leases expire after lease.ttl, or --reclaim ends them now if no one "
                "fetches them");
        }
    }
    FILE* fp = std::fopen(claim_path.c_str(), "w");
    if (!fp) throw IoError("cannot write " + claim_path + ": " + std::strerror(errno));
    std::fprintf(fp, "%s %ld %llu\n", host_name().c_str(), static_cast<long>(::getpid()),
                 static_cast<unsigned long long>(process_start(::getpid()).value_or(0)));
    std::fclose(fp);
    return reclaim;
}

}  // namespace

int run_crawl(const CrawlOptions& o) {
    std::vector<std::pair<std::string, std::string>> settings = checked_settings(o);
    if (::mkdir(o.out.c_str(), 0755) != 0 && errno != EEXIST)
        throw IoError("cannot create " + o.out + ": " + std::strerror(errno));
    CommonOptions common = o.common;
    if (common.frontier.empty() && !std::getenv("FRONTIER")) common.frontier = o.out + "/crawl.db";
    const std::string f = frontier_path(common);
    const Say say = [&](const std::string& m) { if (!o.common.quiet) diag(m); };
    set_up_frontier(o, f, settings);
    const std::string claim_path = o.out + "/crawl.pid";
    bool reclaim = claim_directory(o, f, claim_path, say);
    struct Unclaim {
        std::string path;
        ~Unclaim() { std::remove(path.c_str()); }  // a clean end (not a crash) gives the directory back
    } unclaim{claim_path};
    if (reclaim) {
        int rc = run_to_file("frontier-lease", {"-f", f, "--reclaim"}, "", o.common.quiet);
        if (rc != 0) throw IoError("frontier-lease --reclaim exited " + std::to_string(rc));
    }
    CrawlPipelineOptions p;
    p.before_lease = add_seeds(o, f, say);
    p.frontier = f;
    p.out = o.out;
    p.concurrency = o.concurrency.value_or(kAdaptiveConcurrencyCap);
    p.queued_leases = kQueuedPerTransfer * p.concurrency;
    p.timeout = o.timeout;
    say("crawling " + f + ": " +
        (o.concurrency ? std::to_string(*o.concurrency) + " fetches at once"
                       : "a fetch per ready host, up to " + std::to_string(p.concurrency) + " at once") +
        "; results in " + o.out + "/results.jsonl");
    p.warc = o.warc;
    p.quiet = o.common.quiet;
    p.progress = show_progress(o.common);
    p.max_wait = o.max_wait;
    p.per_site = o.per_site;
    return run_crawl_pipeline(p, say);
}

}  // namespace frontier

int main(int argc, char** argv) {
    frontier::CrawlOptions o;
    return frontier::run_tool(
        "frontier-crawl", argc, argv,
        [&](CLI::App& app) {
            frontier::add_common_options(app, o.common);
            app.add_option("seeds", o.seeds, "seed URLs");
            app.add_option("-i,--input", o.input, "more seeds from FILE: URLs or JSON lines ('-' = stdin)");
            app.add_option("-o,--out", o.out,
                           "directory for the crawl: crawl.db (unless -f), results.jsonl, seeds.jsonl, reports, "
                           "warc/ (default ./crawl)");
            app.add_option_function<int64_t>(
                "--depth", [&](int64_t v) { o.depth = v; },
                "follow links this many hops from the seeds (scope.max-depth; default 5 for a new frontier)");
            app.add_option_function<int64_t>(
                "--per-site", [&](int64_t v) { o.per_site = v; },
                "fetch at most N URLs per site (budget.total); the crawl then pauses at finish (exit 4)");
            app.add_option_function<int64_t>(
                "-c,--concurrency", [&](int64_t v) { o.concurrency = v; },
                "fetches at once over all sites (default: one per host ready to be fetched, up to 256)");
            app.add_option("--timeout", o.timeout, "seconds for a whole transfer (fetch --timeout; default 30)");
            app.add_option("--max-wait", o.max_wait,
                           "end (exit 3) when all that is left is due more than SECONDS away (default 300; -1: "
                           "wait as long as it takes)");
            app.add_flag("--warc", o.warc, "write WARC files to OUT/warc/");
            app.add_option("--set", o.set, "a frontier setting KEY=VALUE (repeatable; the keys: frontier-config with no argument)")
                ->allow_extra_args(false);
            app.add_flag("--reclaim", o.reclaim,
                         "first end every lease out (frontier-lease --reclaim), when a dead run is not recognised as one");
        },
        [&] { return frontier::run_crawl(o); },
        "Crawl from seeds until nothing is left: frontier-lease --follow | fetch --links | frontier-done, then "
        "the reports.",
        "  # crawl a site 3 links deep, at most 500 pages per site, WARC out\n"
        "  frontier-crawl -o out --depth 3 --per-site 500 --warc https://example.org/\n"
        "  # run again to resume (after ^C, or a crash: a dead run's leases are reclaimed)\n"
        "  frontier-crawl -o out");
}
