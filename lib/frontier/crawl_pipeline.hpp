// The crawl loop of frontier-crawl (frontier-crawl(1)) as the toolkit's
// own pipeline
//
//   frontier-lease --follow | fetch --links [--warc] | frontier-done >> OUT/results.jsonl
//
// then the reports. The three tools run in a process group of their own, so
// that a terminal's ^C (SIGINT to the foreground group) reaches only the
// crawl, which stops them in order: frontier-lease stops leasing, fetch
// finishes the transfers under way, frontier-done records every result it
// was given. The tools are those beside this executable (else on PATH).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "policy/settings.hpp"

namespace frontier {

// frontier-crawl's transfers at once without -c: fetch runs one for each
// lease it holds (politeness.max-in-flight a host), so as many as there are
// hosts ready, up to this many.
constexpr int64_t kAdaptiveConcurrencyCap = 256;

// Leases out per transfer: the ones fetch holds in its queue start as soon as
// a transfer ends, without waiting for frontier-done and frontier-lease.
constexpr int64_t kQueuedPerTransfer = 4;

// Leases a site without delay may have out per transfer to it: the
// politeness.lease-ahead frontier-crawl gives a new frontier whose global
// politeness is `p` is this less one, times max-in-flight.
constexpr int64_t kAheadPerTransfer = 16;
inline int64_t crawl_lease_ahead(const Politeness& p) { return (kAheadPerTransfer - 1) * p.max_in_flight; }

struct CrawlPipelineOptions {
    std::string frontier;               // the frontier (a file or postgresql://...)
    std::string out;                    // the crawl's directory (results.jsonl, reports, warc/)
    int64_t concurrency = 16;           // most transfers at once (fetch -c)
    int64_t queued_leases = 16;         // leases out at once (frontier-lease --max-in-flight, plus lease-ahead)
    double timeout = 0;                 // fetch --timeout, seconds (0: fetch's default)
    bool warc = false;                  // fetch --warc OUT/warc/crawl-TIME
    bool quiet = false;                 // the tools' -q; no messages of the crawl's own
    bool progress = false;              // a progress line every second on standard error
    double max_wait = 300;              // end when nothing is out and the next URL is due later than this
    std::optional<int64_t> per_site;    // --per-site, named in the pause message
    // Called once fetch and frontier-done are started, before frontier-lease
    // (e.g. to wait for the seeds' frontier-add, overlapping their start-up);
    // what it throws ends the two and is thrown on.
    std::function<void()> before_lease;
};

// The crawl's exit codes (frontier-crawl(1), EXIT STATUS).
constexpr int kCrawlFinished = 0;  // nothing left, or stopped by SIGINT/SIGTERM
constexpr int kCrawlFailed = 1;    // a tool failed
constexpr int kCrawlWaiting = 3;   // what is left is due beyond max_wait
constexpr int kCrawlPaused = 4;    // sites reached their budget

using Say = std::function<void(const std::string&)>;

// Runs the pipeline until frontier-lease ends (nothing left, or a budget
// pause), a signal stops it, or nothing is out and the next URL is due
// more than max_wait seconds away; then writes OUT/report.txt and
// OUT/report.html. Says what happened through `say`. Returns the crawl's
// exit code (kCrawl*). Throws IoError when a tool cannot be started or a
// file cannot be written. Call from the main thread, once signal handlers
// are installed (install_signal_handlers); it reaps its children only.
int run_crawl_pipeline(const CrawlPipelineOptions& o, const Say& say);

}  // namespace frontier
