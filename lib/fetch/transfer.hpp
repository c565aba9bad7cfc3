// One HTTP fetch on a reusable libcurl easy handle: request options,
// streaming callbacks (XXH3-64 of the body while it arrives, size cap,
// header parsing, raw headers for WARC) and the FetchResult at the end.
// The body is kept (for links, WARC, --body, robots) as far as the memory
// budget lets it (lib/fetch/body_budget.hpp): the rest is still read, counted and
// hashed, and with --warc written to a temporary file instead.
// A Transfer belongs to the network thread.
#pragma once

#include <curl/curl.h>
#include <xxhash.h>

#include <memory>
#include <string>
#include <vector>

#include "fetch/curl_handle.hpp"
#include "fetch/fetch_types.hpp"

namespace frontier {

// The error_class for a libcurl result code: "dns", "connect", "timeout",
// "reset", "tls", "too-large", "bad-url" or "other". `too_large` is set when
// the body callback stopped the transfer at the size cap.
std::string classify_curl_error(CURLcode rc, bool too_large);

class Transfer {
public:
    // Creates the easy handle and sets the options that never change.
    // Kept bodies are charged to `budget` (none: kept without limit).
    explicit Transfer(const FetchOptions& opt, BodyBudget* budget = nullptr, CURLSH* share = nullptr);
    ~Transfer();
    Transfer(const Transfer&) = delete;
    Transfer& operator=(const Transfer&) = delete;

    // Bytes of `job`'s body a fetch keeps at most (0: none), and of them
    // the share guaranteed whatever the budget: `share` (BodyBudget::share()),
    // or more for what a robots record (kRobotsMaxBytes) or --body
    // (--body-max) always keeps.
    static uint64_t keep_limit(const FetchOptions& opt, const FetchJob& job);
    static uint64_t guaranteed(const FetchOptions& opt, const FetchJob& job, uint64_t share);

    // Prepares a fetch of `job` (conditional headers; for robots: redirects
    // followed, body read up to kRobotsMaxBytes whatever --max-size).
    // `fetched_at` is the epoch time reported; `charge` was started with
    // guaranteed() by the budget. Add easy() to the multi next.
    void begin(FetchJob&& job, double fetched_at, BodyCharge&& charge = BodyCharge());
    CURL* easy() const { return easy_.get(); }

    // Completes the fetch with libcurl's result code and returns what
    // happened. After it, connection_failed() and latency() describe it.
    FetchResult finish(CURLcode rc);
    // True when DNS, connect or a connect timeout failed (the host is down).
    bool connection_failed() const { return conn_failed_; }
    // After begin(): refused by the address guard before any connection
    // (a literal or localhost target through --proxy); finish() reports it.
    bool refused() const { return !denied_.empty(); }
    // Seconds from the start to the first response byte.
    double latency() const { return latency_; }

    void* owner = nullptr;  // the scheduler's tag for this fetch's host

private:
    static size_t on_body(char* p, size_t size, size_t n, void* self);
    void keep(const char* p, size_t len);
    size_t append_kept(const char* p, size_t n);
    void join_pieces();
    static constexpr size_t kPieceBytes = size_t{1} << 20;
    struct Piece {
        Piece();
        ~Piece();
        Piece(const Piece&) = delete;
        Piece& operator=(const Piece&) = delete;
        char* data = nullptr;  // kPieceBytes mapped, nullptr when that failed
        size_t size = 0;
    };
    static size_t on_header(char* p, size_t size, size_t n, void* self);
    static int on_debug(CURL*, curl_infotype type, char* p, size_t n, void* self);
    static curl_socket_t on_open_socket(void* self, curlsocktype purpose, struct curl_sockaddr* address);
    void check_target_through_proxy();
    unsigned allowed_kinds() const;
    void header_line(std::string_view line);
    bool unfollowed_redirect(CURLcode rc) const;

    const FetchOptions& opt_;
    BodyBudget* budget_;
    CurlEasy easy_;
    CurlSlist headers_;
    XXH3_state_t* xxh_ = nullptr;
    FetchResult res_;
    std::vector<std::unique_ptr<Piece>> pieces_;  // the kept body past res_.body, see append_kept
    uint64_t keep_limit_ = 0;
    bool too_large_ = false;
    bool robots_cut_ = false;     // a robots.txt body stopped at kRobotsMaxBytes
    std::string response_url_;    // the URL that sent the last response header
    bool conn_failed_ = false;
    bool response_seen_ = false;  // a response header arrived since the last request
    int responses_ = 0;           // response headers so far (more than 0: a redirect hop)
    unsigned first_kind_ = 0;     // address kind of the first connection (0: none yet)
    std::string denied_;          // the address guard refused a connection: why
    std::string user_agent_;      // the User-Agent header sent
    std::string crawler_;         // the job's user_agent it was made for
    double latency_ = 0;
    char errbuf_[CURL_ERROR_SIZE] = {};
    std::string retry_after_raw_;
    std::string last_modified_raw_;
    std::string location_raw_;    // the last response's Location, as sent
};

}  // namespace frontier
