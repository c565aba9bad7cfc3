#include "frontier/enqueue.hpp"

#include <cmath>

#include "core/clock.hpp"
#include "policy/priority.hpp"

namespace frontier {


bool Enqueuer::read_fields(const Record& rec, EnqueueFields& f, EnqueueResult& res) {
    try {
        auto url = rec.get_string("url");
        if (!url) {
            res.reason = rec.has("url") ? "bad-url" : "missing-url";
            return false;
        }
        f.url = *url;
        f.priority = rec.get_number("priority");
        f.type = rec.get_string("type").value_or("");
        std::optional<int64_t> depth = rec.get_int("depth");
        f.depth = depth.value_or(0);
        f.depth_given = depth.has_value();
        if (f.depth < 0) throw FieldTypeError{"depth", "integer >= 0"};
        f.via = rec.get_string("via").value_or("");
        f.discovery = rec.get_string("discovery").value_or("");
        f.cost = rec.get_int("cost");
        // Bounded, so that budgets (int64 sums of costs) never overflow.
        if (f.cost && (*f.cost < 0 || *f.cost > 1000000000)) throw FieldTypeError{"cost", "integer 0..1000000000"};
        f.recrawl = rec.get_bool("recrawl").value_or(false);
        f.last_modified = rec.get_time("last_modified");
        f.visit_now = rec.get_bool("visit_now").value_or(false);
        f.fork = rec.get_bool("fork");
        f.bias = rec.get_number("bias").value_or(0);
        f.estimated_cost_ms = rec.get_number("estimated_cost_ms");
        if (const JsonValue* g = rec.find("gap_prediction"); g && g->kind != JsonValue::Kind::null) {
            Record inner;
            if (g->kind != JsonValue::Kind::object || !parse_record(g->raw, inner))
                throw FieldTypeError{"gap_prediction", "object {confidence_score, expected_coverage_lift}"};
            std::optional<double> c, l;
            try {
                c = inner.get_number("confidence_score");
                l = inner.get_number("expected_coverage_lift");
            } catch (const FieldTypeError&) {
                throw FieldTypeError{"gap_prediction", "object {confidence_score, expected_coverage_lift}"};
            }
            if (!c || !l || !std::isfinite(*c) || !std::isfinite(*l))
                throw FieldTypeError{"gap_prediction", "object {confidence_score, expected_coverage_lift}"};
            f.gap_prediction = std::make_pair(*c, *l);
        }
        f.cluster_count = rec.get_number("cluster_count");
        if (f.cluster_count && !(*f.cluster_count >= 0 && std::isfinite(*f.cluster_count)))
            throw FieldTypeError{"cluster_count", "number >= 0"};
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
        return false;
    }
    if (f.priority && !std::isfinite(*f.priority)) {
        res.reason = "bad-field";
        res.field = "priority";
        return false;
    }
    return true;
}

EnqueueResult Enqueuer::add(const Record& rec, double now) {
    EnqueueResult res;
    EnqueueFields f;
    if (!read_fields(rec, f, res)) return res;
    if (f.last_modified && !sane_time(*f.last_modified, now)) {
        res.reason = "bad-field";
        res.field = "last_modified";
        return res;
    }
    PreparedUrl p = prepare(f, store_.settings());
    return finish(p, now);
}

bool Enqueuer::known_present(const Discovered& d) {
    if (d.discovery != "link" || !d.type.empty() || d.last_modified) return false;
    store_.settings();  // loaded, so that its generation is current
    if (store_.settings_generation() != present_settings_ || store_.rollbacks() != present_rollbacks_) {
        present_.clear();
        present_bytes_ = 0;
        present_settings_ = store_.settings_generation();
        present_rollbacks_ = store_.rollbacks();
        return false;
    }
    return present_.find(std::string(d.url)) != present_.end();
}

void Enqueuer::remember_present(const Discovered& d, const EnqueueResult& r) {
    if (r.status == AddStatus::rejected || d.discovery != "link" || !d.type.empty() || d.last_modified) return;
    if (present_bytes_ + d.url.size() > kMaxPresentBytes) {
        present_.clear();
        present_bytes_ = 0;
    }
    if (present_.emplace(d.url).second) present_bytes_ += d.url.size() + 48;
}

bool Enqueuer::past_max_depth(const Settings& s, int64_t depth, std::string_view type) {
    if (s.max_depth < 0 || depth <= s.max_depth) return false;
    for (auto& t : s.depth_bypass_types)
        if (t == type) return false;
    return true;
}

EnqueueResult Enqueuer::add_discovered(const Discovered& d, double now) {
    if (known_present(d)) {
        // What the full path gives a known URL: past max-depth is checked
        // before the store; otherwise a plain link to it changes nothing.
        EnqueueResult r;
        if (past_max_depth(store_.settings(), d.depth, d.type)) {
            r.reason = "max-depth";
        } else {
            r.status = AddStatus::duplicate;
            r.url = std::string(d.url);
        }
        return r;
    }
    EnqueueResult r = add_discovered_uncached(d, now);
    remember_present(d, r);
    return r;
}

EnqueueResult Enqueuer::add_discovered_uncached(const Discovered& d, double now) {
    EnqueueFields f;
    f.url = std::string(d.url);
    f.via = std::string(d.via);
    f.depth = d.depth;
    f.discovery = std::string(d.discovery);
    f.type = std::string(d.type);
    f.last_modified = d.last_modified;
    PreparedUrl p = prepare(f, store_.settings());
    return finish(p, now);
}

namespace {

// Scope: include / exclude expressions on the canonical URL. Whether `url`
// is in scope.
bool in_scope(const Settings& s, const std::string& url) {
    if (!s.include.empty()) {
        bool any = false;
        for (auto& re : s.include)
            if (re.search(url)) {
                any = true;
                break;
            }
        if (!any) return false;
    }
    for (auto& re : s.exclude)
        if (re.search(url)) return false;
    return true;
}

// The priority of `url` into `r` (the record's own, or computed) and how it
// came about into `res`; false when it is not a finite number.
bool score(const EnqueueFields& f, const Settings& s, const Url& url, AddRequest& r, EnqueueResult& res) {
    if (f.priority) {
        r.priority = *f.priority;
        r.priority_given = true;
        return true;
    }
    PriorityInput in;
    in.url = &url;
    in.type = f.type;
    in.depth = f.depth_given ? std::optional<int64_t>(f.depth) : std::nullopt;
    in.discovery = f.discovery;
    in.bias = f.bias;
    in.bonuses = f.bonuses;
    in.estimated_cost_ms = f.estimated_cost_ms;
    in.meta_strings = f.meta_strings;
    in.gap_prediction = f.gap_prediction;
    in.cluster_count = f.cluster_count;
    PriorityResult pr = compute_priority_detail(s, in);
    r.priority = pr.priority;
    res.priority_source = pr.source;
    res.bonus_applied = pr.bonus_applied;
    // Huge bias, bonuses or weights can overflow to inf or NaN (which
    // the store cannot rank): a rejection, not a stopped run.
    return std::isfinite(r.priority);
}

// The rest of the row from the record: cost, depth, provenance, revisits.
void fill_request(const EnqueueFields& f, const Settings& s, const Url& url, AddRequest& r) {
    r.cost = f.cost ? *f.cost : compute_cost(s, url, f.via);
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
    r.fork = f.fork;
}

}  // namespace

PreparedUrl Enqueuer::prepare(const EnqueueFields& f, const Settings& s) {
    PreparedUrl p;
    EnqueueResult& res = p.res;
    CanonResult c = canonicalize_url(f.url, s.canon);
    if (!c.ok) {
        res.reason = c.reason;
        return p;
    }
    // Longer URLs are refused before any regular expression sees them (the
    // scope expressions are RE2, linear in the URL's length, but a URL this
    // long is not one a crawl wants). 2083 is Heritrix's limit (and Internet
    // Explorer's).
    if (c.url.url.size() > kMaxUrlBytes) {
        res.reason = "url-too-long";
        return p;
    }
    res.url = c.url.url;
    if (!in_scope(s, c.url.url)) {
        res.reason = "out-of-scope";
        return p;
    }
    p.ok = true;
    p.seed = f.discovery.empty() || f.discovery == "seed";
    // Registered domains per host are cached: a crawl has few hosts and many URLs.
    auto dom_it = domains_.find(c.url.host);
    if (dom_it == domains_.end()) {
        if (domains_.size() > 20000) domains_.clear();
        dom_it = domains_.emplace(c.url.host, registered_domain(c.url.host)).first;
    }
    p.domain = dom_it->second;
    if (past_max_depth(s, f.depth, f.type)) {
        p.late_reason = "max-depth";
        return p;
    }
    AddRequest& r = p.req;
    r.queue_key = queue_key(c.url, s.queue_key);
    r.host_key = c.url.scheme + "://" + c.url.authority();
    r.fp = url_fingerprint(c.url.url);
    if (!score(f, s, c.url, r, res)) {
        p.late_reason = "bad-priority";
        return p;
    }
    fill_request(f, s, c.url, r);
    res.queue = r.queue_key;
    res.priority = r.priority;
    res.cost = r.cost;
    r.url = std::move(c.url);
    return p;
}

EnqueueResult Enqueuer::finish(PreparedUrl& p, double now) {
    EnqueueResult& res = p.res;
    if (!p.ok) return res;
    // Seed domains grow as seeds are added, so this check is made here, in
    // input order, and not in prepare().
    if (!p.seed && store_.settings().seed_domains && !store_.is_seed_domain(p.domain)) {
        res.reason = "out-of-scope";
        return res;
    }
    if (!p.late_reason.empty()) {
        res.reason = p.late_reason;
        return res;
    }
    p.req.now = now;
    AddResult ar = store_.add_url(p.req);
    res.status = ar.status;
    res.reason = ar.reason;
    if (res.status != AddStatus::rejected && p.seed) {
        store_.add_seed_domain(p.domain);
        store_.add_seed_host(p.req.host_key);
    }
    return res;
}

}  // namespace frontier
