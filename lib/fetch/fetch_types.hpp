// Data passed between the stages of `fetch`: options, input jobs and fetch
// results. Plain values; no behaviour beyond small helpers.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fetch/body_budget.hpp"
#include "json/json.hpp"

namespace frontier {

// Everything `fetch` can be told on its command line (tools/fetch.cpp).
struct FetchOptions {
    std::vector<std::string> inputs{"-"};    // files, "-" = stdin
    int concurrency = 32;                    // transfers at once
    int per_host = 2;                        // transfers at once per host:port
    double timeout = 30;                     // whole transfer, seconds
    double connect_timeout = 10;             // connection phase, seconds
    uint64_t max_size = 32ull << 20;         // body cap: too-large beyond it
    uint64_t max_memory = 32ull << 20;       // kept bodies in all (BodyBudget)
    std::string user_agent;                  // empty = default_user_agent()
    double conn_retry = 600;                 // host-down window, seconds
    int down_after_timeouts = 2;             // timeouts in a row that put a host down; 0 = never
    double autothrottle = 0;                 // target concurrency per host; 0 = off
    double autothrottle_start = 5;           // first delay per host, seconds
    double autothrottle_max = 60;            // delay cap, seconds
    bool links = false;                      // extract links
    bool body = false;                       // inline body for every record
    uint64_t body_max = 512000;              // inline body cap (robots always 512000)
    std::string warc_prefix;                 // empty = no WARC
    uint64_t warc_max_size = 1ull << 30;     // WARC rotation size
    size_t read_ahead = 0;                   // 0 = 4 x concurrency + 10000
    bool http2 = true;                       // offer HTTP/2 over TLS
    bool quiet = false;                      // no summary
    bool progress = false;                   // progress even when stderr is not a tty
    bool no_progress = false;                // none even on a tty
    bool verbose = false;
    std::vector<std::string> headers;        // --header "Name: value", sent with every request
    std::string proxy;                       // --proxy URL (empty: none; libcurl's proxy variables are not read)
    std::string cacert, capath;              // --cacert / --capath (else $SSL_CERT_FILE / $SSL_CERT_DIR)
    std::string cookie_jar;                  // --cookie-jar FILE: cookies read, shared and written back
    unsigned addresses = 0;                  // address kinds for records without "addresses"
                                             // (lib/net/address_guard.hpp); 0 = kAddrDefault
};

// "NAME/0.1.0 (+crawl-frontier; libcurl/7.88.1)": the User-Agent header of
// the crawler NAME (a robots.txt product token).
std::string user_agent_for(std::string_view crawler);
// user_agent_for("frontier"), the default robots.user-agent.
std::string default_user_agent();

// One input line, validated by the reader thread.
struct FetchJob {
    uint64_t line = 0;
    Record rec;                  // the input record, passed through
    std::string bad;             // non-empty: bad input, with this message
    std::string url;
    std::string host;            // "host" or "host:port" (non-default port), lower-case
    bool robots = false;         // "robots":true: follow redirects, inline body
    std::string etag;            // If-None-Match
    std::optional<double> if_modified_since;  // from http_last_modified
    unsigned addresses = 0;      // address kinds it may connect to (lib/net/address_guard.hpp)
    std::string user_agent;      // the crawler's name (product token); empty = "frontier"
    std::optional<double> delay; // "delay": seconds after the host's last request ended (fetch(1))
};

// What happened to one job; built by the network thread, written by the
// result thread. Move-only: it holds its body's share of the memory budget.
struct FetchResult {
    FetchJob job;
    int status = 0;
    std::string error_class;     // empty on success
    std::string error;
    double fetched_at = 0;       // epoch seconds when the request started
    int64_t duration_ms = -1;    // -1: no attempt (not written)
    int64_t ttfb_ms = -1;
    uint64_t bytes = 0;
    std::string content_type;
    std::optional<uint64_t> content_hash;
    std::string etag;
    std::optional<double> http_last_modified;
    std::string location;
    std::optional<double> retry_after;
    std::string effective_url;
    bool have_body = false;      // `body` holds the (possibly capped) body
    std::string body;
    bool body_cut = false;             // `body` is a prefix: the memory budget kept no more
    BodyCharge charge;                 // what `body` holds of the budget
    std::unique_ptr<BodySpill> spill;  // with --warc: the body past `body`
    bool links_truncated = false;  // the extractor dropped links past its cap
    std::string ip;              // the address of the last connection, when one was made
    // WARC material (only with --warc and a response).
    bool warc = false;
    std::string request_head;
    std::string response_head;
    std::string truncated;
};

}  // namespace frontier
