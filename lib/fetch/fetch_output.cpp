#include "fetch/fetch_output.hpp"

#include <algorithm>

#include <csignal>
#include <cstdio>
#include <pthread.h>
#include <unordered_set>

#include "core/error.hpp"
#include "core/output.hpp"

namespace frontier {

ResultWriter::ResultWriter(const FetchOptions& opt, FetchStats& stats) : opt_(opt), stats_(stats) {
    parse_threads_ = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
    if (!opt_.warc_prefix.empty())
        warc_ = std::make_unique<WarcWriter>(opt_.warc_prefix, opt_.warc_max_size, default_user_agent());
}

ResultWriter::~ResultWriter() { close(); }

// Lets the writer thread drain what is queued and end, then the parsers.
void ResultWriter::close() {
    if (thread_.joinable()) {
        {
            std::lock_guard<std::mutex> lock(mu_);
            closing_ = true;
        }
        cv_items_.notify_one();
        thread_.join();
    }
    stop_parsers();
}

void ResultWriter::start() {
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    thread_ = std::thread([this] { run(); });
    if (opt_.links)
        for (unsigned i = 0; i < parse_threads_; ++i) parsers_.emplace_back([this] { parse_loop(); });
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

void ResultWriter::stop_parsers() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        parsers_stop_ = true;
    }
    cv_jobs_.notify_all();
    for (auto& t : parsers_) t.join();
    parsers_.clear();
}

bool ResultWriter::push(FetchResult&& r) {
    constexpr size_t kMaxItems = 4096;
    // Bodies waiting for the writer: bounds fetch's memory when parsing is
    // slower than the network (push blocks; curl stops reading meanwhile).
    // They also hold their share of the memory budget (lib/fetch/body_budget.hpp),
    // which bounds them with the bodies in flight.
    constexpr uint64_t kMaxBytes = 8ull << 20;
    auto item = std::make_shared<Item>();
    item->r = std::move(r);
    item->queued_bytes = item->r.body.size();
    const bool links = wants_links(item->r);
    item->writer_parses = links && (parsers_.empty() || item->r.body.size() < kWriterParsesBytes);
    bool parse = links && !item->writer_parses;
    item->ready = !links;
    std::unique_lock<std::mutex> lock(mu_);
    cv_space_.wait(lock, [&] {
        return failed_.load() || queue_.empty() || (queue_.size() < kMaxItems && queued_bytes_ < kMaxBytes);
    });
    if (failed_.load()) return false;
    queued_bytes_ += item->queued_bytes;
    bool was_empty = queue_.empty();
    queue_.push_back(item);
    if (parse) jobs_.push_back(std::move(item));
    lock.unlock();
    // An idle writer parses the page itself (one thread handoff, not two);
    // a parser is woken only when the writer has other results in hand.
    if (was_empty)
        cv_items_.notify_one();
    else if (parse)
        cv_jobs_.notify_one();
    return true;
}

void ResultWriter::finish() {
    close();
    if (error_) std::rethrow_exception(error_);
}

bool ResultWriter::wants_links(const FetchResult& r) const {
    return opt_.links && !r.job.robots && r.status >= 200 && r.status < 300 && r.error_class.empty();
}

namespace {

// Writes a page's links into its result line as they are extracted, in
// document order, until the line is full: a page's links cost its line, not
// a list of them all. Each URL once, except that a URL written nofollow is
// written again when a followed link to it comes later: a link the page
// lets the crawler follow is followed (fetch(1), LINK EXTRACTION).
class LineLinks : public LinkOutput {
public:
    explicit LineLinks(ResultLine& line) : line_(line) {}
    bool add(Link&& link) override {
        const size_t i = seen_.find(link.url);
        if (i != StringSet::npos && (link.nofollow || followed_[i])) return true;
        if (!line_.add_link(link)) return false;
        if (i == StringSet::npos) {
            seen_.insert_new(link.url);
            followed_.push_back(!link.nofollow);
        } else {
            followed_[i] = true;
        }
        return true;
    }

private:
    ResultLine& line_;
    StringSet seen_;              // URLs written
    std::vector<bool> followed_;  // by seen_'s index: written without nofollow
};

}  // namespace

uint64_t ResultWriter::inline_body_cap(FetchResult& r) const {
    if (!r.job.robots && !opt_.body) r.have_body = false;
    return r.job.robots ? 512000 : opt_.body_max;
}

bool ResultWriter::keeps_body(const FetchResult& r) const { return warc_ && r.warc && r.status > 0; }

void ResultWriter::parse(Item& item) {
    // The writer does not touch the item until it is ready.
    FetchResult& r = item.r;
    std::exception_ptr error;
    std::optional<ResultLine> line;
    try {
        uint64_t cap = inline_body_cap(r);
        line.emplace(r, cap);
        line->begin_links();
        LineLinks out(*line);
        bool truncated = false;
        // Of the kept prefix when the budget cut the body.
        std::string_view body = r.body_cut ? whole_utf8_prefix(r.body) : std::string_view(r.body);
        extract_links(body, r.content_type, r.effective_url.empty() ? r.job.url : r.effective_url, out,
                      &truncated);
        r.links_truncated = truncated || r.body_cut;
        line->end_links(r.links_truncated);
    } catch (...) {
        error = std::current_exception();
        line.reset();
    }
    bool freed = !keeps_body(r) && !error;
    if (freed) {  // the body served its purpose: memory and budget back now
        std::string().swap(r.body);
        r.charge.release();
    }
    {
        std::lock_guard<std::mutex> lock(mu_);
        item.rendered_bytes = line ? line->size() : 0;
        rendered_bytes_ += item.rendered_bytes;
        if (freed) {
            queued_bytes_ -= std::min(queued_bytes_, item.queued_bytes);
            item.queued_bytes = 0;
        }
        item.line = std::move(line);
        item.error = error;
        item.ready = true;
    }
    if (freed) cv_space_.notify_all();
}

void ResultWriter::parse_loop() {
    for (;;) {
        std::shared_ptr<Item> item;
        {
            std::unique_lock<std::mutex> lock(mu_);
            // Parsed lines wait for the ones before them: at most
            // kMaxRenderedBytes of them (the writer parses the first itself).
            cv_jobs_.wait(lock, [&] {
                return parsers_stop_ || (!jobs_.empty() && rendered_bytes_ < kMaxRenderedBytes);
            });
            if (parsers_stop_) return;
            item = std::move(jobs_.front());
            jobs_.pop_front();
        }
        parse(*item);
        bool front;
        {
            std::lock_guard<std::mutex> lock(mu_);
            front = !queue_.empty() && queue_.front() == item;
        }
        if (front) cv_items_.notify_one();
    }
}

void ResultWriter::handle(Item& item) {
    if (item.error) std::rethrow_exception(item.error);
    FetchResult& r = item.r;
    WarcLocation loc;
    bool with_warc = false;
    if (warc_ && r.warc && r.status > 0) {
        WarcExchange ex;
        ex.target_uri = r.effective_url.empty() ? r.job.url : r.effective_url;
        ex.ip = r.ip;
        ex.date = r.fetched_at;
        ex.request = r.request_head;
        ex.payload = r.body;
        if (r.spill) {  // the body past what the memory budget let it keep
            if (!r.spill->error().empty()) throw IoError(r.spill->error());
            ex.payload_rest_fd = r.spill->fd();
            ex.payload_rest_size = r.spill->size();
        }
        ex.response_head = decoded_response_head(r.response_head, r.body.size() + ex.payload_rest_size);
        ex.truncated = r.truncated;
        loc = warc_->write(ex);
        with_warc = true;
    }
    if (item.line) {
        out().write_line(item.line->finish(with_warc ? &loc : nullptr));
    } else {
        uint64_t cap = inline_body_cap(r);
        out().write_line(format_fetch_result(r, nullptr, with_warc ? &loc : nullptr, cap));
    }
    stats_.add(result_class(r), r.bytes);
}

void ResultWriter::run() {
    try {
        for (;;) {
            std::shared_ptr<Item> item;
            bool parse_here = false;
            {
                std::unique_lock<std::mutex> lock(mu_);
                auto front_ready = [&] { return !queue_.empty() && queue_.front()->ready; };
                // The front result, not yet taken by a parser: parsed here.
                auto front_unclaimed = [&] {
                    return !queue_.empty() && (queue_.front()->writer_parses ||
                                               (!jobs_.empty() && jobs_.front() == queue_.front()));
                };
                auto go = [&] { return front_ready() || front_unclaimed() || (queue_.empty() && closing_); };
                if (!go()) {
                    lock.unlock();
                    out().flush();  // about to wait: nothing may sit in a buffer
                    if (warc_) warc_->flush();
                    lock.lock();
                    cv_items_.wait(lock, go);
                }
                if (queue_.empty()) break;  // closing
                if (!front_ready()) {
                    if (!queue_.front()->writer_parses) jobs_.pop_front();
                    parse_here = true;
                }
                item = std::move(queue_.front());
                queue_.pop_front();
            }
            if (parse_here) parse(*item);
            handle(*item);
            bool parsers_held;  // by kMaxRenderedBytes, which this line's bytes may end
            {
                std::lock_guard<std::mutex> lock(mu_);
                parsers_held = rendered_bytes_ >= kMaxRenderedBytes && !jobs_.empty();
                rendered_bytes_ -= std::min(rendered_bytes_, item->rendered_bytes);
                queued_bytes_ -= std::min<uint64_t>(queued_bytes_, item->queued_bytes);
            }
            item.reset();  // the body's memory and budget are given back (unless a parser still holds it)
            cv_space_.notify_all();
            if (parsers_held) cv_jobs_.notify_all();
        }
        out().flush();
        if (warc_) warc_->close();
    } catch (...) {
        error_ = std::current_exception();
        std::lock_guard<std::mutex> lock(mu_);
        failed_.store(true);
        queue_.clear();
        jobs_.clear();
        cv_space_.notify_all();
    }
}

}  // namespace frontier
