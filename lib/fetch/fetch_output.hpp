// The result side of `fetch`: one writer thread that turns FetchResults into
// JSON lines on stdout (the only stdout writer, so lines never interleave),
// writing WARC records on the way, off the network thread. Links are
// extracted by the writer itself when it is idle or the page is small, else
// by a pool of parser threads (one per core, at most 8) as soon as a result
// is queued, so parsing overlaps the transfers and other results' parsing
// (it is the costly part of a crawl); lines are still written in arrival
// order.
// Bounded: push() blocks while the queue holds 4096 results or 8 MiB of
// bodies; the bodies also hold their share of the memory budget
// (lib/fetch/body_budget.hpp) until written (or, when no WARC record needs them,
// parsed).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "fetch/fetch_types.hpp"
#include "json/json.hpp"
#include "web/links.hpp"
#include "fetch/warc.hpp"

namespace frontier {

// Counters for the progress line and the summary. Thread-safe.
class FetchStats {
public:
    // Counts one result under `cls` (an error class, or "2xx".."5xx").
    void add(const std::string& cls, uint64_t bytes);
    uint64_t results() const { return results_.load(std::memory_order_relaxed); }
    uint64_t bytes() const { return bytes_.load(std::memory_order_relaxed); }
    uint64_t count(const std::string& cls) const;
    // "2xx 120, 4xx 3, timeout 1" (classes in name order).
    std::string by_class() const;

private:
    std::atomic<uint64_t> results_{0};
    std::atomic<uint64_t> bytes_{0};
    mutable std::mutex mu_;
    std::map<std::string, uint64_t> classes_;
};

// The class a result is counted under: its error_class, else "2xx".."5xx".
std::string result_class(const FetchResult& r);

// The JSON line for `r` (without newline): every input key except those the
// result sets, then the result fields of fetch(1), OUTPUT. `links` and `warc` are
// written when non-null. Inline body capped at `body_cap` bytes. Thread-safe.
// The line stays under kMaxResultLine bytes (readers refuse lines over
// 1 MiB): the body is cut further until its JSON text fits, then links past
// the budget are dropped and "links_truncated":true is added.
inline constexpr size_t kMaxResultLine = 1000000;
std::string format_fetch_result(const FetchResult& r, const std::vector<Link>* links, const WarcLocation* warc,
                                uint64_t body_cap);

// `body` without an incomplete UTF-8 sequence at its end (a body cut by the
// memory budget may stop inside a character, which would make a whole page
// read as windows-1252: lib/web/html/encoding.hpp); its links are read from this.
std::string_view whole_utf8_prefix(std::string_view body);

// format_fetch_result in pieces, so that links can be written into the line
// as they are extracted (the line, at most kMaxResultLine bytes, is all a
// page's links cost): the constructor writes the fields before "links";
// then begin_links(), add_link() while it returns true (false: the line is
// full, that link and the rest are dropped), end_links(); then finish().
class ResultLine {
public:
    ResultLine(const FetchResult& r, uint64_t body_cap);
    void begin_links();
    bool add_link(const Link& link);
    // "links_truncated":true follows when links were dropped here or `truncated`.
    void end_links(bool truncated);
    // The line, with the inline body and `warc` when non-null.
    std::string finish(const WarcLocation* warc);
    size_t size() const { return w_.str().size() + body_json_.size(); }

private:
    JsonWriter w_;
    std::string body_json_;
    bool have_body_;
    bool links_cut_ = false;
};

class ResultWriter {
public:
    ResultWriter(const FetchOptions& opt, FetchStats& stats);
    ~ResultWriter();
    ResultWriter(const ResultWriter&) = delete;
    ResultWriter& operator=(const ResultWriter&) = delete;

    // Starts the writer thread (with SIGINT/SIGTERM blocked in it).
    void start();
    // Queues a result, blocking while the queue is full. Returns false once
    // the writer has stopped on an error (the result is dropped).
    bool push(FetchResult&& r);
    // True once the writer stopped on an error (EPIPE, I/O).
    bool failed() const { return failed_.load(); }
    // Ends the stream: waits for every queued result to be written and
    // flushed, then rethrows the writer's error (BrokenPipe, IoError).
    void finish();

private:
    // A queued result; `ready` once its links are extracted (or none are
    // wanted). Shared between the queue and the parser working on it.
    struct Item {
        FetchResult r;
        std::optional<ResultLine> line;  // with links: the line but for its WARC location
        std::exception_ptr error;        // from extraction, rethrown by the writer
        bool ready = false;              // guarded by mu_
        bool writer_parses = false;      // small: parsed by the writer, never queued for a parser
        uint64_t queued_bytes = 0;       // of its body, counted in queued_bytes_ (guarded by mu_)
        size_t rendered_bytes = 0;       // of its line, counted in rendered_bytes_ (guarded by mu_)
    };

    void run();
    void parse(Item& item);  // extracts its links, then marks it ready
    void parse_loop();
    void stop_parsers();
    void close();  // thread and parsers stopped (finish() and the destructor)
    bool wants_links(const FetchResult& r) const;
    // Whether the result line carries the body inline (robots, --body; else
    // have_body is cleared), and its cap.
    uint64_t inline_body_cap(FetchResult& r) const;
    // Whether the body is still needed once the line is made (its WARC record).
    bool keeps_body(const FetchResult& r) const;
    void handle(Item& item);

    // Lines parsed ahead of the writer (waiting for the results before
    // them) hold at most this much; then parsers wait.
    static constexpr size_t kMaxRenderedBytes = size_t{8} << 20;
    // A page this small costs less to parse than to hand to a parser (a
    // wake-up and the lock passed back and forth): the writer parses it
    // when it comes to it.
    static constexpr size_t kWriterParsesBytes = size_t{16} << 10;

    FetchOptions opt_;
    FetchStats& stats_;
    std::unique_ptr<WarcWriter> warc_;
    std::mutex mu_;
    std::condition_variable cv_items_;  // the writer: the front item is ready, or closing
    std::condition_variable cv_space_;
    std::condition_variable cv_jobs_;   // the parsers
    std::deque<std::shared_ptr<Item>> queue_;  // arrival order
    std::deque<std::shared_ptr<Item>> jobs_;   // waiting for a parser
    size_t rendered_bytes_ = 0;                // of the lines of parsed items in queue_
    uint64_t queued_bytes_ = 0;                // of the bodies in queue_
    bool closing_ = false;
    bool parsers_stop_ = false;
    std::atomic<bool> failed_{false};
    std::exception_ptr error_;
    std::thread thread_;
    std::vector<std::thread> parsers_;
    unsigned parse_threads_ = 1;
};

}  // namespace frontier
