// fetch's result lines (lib/fetch/fetch_output.hpp): FetchStats, the result
// classes, ResultLine (the JSON line of one result, links added as they are
// found) and format_fetch_result. ResultWriter, which writes them in order
// and parses pages on the way, is in fetch_output.cpp.
#include "fetch/fetch_output.hpp"

#include <algorithm>
#include <unordered_set>

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

ResultLine::ResultLine(const FetchResult& r, uint64_t body_cap) : have_body_(r.have_body) {
    const Record& rec = r.job.rec;
    JsonWriter& w = w_;
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
    if (r.have_body) {
        std::string_view b = r.body;
        if (b.size() > body_cap) b = b.substr(0, body_cap);
        size_t room = kMaxResultLine > w.str().size() + 4096 ? kMaxResultLine - w.str().size() - 4096 : 0;
        append_json_string(body_json_, b);
        while (body_json_.size() > room) {
            b = b.substr(0, b.size() * room / body_json_.size() * 9 / 10);
            body_json_.clear();
            append_json_string(body_json_, b);
        }
    }
}

void ResultLine::begin_links() {
    w_.key("links");
    w_.begin_array();
}

bool ResultLine::add_link(const Link& l) {
    if (w_.str().size() + body_json_.size() + 4096 > kMaxResultLine) {
        links_cut_ = true;
        return false;
    }
    w_.begin_object();
    w_.field("url", l.url);
    if (l.nofollow) w_.field("nofollow", true);
    if (!l.tag.empty()) w_.field("tag", l.tag);
    if (!l.discovery.empty()) w_.field("discovery", l.discovery);
    if (l.last_modified) w_.field("last_modified", *l.last_modified);
    w_.end_object();
    return true;
}

void ResultLine::end_links(bool truncated) {
    w_.end_array();
    if (links_cut_ || truncated) w_.field("links_truncated", true);
}

std::string ResultLine::finish(const WarcLocation* warc) {
    if (have_body_) w_.field_raw("body", body_json_);
    if (warc) {
        w_.key("warc");
        w_.begin_object();
        w_.field("file", warc->file);
        w_.field("offset", warc->offset);
        w_.field("length", warc->length);
        w_.end_object();
    }
    w_.end();
    return w_.take();
}

std::string_view whole_utf8_prefix(std::string_view body) {
    size_t i = body.size(), continuation = 0;
    while (continuation < 3 && i > 0 && (static_cast<unsigned char>(body[i - 1]) & 0xC0) == 0x80) {
        --i;
        ++continuation;
    }
    if (i == 0) return body;
    auto lead = static_cast<unsigned char>(body[i - 1]);
    size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    return length > continuation + 1 ? body.substr(0, i - 1) : body;
}

std::string format_fetch_result(const FetchResult& r, const std::vector<Link>* links,
                                const WarcLocation* warc, uint64_t body_cap) {
    ResultLine line(r, body_cap);
    if (links) {
        line.begin_links();
        for (const Link& l : *links)
            if (!line.add_link(l)) break;
        line.end_links(r.links_truncated);
    }
    return line.finish(warc);
}

}  // namespace frontier
