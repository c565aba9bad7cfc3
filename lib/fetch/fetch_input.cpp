#include "fetch/fetch_input.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <chrono>

#include "core/http_date.hpp"
#include "net/address_guard.hpp"
#include "web/robots.hpp"

namespace frontier {

std::optional<std::string> url_host_key(std::string_view url) {
    size_t colon = url.find("://");
    if (colon == std::string_view::npos) return std::nullopt;
    std::string scheme;
    for (char c : url.substr(0, colon)) scheme.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    if (scheme != "http" && scheme != "https") return std::nullopt;
    std::string_view rest = url.substr(colon + 3);
    size_t end = rest.find_first_of("/?#");
    std::string_view auth = rest.substr(0, end);
    if (size_t at = auth.rfind('@'); at != std::string_view::npos) auth = auth.substr(at + 1);
    std::string key;
    for (char c : auth) {
        if (static_cast<unsigned char>(c) <= ' ') return std::nullopt;
        key.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
    // Drop the scheme's default port (IPv6 literals keep their brackets).
    size_t close = key.rfind(']');
    size_t pc = key.rfind(':');
    if (pc != std::string::npos && (close == std::string::npos || pc > close)) {
        std::string port = key.substr(pc + 1);
        if (port.empty() || (scheme == "http" && port == "80") || (scheme == "https" && port == "443"))
            key.resize(pc);
    }
    if (key.empty() || key[0] == ':') return std::nullopt;
    return key;
}

FetchJob make_fetch_job(InputLine&& line) {
    FetchJob job;
    job.line = line.line_no;
    job.rec = std::move(line.record);
    if (!line.error.empty()) {
        job.bad = line.error;
        return job;
    }
    try {
        auto url = job.rec.get_string("url");
        if (!url || url->empty()) {
            job.bad = "missing url";
            return job;
        }
        auto host = url_host_key(*url);
        if (!host) {
            job.bad = "invalid url (not an absolute http or https URL)";
            return job;
        }
        job.url = std::move(*url);
        job.host = std::move(*host);
        job.robots = job.rec.get_bool("robots").value_or(false);
        job.etag = job.rec.get_string("etag").value_or("");
        if (auto ua = job.rec.get_string("user_agent")) {
            if (ua->empty() || ua->size() > 64 || product_token(*ua) != *ua) {
                job.bad = "user_agent is not a crawler name (1 to 64 of A-Z a-z _ -)";
                return job;
            }
            job.user_agent = std::move(*ua);
        }
        if (job.rec.find("delay")) {
            std::optional<double> d = job.rec.get_number("delay");
            if (!d || *d < 0 || *d > 86400) {
                job.bad = "delay is not a number of seconds from 0 to 86400";
                return job;
            }
            job.delay = d;
        }
        if (auto kinds = job.rec.get_string("addresses")) {
            auto mask = parse_address_kinds(*kinds);
            if (!mask) {
                job.bad = "addresses is not a list of address kinds (public, loopback, private, special, link-local)";
                return job;
            }
            job.addresses = *mask;
        }
        (void)job.rec.get_string("content_hash");
        if (const JsonValue* lm = job.rec.find("http_last_modified")) {
            if (lm->kind == JsonValue::Kind::integer || lm->kind == JsonValue::Kind::number) {
                job.if_modified_since = lm->d;
            } else if (lm->kind == JsonValue::Kind::string) {
                job.if_modified_since = parse_http_date(lm->s);
                if (!job.if_modified_since) job.if_modified_since = parse_rfc3339(lm->s);
                if (!job.if_modified_since) {  // epoch seconds as text ("1799990000")
                    char* end = nullptr;
                    double v = std::strtod(lm->s.c_str(), &end);
                    if (!lm->s.empty() && end && *end == '\0' && std::isfinite(v) && v > 0 &&
                        lm->s.find_first_not_of("0123456789.") == std::string::npos)
                        job.if_modified_since = v;
                }
                if (!job.if_modified_since && !lm->s.empty()) job.bad = "http_last_modified is not a date";
            } else if (lm->kind != JsonValue::Kind::null) {
                job.bad = "http_last_modified is not a date";
            }
        }
    } catch (const FieldTypeError& e) {
        job.bad = e.key + " is not a " + e.expected;
    }
    return job;
}

struct InputFeeder::Shared {
    std::vector<std::string> paths;
    size_t capacity;
    std::function<void()> wake;
    std::mutex mu;
    std::condition_variable space;
    std::condition_variable ended;  // done became true
    std::deque<FetchJob> queue;
    bool done = false;
    bool stop = false;
    std::exception_ptr error;
};

InputFeeder::InputFeeder(std::vector<std::string> paths, size_t capacity, std::function<void()> wake)
    : s_(std::make_shared<Shared>()) {
    s_->paths = std::move(paths);
    s_->capacity = capacity ? capacity : 1;
    s_->wake = std::move(wake);
}

InputFeeder::~InputFeeder() { stop(); }

void InputFeeder::start() {
    std::shared_ptr<Shared> s = s_;
    thread_ = std::thread([s] {
        auto stopped = [&] {
            std::lock_guard<std::mutex> lock(s->mu);
            return s->stop;
        };
        try {
            LineReader reader(s->paths);
            InputLine line;
            // stop() is looked at before every line, so that once told to
            // stop the thread ends within one line (unless blocked reading).
            while (!stopped() && reader.next(line)) {
                FetchJob job = make_fetch_job(std::move(line));
                line = InputLine();
                std::unique_lock<std::mutex> lock(s->mu);
                s->space.wait(lock, [&] { return s->stop || s->queue.size() < s->capacity; });
                if (s->stop) break;
                bool was_empty = s->queue.empty();
                s->queue.push_back(std::move(job));
                if (was_empty) s->wake();  // under the lock: never after stop()
            }
        } catch (...) {
            std::lock_guard<std::mutex> lock(s->mu);
            s->error = std::current_exception();
        }
        std::lock_guard<std::mutex> lock(s->mu);
        s->done = true;
        s->ended.notify_all();
        if (!s->stop) s->wake();
    });
}

size_t InputFeeder::take(std::deque<FetchJob>& out, size_t max) {
    std::lock_guard<std::mutex> lock(s_->mu);
    size_t n = 0;
    while (n < max && !s_->queue.empty()) {
        out.push_back(std::move(s_->queue.front()));
        s_->queue.pop_front();
        ++n;
    }
    if (n) s_->space.notify_one();
    return n;
}

bool InputFeeder::finished() {
    std::lock_guard<std::mutex> lock(s_->mu);
    return s_->done && s_->queue.empty();
}

void InputFeeder::stop() {
    if (!thread_.joinable()) return;
    bool done;
    {
        std::unique_lock<std::mutex> lock(s_->mu);
        s_->stop = true;
        s_->space.notify_all();
        // A reader that is not blocked on input ends within a line: wait for
        // it, so that it never decodes a line while the process exits (it
        // would call into simdjson's already destroyed dispatch objects).
        done = s_->ended.wait_for(lock, std::chrono::milliseconds(500), [&] { return s_->done; });
    }
    if (done)
        thread_.join();
    else
        thread_.detach();
}

void InputFeeder::rethrow_error() {
    std::exception_ptr e;
    {
        std::lock_guard<std::mutex> lock(s_->mu);
        e = s_->error;
    }
    if (e) std::rethrow_exception(e);
}

}  // namespace frontier
