// frontier-report (frontier-report(1)): options and the run function behind
// tools/frontier-report.cpp. Parsing fills ReportOptions without I/O;
// run_report() opens the frontier read-only and prints.
#pragma once

#include <cstdint>
#include <string>

#include "core/tool.hpp"

namespace frontier {

struct ReportOptions {
    CommonOptions common;
    bool json = false;          // --json: the summary object, or JSON-lines with --queues
    bool queues = false;        // --queues: one row per queue
    std::string state;          // --state S[,S...]: filter for --queues
    std::string sort;           // --sort KEY[:asc|:desc]
    int64_t limit = -1;         // --limit N (--queues; default 10 for the summary's tables)
    std::string html;           // --html FILE: write the HTML page there
    double watch = 0;           // --watch SECONDS: redraw the text report until SIGINT
    int64_t top = 10;           // --top N: rows in the summary's queue tables
    bool check = false;         // --check: verify the file's invariants (lib/store/store_check.hpp)
    // The crawl's reports (frontier-report(1)): one of them, as a text table
    // or JSON lines with --json.
    bool hosts = false;         // --hosts: per queue (host) URLs done, bytes, errors, latency, robots, budget
    bool mimetypes = false;     // --mimetypes: count and bytes per MIME type
    bool codes = false;         // --codes: count per HTTP status and per error class
    bool seeds = false;         // --seeds: each seed's state, status, redirect, pages of its queue
    bool failed = false;        // --failed: latest failed URLs and the hosts with most errors
};

// Validates option combinations (UsageError), then reports. Returns the exit
// code: 0, or 1 for an I/O or database error (thrown, mapped by the runner).
// Read-only: a missing frontier file is an error.
int run_report(const ReportOptions& o);

}  // namespace frontier
