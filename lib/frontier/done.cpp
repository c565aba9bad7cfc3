#include "frontier/done.hpp"
#include "policy/lease_id.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include <simdjson.h>

#include "core/ascii.hpp"
#include "core/clock.hpp"

namespace frontier {

namespace {

// Keys owned by the crawl loop; everything else passes through.
const std::initializer_list<std::string_view> kOwned = {
    "url", "lease", "result", "reason", "status", "error_class", "error", "fetched_at", "duration_ms", "ttfb_ms",
    "bytes", "content_type", "content_hash", "etag", "http_last_modified", "location", "retry_after", "links",
    "body", "warc", "queue", "priority", "depth", "attempt", "type", "discovery", "via", "expires", "robots",
    "cost", "line", "next_visit", "links_added", "links_rejected", "addresses", "user_agent", "delay"};

// Keys of the input copied to the output after the outcome, in this order.
constexpr std::string_view kKept[] = {"status",       "error_class", "error",    "fetched_at", "duration_ms",
                                      "bytes",        "content_type", "content_hash", "location", "warc",
                                      "queue",        "type",         "discovery", "via"};

constexpr double kMaxDurationMs = 7 * 86400 * 1000.0;

// An HTTP status as fetch writes it: a response's three-digit code (100 to
// 999: curl passes on any three digits, e.g. a server's 999), or 0 (no
// response) with an error_class.
bool sane_status(int64_t status, bool has_error_class) {
    return (status >= 100 && status <= 999) || (status == 0 && has_error_class);
}

struct LinkIn {
    std::string url;
    bool nofollow = false;
    std::string discovery;
    std::optional<double> last_modified;
};

// Reads `links`: an array of strings or {"url","nofollow","discovery","last_modified"} objects.
// A last_modified outside the sane window (sane_time) counts as absent.
bool read_links(const JsonValue& v, std::vector<LinkIn>& out, double now) {
    if (v.kind == JsonValue::Kind::null) return true;
    if (v.kind != JsonValue::Kind::array) return false;
    simdjson::dom::parser p;
    simdjson::dom::element doc;
    if (p.parse(v.raw).get(doc)) return false;
    simdjson::dom::array arr;
    if (doc.get_array().get(arr)) return false;
    for (auto e : arr) {
        LinkIn l;
        std::string_view s;
        if (!e.get_string().get(s)) {
            l.url = std::string(s);
        } else if (e.is_object()) {
            if (e["url"].get_string().get(s)) continue;  // an entry without url is skipped
            l.url = std::string(s);
            bool nf;
            if (!e["nofollow"].get_bool().get(nf)) l.nofollow = nf;
            if (!e["discovery"].get_string().get(s)) l.discovery = std::string(s);
            double lm;
            if (!e["last_modified"].get_double().get(lm)) l.last_modified = lm;
            else if (!e["last_modified"].get_string().get(s)) l.last_modified = parse_rfc3339(s);
            if (l.last_modified && !(std::isfinite(*l.last_modified) && sane_time(*l.last_modified, now)))
                l.last_modified.reset();
        } else {
            continue;
        }
        out.push_back(std::move(l));
    }
    return true;
}


// The output line of a rejected record: the line number, its url and lease
// when they are strings, and why.
std::string rejection_line(const InputLine& line, std::string_view reason, std::string_view field) {
    JsonWriter w;
    w.begin();
    w.field("line", static_cast<int64_t>(line.line_no));
    if (auto u = line.record.find("url"); u && u->kind == JsonValue::Kind::string) w.field("url", u->s);
    if (auto l = line.record.find("lease"); l && l->kind == JsonValue::Kind::string) w.field("lease", l->s);
    w.field("result", "rejected");
    w.field("reason", reason);
    if (!field.empty()) w.field("field", field);
    w.end();
    return w.str();
}

// The fetch's facts, links and redirect target from a result record;
// throws FieldTypeError for a value of the wrong type.
void read_facts(const Record& r, double now, FetchFacts& f, std::vector<LinkIn>& links,
                std::optional<std::string>& location) {
    f.lease = r.get_string("lease").value_or("");
    f.url = r.get_string("url").value_or("");
    if (auto st = r.get_int("status")) {
        f.has_status = true;
        f.status = *st;
    }
    f.error_class = r.get_string("error_class").value_or("");
    f.duration_ms = r.get_number("duration_ms");
    f.retry_after = r.get_number("retry_after");
    // A server's Retry-After is honoured up to one day (frontier(7), LEASES and POLITENESS); a
    // larger one would park the URL for ever, a negative one means none.
    if (f.retry_after) f.retry_after = std::clamp(*f.retry_after, 0.0, 86400.0);
    f.fetched_at = r.get_time("fetched_at");
    f.bytes = r.get_int("bytes");
    f.etag = r.get_string("etag");
    if (auto h = r.find("http_last_modified"); h && h->kind == JsonValue::Kind::string) f.http_last_modified = h->s;
    else if (h && (h->kind == JsonValue::Kind::integer || h->kind == JsonValue::Kind::number)) f.http_last_modified = h->raw;
    f.content_hash = r.get_string("content_hash");
    f.content_type = r.get_string("content_type");
    f.body = r.get_string("body");
    location = r.get_string("location");
    if (auto l = r.find("links"); l && !read_links(*l, links, now)) throw FieldTypeError{"links", "array"};
}

struct Problem {
    std::string_view reason, field;
};

// Values of the right type but impossible, or missing: the record is
// rejected like one of the wrong type, and its lease is left to expire.
Problem check_facts(const FetchFacts& f, double now) {
    if (f.has_status && !sane_status(f.status, !f.error_class.empty())) return {"bad-field", "status"};
    if (f.bytes && *f.bytes < 0) return {"bad-field", "bytes"};
    if (f.fetched_at && !sane_time(*f.fetched_at, now)) return {"bad-field", "fetched_at"};
    // A transfer time of a week or more, or a negative one, is no
    // measurement: politeness would wait on it (delay-factor x duration).
    if (f.duration_ms && !(*f.duration_ms >= 0 && *f.duration_ms < kMaxDurationMs))
        return {"bad-field", "duration_ms"};
    if (f.lease.empty() && f.url.empty()) return {"missing-lease", {}};
    if (!f.has_status && f.error_class.empty()) return {"missing-status", {}};
    return {};
}

// fetch gives absolute URLs; relative ones (hand-made records) are
// resolved against the page.
bool absolute_url(std::string_view url) { return url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0; }

// A link of the page as add_discovered takes it (its url: `url`, absolute);
// the caller sets where it was found (via, depth).
Discovered link_discovered(const LinkIn& l, std::string_view url) {
    Discovered d;
    d.url = url;
    d.discovery = l.discovery.empty() ? std::string_view("link") : std::string_view(l.discovery);
    d.last_modified = l.last_modified;
    return d;
}

void count(DoneCounts& counts, const AddResult& er) {
    if (er.status == AddStatus::added) ++counts.links_added;
    else if (er.status == AddStatus::rejected) ++counts.links_rejected;
}

// Enqueues the page's links and its redirect target (found from the page
// `o.url`, one hop deeper).
void add_links(Enqueuer& enq, const DoneOutcome& o, const std::vector<LinkIn>& links,
               const std::optional<std::string>& location, double now, DoneCounts& counts) {
    for (auto& l : links) {
        if (l.nofollow) {
            ++counts.links_rejected;
            continue;
        }
        std::string abs;
        if (!absolute_url(l.url)) abs = resolve_url(o.url, l.url).value_or(l.url);
        Discovered d = link_discovered(l, abs.empty() ? std::string_view(l.url) : std::string_view(abs));
        d.via = o.url;
        d.depth = o.depth + 1;
        count(counts, enq.add_discovered(d, now));
    }
    if (location && !location->empty()) {
        std::string abs = resolve_url(o.url, *location).value_or(*location);
        Discovered d;
        d.url = abs;
        d.via = o.url;
        d.depth = o.depth + 1;
        d.discovery = "redirect";
        count(counts, enq.add_discovered(d, now));
    }
}

// Enqueues the sitemaps a robots.txt named (depth 0).
void add_sitemaps(Enqueuer& enq, const DoneOutcome& o, double now, DoneCounts& counts) {
    for (auto& sm : o.sitemaps) {
        Discovered d;
        d.url = sm;
        d.via = o.url;
        d.depth = 0;
        d.discovery = "sitemap";
        d.type = "sitemap";
        count(counts, enq.add_discovered(d, now));
    }
}

// The output line of a result applied: the outcome, then what the fetch
// found and where the URL came from, kept beside the outcome so that the
// output is the crawl's record (frontier-done(1), OUTPUT): the result's
// values, the depth from the frontier.
std::string result_line(const DoneOutcome& o, const FetchFacts& f, const Record& r, const DoneCounts& counts) {
    JsonWriter w;
    w.begin();
    w.field("url", o.url);
    if (!f.lease.empty()) w.field("lease", f.lease);
    if (o.robots) w.field("robots", true);
    w.field("result", o.result);
    if (!o.reason.empty()) w.field("reason", o.reason);
    if (o.next_visit) w.field("next_visit", *o.next_visit);
    w.field("links_added", counts.links_added);
    w.field("links_rejected", counts.links_rejected);
    if (!o.robots && o.result != "stale") w.field("depth", o.depth);
    for (std::string_view k : kKept)
        if (const JsonValue* v = r.find(k)) w.field(k, *v);
    w.pass_through(r, kOwned);
    w.end();
    return w.str();
}

}  // namespace

std::string DoneTally::text() const {
    return std::to_string(done) + (cached ? " done (" + std::to_string(cached) + " from cache), " : " done, ") +
           std::to_string(retry) + " retry, " + std::to_string(failed) +
           " failed, " + std::to_string(blocked) + " blocked, " + std::to_string(stale) + " stale, " +
           std::to_string(rejected) + " rejected; links: " + std::to_string(links_added) + " added, " +
           std::to_string(links_rejected) + " rejected";
}

void DoneProcessor::tally_result(std::string_view result, const DoneCounts& links) {
    ++tally_.results;
    if (result == "done") ++tally_.done;
    else if (result == "cached") ++tally_.done, ++tally_.cached;
    else if (result == "retry") ++tally_.retry;
    else if (result == "failed") ++tally_.failed;
    else if (result == "blocked") ++tally_.blocked;
    else if (result == "stale") ++tally_.stale;
    else ++tally_.rejected;
    tally_.links_added += links.links_added;
    tally_.links_rejected += links.links_rejected;
}

namespace {
// The record's URL lease id (a string not of a robots.txt lease, "r..."), or none.
const JsonValue* url_lease(const Record& r) {
    const JsonValue* l = r.find("lease");
    return l && l->kind == JsonValue::Kind::string && !l->s.empty() && l->s[0] != 'r' ? l : nullptr;
}
}  // namespace

void DoneProcessor::prefetch(const InputLine* lines, size_t n) {
    std::vector<int64_t> ids;
    for (size_t i = 0; i < n; ++i) {
        if (!lines[i].error.empty()) continue;
        const JsonValue* l = url_lease(lines[i].record);
        if (!l) continue;
        int64_t id, seq;
        if (parse_lease(l->s, id, seq) == LeaseId::ok) ids.push_back(id);
    }
    store_.prefetch_leases(ids);
    if (store_.records_read_together() > 1) prefetch_links(lines, n);
}

// Where each read is a round trip: the stored rows of the batch's
// absolute plain links not known to be in the frontier, with the ids of
// their queues and hosts and whether their domains are seed domains, in
// one read (after the leases' partitions are locked), so that adding them
// reads nothing more but for the rows it makes.
void DoneProcessor::prefetch_links(const InputLine* lines, size_t n) {
    std::vector<uint64_t> fps;
    std::unordered_set<uint64_t> asked;
    LinkRows rows;
    std::vector<LinkIn> links;
    for (size_t i = 0; i < n; ++i) {
        if (!lines[i].error.empty() || !url_lease(lines[i].record)) continue;
        const JsonValue* v = lines[i].record.find("links");
        links.clear();
        if (!v || v->kind != JsonValue::Kind::array || !read_links(*v, links, now())) continue;
        for (const LinkIn& l : links) {
            if (l.nofollow || !absolute_url(l.url)) continue;
            const Discovered d = link_discovered(l, l.url);
            if (d.discovery != "link" || enqueuer_.known(d)) continue;
            std::optional<Enqueuer::Target> t = enqueuer_.target_of(d);
            if (!t || !asked.insert(t->fp).second) continue;
            fps.push_back(t->fp);
            rows.queue_keys.push_back(std::move(t->queue_key));
            rows.host_keys.push_back(std::move(t->host_key));
            rows.domains.push_back(std::move(t->domain));
        }
    }
    if (!fps.empty()) store_.prefetch_links(fps, rows);
}

namespace {

// Does each of these lines only end the URL lease it names (or is it a line
// to reject), its links, if any, passing `links_ok`, or end a robots.txt
// lease that `robots_ok` takes (without links)?
template <typename LinksOk, typename RobotsOk>
bool ends_leases(const InputLine* lines, size_t n, LinksOk links_ok, RobotsOk robots_ok) {
    for (size_t i = 0; i < n; ++i) {
        if (!lines[i].error.empty()) continue;
        const Record& r = lines[i].record;
        if (r.find("location")) return false;
        const JsonValue* links = r.find("links");
        const bool no_links =
            !links || links->kind == JsonValue::Kind::null ||
            (links->kind == JsonValue::Kind::array && links->raw.find_first_not_of("[] \t\r\n") == std::string::npos);
        if (!url_lease(r)) {
            if (no_links && robots_ok(r)) continue;
            return false;
        }
        if (r.find("robots")) return false;
        if (!no_links && !links_ok(*links)) return false;
    }
    return true;
}

// A robots.txt result whose body names no sitemap (which would add URLs):
// the host of its lease ("r<host>-<seq>"), or none.
std::optional<int64_t> robots_host(const Record& r) {
    const JsonValue* l = r.find("lease");
    if (!l || l->kind != JsonValue::Kind::string || l->s.size() < 2 || l->s[0] != 'r') return std::nullopt;
    if (const JsonValue* b = r.find("body"); b && b->kind == JsonValue::Kind::string) {
        constexpr std::string_view kSitemap = "sitemap";
        auto same = [](char a, char b) { return ascii_lower(a) == b; };
        if (std::search(b->s.begin(), b->s.end(), kSitemap.begin(), kSitemap.end(), same) != b->s.end())
            return std::nullopt;
    }
    int64_t host, seq;
    if (parse_lease(std::string_view(l->s).substr(1), host, seq) != LeaseId::ok) return std::nullopt;
    return host;
}

}  // namespace

bool DoneProcessor::only_ends_leases(const InputLine* lines, size_t n) {
    return ends_leases(lines, n, [](const JsonValue&) { return false; }, [](const Record&) { return false; });
}

bool DoneProcessor::runs_in_partitions(const InputLine* lines, size_t n, double now, BatchLocks* locks) {
    const bool new_links = locks && store_.settings().max_queued < 0;
    std::unordered_set<std::string> asked;
    auto robots_ok = [&](const Record& r) {
        std::optional<int64_t> host = locks ? robots_host(r) : std::nullopt;
        if (host) locks->robots_hosts.push_back(*host);
        return host.has_value();
    };
    return ends_leases(lines, n, [&](const JsonValue& v) {
        std::vector<LinkIn> links;
        if (!read_links(v, links, now)) return false;
        for (const LinkIn& l : links) {
            if (l.nofollow) continue;  // counted, never added
            // A relative link resolves against the row's URL, read later.
            if (!absolute_url(l.url)) return false;
            const Discovered d = link_discovered(l, l.url);
            if (enqueuer_.known(d)) continue;
            // A plain link to a stored URL changes nothing of it (readd):
            // a new one writes its queue's rows, and its host's.
            if (!new_links || d.discovery != "link" || d.last_modified) return false;
            std::optional<Enqueuer::Target> t = enqueuer_.target_of(d);
            if (!t || asked.count(t->queue_key)) continue;
            if (asked.size() >= kMaxLinkQueues) return false;
            asked.insert(t->queue_key);
            locks->link_queues.push_back(std::move(t->queue_key));
        }
        return true;
    }, robots_ok);
}

std::string DoneProcessor::process(const InputLine& line, double now, bool& rejected) {
    rejected = false;
    auto reject = [&](std::string_view reason, std::string_view field = {}) {
        rejected = true;
        tally_result("rejected", {});
        return rejection_line(line, reason, field);
    };
    if (!line.error.empty()) return reject(line.error);
    const Record& r = line.record;
    FetchFacts f;
    std::vector<LinkIn> links;
    std::optional<std::string> location;
    try {
        read_facts(r, now, f, links, location);
    } catch (const FieldTypeError& e) {
        return reject("bad-field", e.key);
    }
    if (Problem p = check_facts(f, now); !p.reason.empty()) return reject(p.reason, p.field);

    DoneOutcome o = store_.finish(f, now);
    if (o.result == "rejected") return reject(o.reason);
    DoneCounts counts;
    if (o.follow_links) add_links(enqueuer_, o, links, location, now, counts);
    add_sitemaps(enqueuer_, o, now, counts);
    tally_result(o.result, counts);
    return result_line(o, f, r, counts);
}

}  // namespace frontier
