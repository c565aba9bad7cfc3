#include "fetch_output.hpp"

#include <algorithm>

#include <csignal>
#include <cstdio>
#include <pthread.h>
#include <unordered_set>

#include "error.hpp"
#include "output.hpp"

namespace frontier {

void FetchStats::add(const std::string& cls, uint64_t bytes) {
    results_.fetch_add(1, std::memory_order_relaxed);
    bytes_.fetch_add(bytes, std::memory_order_relaxed);
    std::lock_guard<std::mutex> lock(mu_);
    ++classes_[cls];
}

uint64_t FetchStats::count(const std::string& cls) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = classes_.find(cls);
    return it == classes_.end() ? 0 : it->second;
}

std::string FetchStats::by_class() const {
    std::lock_guard<std::mutex> lock(mu_);
    std::string s;
    for (const auto& [k, v] : classes_) {
        if (!s.empty()) s += ", ";
        s += k + " " + std::to_string(v);
    }
    return s;
}

std::string result_class(const FetchResult& r) {
    if (!r.error_class.empty()) return r.error_class;
    if (r.status >= 100 && r.status < 600) return std::to_string(r.status / 100) + "xx";
    return "other";
}

namespace {

// Keys a result may set; an input key of the same name is replaced.
bool result_owned(std::string_view k) {
    static const std::unordered_set<std::string_view> owned = {
        "line",         "status",       "error_class", "error",    "fetched_at", "duration_ms",
        "ttfb_ms",      "bytes",        "content_type", "location", "retry_after", "links",
        "body",         "warc",         "etag",         "http_last_modified",      "content_hash",
        "links_truncated", "ip"};
    return owned.count(k) != 0;
}

void pass_raw(JsonWriter& w, const JsonValue& v, std::string_view key) {
    if (!v.raw.empty()) {
        w.field_raw(key, v.raw);
    } else {
        std::string tmp;
        append_json_value(tmp, v);
        w.field_raw(key, tmp);
    }
}

std::string hex64(uint64_t v) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

}  // namespace

std::string format_fetch_result(const FetchResult& r, const std::vector<Link>* links, const WarcLocation* warc,
                                uint64_t body_cap) {
    const Record& rec = r.job.rec;
    JsonWriter w;
    w.begin();
    if (r.error_class == "bad-input") w.field("line", static_cast<int64_t>(r.job.line));
    for (const JsonField& f : rec.fields)
        if (!result_owned(f.key)) pass_raw(w, f.value, f.key);
    w.field("status", static_cast<int64_t>(r.status));
    if (!r.error_class.empty()) {
        w.field("error_class", r.error_class);
        w.field("error", r.error);
    }
    if (r.duration_ms >= 0) {
        w.field("fetched_at", r.fetched_at);
        w.field("duration_ms", r.duration_ms);
        if (r.ttfb_ms >= 0) w.field("ttfb_ms", r.ttfb_ms);
        w.field("bytes", r.bytes);
    }
    if (!r.ip.empty()) w.field("ip", r.ip);
    if (!r.content_type.empty()) w.field("content_type", r.content_type);
    // Validators: the response's, else the input's (a 304 keeps the old hash).
    auto keep = [&](std::string_view key) {
        if (const JsonValue* v = rec.find(key); v && v->kind != JsonValue::Kind::null) pass_raw(w, *v, key);
    };
    if (r.content_hash && r.status != 304)
        w.field("content_hash", hex64(*r.content_hash));
    else
        keep("content_hash");
    if (!r.etag.empty())
        w.field("etag", r.etag);
    else
        keep("etag");
    if (r.http_last_modified)
        w.field("http_last_modified", *r.http_last_modified);
    else
        keep("http_last_modified");
    if (!r.location.empty()) w.field("location", r.location);
    if (r.retry_after) w.field("retry_after", *r.retry_after);
    // Readers refuse lines over 1 MiB (frontier-done would reject the
    // result and the URL would be leased again and again): the inline body
    // is cut until its JSON text fits, and links past the budget are dropped.
    std::string body_json;
    if (r.have_body) {
        std::string_view b = r.body;
        if (b.size() > body_cap) b = b.substr(0, body_cap);
        size_t room = kMaxResultLine > w.str().size() + 4096 ? kMaxResultLine - w.str().size() - 4096 : 0;
        append_json_string(body_json, b);
        while (body_json.size() > room) {
            b = b.substr(0, b.size() * room / body_json.size() * 9 / 10);
            body_json.clear();
            append_json_string(body_json, b);
        }
    }
    bool links_cut = false;
    if (links) {
        w.key("links");
        w.begin_array();
        for (const Link& l : *links) {
            if (w.str().size() + body_json.size() + 4096 > kMaxResultLine) {
                links_cut = true;
                break;
            }
            w.begin_object();
            w.field("url", l.url);
            if (l.nofollow) w.field("nofollow", true);
            if (!l.tag.empty()) w.field("tag", l.tag);
            if (!l.discovery.empty()) w.field("discovery", l.discovery);
            if (l.last_modified) w.field("last_modified", *l.last_modified);
            w.end_object();
        }
        w.end_array();
        if (links_cut || r.links_truncated) w.field("links_truncated", true);
    }
    if (r.have_body) w.field_raw("body", body_json);
    if (warc) {
        w.key("warc");
        w.begin_object();
        w.field("file", warc->file);
        w.field("offset", warc->offset);
        w.field("length", warc->length);
        w.end_object();
    }
    w.end();
    return w.str();
}

ResultWriter::ResultWriter(const FetchOptions& opt, FetchStats& stats) : opt_(opt), stats_(stats) {
    parse_threads_ = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
    if (!opt_.warc_prefix.empty())
        warc_ = std::make_unique<WarcWriter>(opt_.warc_prefix, opt_.warc_max_size, default_user_agent());
}

ResultWriter::~ResultWriter() {
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
    constexpr uint64_t kMaxBytes = 8ull << 20;
    auto item = std::make_shared<Item>();
    item->r = std::move(r);
    bool parse = wants_links(item->r) && !parsers_.empty();
    item->ready = !parse;
    std::unique_lock<std::mutex> lock(mu_);
    cv_space_.wait(lock, [&] {
        return failed_.load() || queue_.empty() || (queue_.size() < kMaxItems && queued_bytes_ < kMaxBytes);
    });
    if (failed_.load()) return false;
    queued_bytes_ += item->r.body.size();
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
    if (thread_.joinable()) {
        {
            std::lock_guard<std::mutex> lock(mu_);
            closing_ = true;
        }
        cv_items_.notify_one();
        thread_.join();
    }
    stop_parsers();
    if (error_) std::rethrow_exception(error_);
}

bool ResultWriter::wants_links(const FetchResult& r) const {
    return opt_.links && !r.job.robots && r.status >= 200 && r.status < 300 && r.error_class.empty();
}

namespace {

// The page's links, each URL once, in document order.
std::vector<Link> unique_links(const FetchResult& r, bool& truncated) {
    auto found =
        extract_links(r.body, r.content_type, r.effective_url.empty() ? r.job.url : r.effective_url, &truncated);
    std::vector<Link> links;
    std::unordered_set<std::string_view> seen;
    links.reserve(found.size());
    for (Link& l : found)
        if (seen.insert(l.url).second) links.push_back(std::move(l));
    return links;
}

}  // namespace

void ResultWriter::parse(Item& item) {
    std::optional<std::vector<Link>> links;
    std::exception_ptr error;
    bool truncated = false;
    try {
        links = unique_links(item.r, truncated);
    } catch (...) {
        error = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(mu_);
    item.links = std::move(links);
    item.r.links_truncated = truncated;
    item.error = error;
    item.ready = true;
}

void ResultWriter::parse_loop() {
    for (;;) {
        std::shared_ptr<Item> item;
        {
            std::unique_lock<std::mutex> lock(mu_);
            cv_jobs_.wait(lock, [&] { return parsers_stop_ || !jobs_.empty(); });
            if (jobs_.empty()) return;  // stopping
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
    std::optional<std::vector<Link>>& links = item.links;
    bool with_links = links.has_value();
    WarcLocation loc;
    bool with_warc = false;
    if (warc_ && r.warc && r.status > 0) {
        WarcExchange ex;
        ex.target_uri = r.effective_url.empty() ? r.job.url : r.effective_url;
        ex.ip = r.ip;
        ex.date = r.fetched_at;
        ex.request = r.request_head;
        ex.payload = r.body;
        ex.response_head = decoded_response_head(r.response_head, r.body.size());
        ex.truncated = r.truncated;
        loc = warc_->write(ex);
        with_warc = true;
    }
    uint64_t cap = r.job.robots ? 512000 : opt_.body_max;
    if (!r.job.robots && !opt_.body) r.have_body = false;
    out().write_line(format_fetch_result(r, with_links ? &*links : nullptr, with_warc ? &loc : nullptr, cap));
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
                auto front_unclaimed = [&] { return !jobs_.empty() && !queue_.empty() && jobs_.front() == queue_.front(); };
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
                    jobs_.pop_front();
                    parse_here = true;
                }
                item = std::move(queue_.front());
                queue_.pop_front();
            }
            if (parse_here) parse(*item);
            handle(*item);
            {
                std::lock_guard<std::mutex> lock(mu_);
                queued_bytes_ -= std::min<uint64_t>(queued_bytes_, item->r.body.size());
            }
            cv_space_.notify_all();
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
