#include "enqueue.hpp"

#include <cmath>
#include <regex>

#include "priority.hpp"

namespace frontier {

struct Enqueuer::Fields {
    std::string url;
    std::optional<double> priority;
    std::string type;
    int64_t depth = 0;
    std::string via;
    std::string discovery;
    std::optional<int64_t> cost;
    bool recrawl = false;
    std::optional<double> last_modified;
    bool visit_now = false;
    double bias = 0;
    std::vector<std::pair<std::string, double>> bonuses;
    std::optional<double> estimated_cost_ms;
    std::string meta;  // raw JSON
    std::vector<std::string> meta_strings;
};

EnqueueResult Enqueuer::add(const Record& rec, double now) {
    EnqueueResult res;
    Fields f;
    try {
        auto url = rec.get_string("url");
        if (!url) {
            res.reason = rec.has("url") ? "bad-url" : "missing-url";
            return res;
        }
        f.url = *url;
        f.priority = rec.get_number("priority");
        f.type = rec.get_string("type").value_or("");
        f.depth = rec.get_int("depth").value_or(0);
        if (f.depth < 0) throw FieldTypeError{"depth", "integer >= 0"};
        f.via = rec.get_string("via").value_or("");
        f.discovery = rec.get_string("discovery").value_or("");
        f.cost = rec.get_int("cost");
        // Bounded, so that budgets (int64 sums of costs) never overflow.
        if (f.cost && (*f.cost < 0 || *f.cost > 1000000000)) throw FieldTypeError{"cost", "integer 0..1000000000"};
        f.recrawl = rec.get_bool("recrawl").value_or(false);
        f.last_modified = rec.get_time("last_modified");
        f.visit_now = rec.get_bool("visit_now").value_or(false);
        f.bias = rec.get_number("bias").value_or(0);
        f.estimated_cost_ms = rec.get_number("estimated_cost_ms");
        if (const JsonValue* b = rec.find("bonuses"); b && b->kind != JsonValue::Kind::null) {
            if (b->kind != JsonValue::Kind::object) throw FieldTypeError{"bonuses", "object of numbers"};
            Record inner;
            parse_record(b->raw, inner);
            for (auto& fld : inner.fields) {
                if (fld.value.kind != JsonValue::Kind::integer && fld.value.kind != JsonValue::Kind::number)
                    throw FieldTypeError{"bonuses", "object of numbers"};
                f.bonuses.emplace_back(fld.key, fld.value.d);
            }
        }
        if (const JsonValue* mv = rec.find("meta"); mv && mv->kind != JsonValue::Kind::null) {
            f.meta = mv->raw;
            if (mv->kind == JsonValue::Kind::object) {
                Record inner;
                parse_record(mv->raw, inner);
                for (auto& fld : inner.fields)
                    if (fld.value.kind == JsonValue::Kind::string) f.meta_strings.push_back(fld.value.s);
            } else if (mv->kind == JsonValue::Kind::string) {
                f.meta_strings.push_back(mv->s);
            }
        }
    } catch (const FieldTypeError& e) {
        res.reason = "bad-field";
        res.field = e.key;
        return res;
    }
    if (f.priority && !std::isfinite(*f.priority)) {
        res.reason = "bad-field";
        res.field = "priority";
        return res;
    }
    return add_fields(f, now);
}

EnqueueResult Enqueuer::add_discovered(const Discovered& d, double now) {
    Fields f;
    f.url = std::string(d.url);
    f.via = std::string(d.via);
    f.depth = d.depth;
    f.discovery = std::string(d.discovery);
    f.type = std::string(d.type);
    f.last_modified = d.last_modified;
    return add_fields(f, now);
}

EnqueueResult Enqueuer::add_fields(const Fields& f, double now) {
    EnqueueResult res;
    const Settings& s = store_.settings();
    CanonResult c = canonicalize_url(f.url, s.canon);
    if (!c.ok) {
        res.reason = c.reason;
        return res;
    }
    // Longer URLs are refused before any regular expression sees them:
    // std::regex recurses per character (a 16 KiB URL against "(a|b)*c"
    // overflowed the stack) and slows down quadratically. 2083 is Heritrix's
    // limit (and Internet Explorer's).
    if (c.url.url.size() > kMaxUrlBytes) {
        res.reason = "url-too-long";
        return res;
    }
    res.url = c.url.url;
    // Scope: include / exclude expressions on the canonical URL.
    if (!s.include.empty()) {
        bool any = false;
        for (auto& re : s.include)
            if (std::regex_search(c.url.url, re)) {
                any = true;
                break;
            }
        if (!any) {
            res.reason = "out-of-scope";
            return res;
        }
    }
    for (auto& re : s.exclude)
        if (std::regex_search(c.url.url, re)) {
            res.reason = "out-of-scope";
            return res;
        }
    bool seed = f.discovery.empty() || f.discovery == "seed";
    // Registered domains per host are cached: a crawl has few hosts and many URLs.
    auto dom_it = domains_.find(c.url.host);
    if (dom_it == domains_.end()) {
        if (domains_.size() > 20000) domains_.clear();
        dom_it = domains_.emplace(c.url.host, registered_domain(c.url.host)).first;
    }
    const std::string& domain = dom_it->second;
    if (!seed && s.seed_domains && !store_.is_seed_domain(domain)) {
        res.reason = "out-of-scope";
        return res;
    }
    if (s.max_depth >= 0 && f.depth > s.max_depth) {
        bool bypass = false;
        for (auto& t : s.depth_bypass_types)
            if (t == f.type) bypass = true;
        if (!bypass) {
            res.reason = "max-depth";
            return res;
        }
    }
    AddRequest r;
    r.queue_key = queue_key(c.url, s.queue_key);
    r.host_key = c.url.scheme + "://" + c.url.authority();
    r.fp = url_fingerprint(c.url.url);
    if (f.priority) {
        r.priority = *f.priority;
        r.priority_given = true;
    } else {
        PriorityInput in;
        in.url = &c.url;
        in.type = f.type;
        in.depth = f.depth;
        in.discovery = f.discovery;
        in.bias = f.bias;
        in.bonuses = f.bonuses;
        in.estimated_cost_ms = f.estimated_cost_ms;
        in.meta_strings = f.meta_strings;
        r.priority = compute_priority(s, in);
        // Huge bias, bonuses or weights can overflow to inf or NaN (which
        // the store cannot rank): a rejection, not a stopped run.
        if (!std::isfinite(r.priority)) {
            res.reason = "bad-priority";
            return res;
        }
    }
    r.cost = f.cost ? *f.cost : compute_cost(s, c.url, f.via);
    r.depth = f.depth;
    r.type = f.type;
    r.discovery = f.discovery;
    r.via = f.via;
    r.meta = f.meta;
    r.recrawl = f.recrawl;
    if (!r.recrawl && !f.type.empty())
        for (auto& t : s.recrawl_types)
            if (t == f.type) r.recrawl = true;
    r.last_modified = f.last_modified;
    r.visit_now = f.visit_now;
    r.now = now;
    res.queue = r.queue_key;
    res.priority = r.priority;
    res.cost = r.cost;
    r.url = std::move(c.url);
    AddResult ar = store_.add_url(r);
    res.status = ar.status;
    res.reason = ar.reason;
    if (res.status != AddStatus::rejected && seed) store_.add_seed_domain(domain);
    return res;
}

}  // namespace frontier
