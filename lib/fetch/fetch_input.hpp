// The input side of `fetch`: a reader thread that parses JSON-lines with
// LineReader, validates each record into a FetchJob, and hands jobs to the
// network thread through a bounded queue (so reading never waits on the
// network, and the network never waits on reading).
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "fetch/fetch_types.hpp"

namespace frontier {

// The per-host key of an absolute http(s) URL: lower-case host, plus ":port"
// when the port is not the scheme's default; userinfo dropped. nullopt when
// the URL is not http(s) or has no host. Thread-safe.
std::optional<std::string> url_host_key(std::string_view url);

// Validates one input line into a job: LineReader errors, a missing or
// non-string `url`, a URL that is not absolute http(s), or a wrongly typed
// `robots`, `etag`, `http_last_modified` or `content_hash` make it bad input
// (job.bad says why). Thread-safe.
FetchJob make_fetch_job(InputLine&& line);

class InputFeeder {
public:
    // `capacity` bounds the queued jobs; `wake` is called (from the reader
    // thread) when a job lands in an empty queue or the input ends.
    InputFeeder(std::vector<std::string> paths, size_t capacity, std::function<void()> wake);
    ~InputFeeder();
    InputFeeder(const InputFeeder&) = delete;
    InputFeeder& operator=(const InputFeeder&) = delete;

    // Starts the reader thread.
    void start();
    // Moves up to `max` queued jobs to the back of `out`; never blocks.
    size_t take(std::deque<FetchJob>& out, size_t max);
    // True once the input has ended and every job has been taken.
    bool finished();
    // Stops reading. A reader blocked in read(2) is left behind (detached),
    // which is harmless at process exit.
    void stop();
    // Rethrows an error the reader met (e.g. an unreadable input file).
    void rethrow_error();

private:
    void run();
    struct Shared;
    std::shared_ptr<Shared> s_;
    std::thread thread_;
};

}  // namespace frontier
