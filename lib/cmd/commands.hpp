// The run functions behind each tool: option structs (filled by CLI11 in
// tools/*.cpp, no I/O while parsing) and the loops that read input, call the
// library and print results. Each returns the process exit code.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/tool.hpp"

namespace frontier {

struct AddOptions {
    CommonOptions common;
    std::vector<std::string> inputs;  // files, "-" = stdin (default)
    int64_t batch = 100000;           // records per transaction (at most; also one per second)
};
int run_add(const AddOptions& o);

struct ConfigOptions {
    CommonOptions common;
    std::string domain;
    std::vector<std::string> args;  // [KEY [VALUE]] (filled from key/value below)
    std::string key, value;
    bool unset = false;
    bool keys = false;  // --keys: list the known settings (no frontier file needed)
};
int run_config(const ConfigOptions& o);

struct LeaseOptions {
    CommonOptions common;
    int64_t n = 100;
    int64_t per_queue = 1;
    double host_discount = 0;
    std::optional<double> ttl;  // nullopt: the lease.ttl setting
    std::string url_class;
    bool follow = false;
    bool forever = false;
    int64_t max_in_flight = 64;
    double refill_ratio = 1.0;
    double host_ratio = 0;         // also top up when queues with leases out < ratio x those after the last poll
    double min_poll_interval = 0;  // seconds between two polls at least
    double poll_interval = 0.2;
    bool reclaim = false;  // end every lease out now, then exit
};
int run_lease(const LeaseOptions& o);

// frontier-crawl: the one-command crawl (frontier-crawl(1)).
struct CrawlOptions {
    CommonOptions common;               // -f (default OUT/crawl.db), -q, -v, --progress
    std::vector<std::string> seeds;     // seed URLs
    std::string input;                  // -i FILE: more seeds (URLs or JSON lines), "-" = stdin
    std::string out = "crawl";          // -o DIR
    std::optional<int64_t> depth;       // scope.max-depth (5 for a new frontier)
    std::optional<int64_t> per_site;    // budget.total
    int64_t concurrency = 16;           // fetches at once over all sites
    bool warc = false;                  // WARC files in OUT/warc/
    std::vector<std::string> set;       // KEY=VALUE settings
    bool reclaim = false;               // end leases left by a crashed run first
};
int run_crawl(const CrawlOptions& o);

struct DoneOptions {
    CommonOptions common;
    std::vector<std::string> inputs;
    int64_t batch = 100000;  // results per transaction (at most; also one per second)
};
int run_done(const DoneOptions& o);

struct ExportOptions {
    CommonOptions common;
    std::string output;  // -o/--output FILE (written beside and renamed); empty or "-" = stdout
    bool urls = false;   // --urls: one line per URL for analysis, not the whole frontier
    bool csv = false;    // --csv (with --urls): CSV instead of JSON lines
};
// Writes the whole frontier as JSON lines (lib/store/export_format.hpp). Exit 0,
// or 1 when a text value was not valid UTF-8 (written with U+FFFD).
int run_export(const ExportOptions& o);

struct ImportOptions {
    CommonOptions common;
    std::vector<std::string> inputs;  // one file, "-" = stdin (default)
    int64_t batch = 100000;           // rows per transaction
};
// Reads a frontier-export stream into a frontier that holds no data yet,
// then checks its invariants. Exit 0; 1 when a line was rejected, the
// stream was cut off, the check failed, the target was not empty or the
// header was refused (nothing imported in the last two cases).
int run_import(const ImportOptions& o);

}  // namespace frontier
