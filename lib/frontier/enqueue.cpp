#include "frontier/enqueue.hpp"

#include <cmath>

#include "core/clock.hpp"
#include "policy/priority.hpp"

namespace frontier {

namespace {

// A record's gap_prediction: {confidence_score, expected_coverage_lift},
// both finite numbers. Throws FieldTypeError otherwise.
std::pair<double, double> read_gap_prediction(const JsonValue& g) {
    const FieldTypeError bad{"gap_prediction", "object {confidence_score, expected_coverage_lift}"};
    Record inner;
    if (g.kind != JsonValue::Kind::object || !parse_record(g.raw, inner)) throw bad;
    std::optional<double> c, l;
    try {
        c = inner.get_number("confidence_score");
        l = inner.get_number("expected_coverage_lift");
    } catch (const FieldTypeError&) {
        throw bad;
    }
    if (!c || !l || !std::isfinite(*c) || !std::isfinite(*l)) throw bad;
    return {*c, *l};
}

}  // namespace

bool Enqueuer::read_fields(const Record& rec, EnqueueResult& e, double now) {
    UrlRecord& f = e.req.record;
    try {
        auto url = rec.get_string("url");
        if (!url) {
            e.outcome.reason = rec.has("url") ? AddReason::bad_url : AddReason::missing_url;
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
        if (const JsonValue* g = rec.find("gap_prediction"); g && g->kind != JsonValue::Kind::null)
            f.gap_prediction = read_gap_prediction(*g);
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
    } catch (const FieldTypeError& err) {
        e.outcome.reason = AddReason::bad_field;
        e.field = err.key;
        return false;
    }
    if (f.priority && !std::isfinite(*f.priority)) {
        e.outcome.reason = AddReason::bad_field;
        e.field = "priority";
        return false;
    }
    if (f.last_modified && !sane_time(*f.last_modified, now)) {
        e.outcome.reason = AddReason::bad_field;
        e.field = "last_modified";
        return false;
    }
    return true;
}

EnqueueResult Enqueuer::add(const Record& rec, double now) {
    EnqueueResult e;
    if (!read_fields(rec, e, now)) return e;
    prepare(e, store_.settings());
    finish(e, now);
    return e;
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

void Enqueuer::remember_present(const Discovered& d, const AddResult& r) {
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

AddResult Enqueuer::add_discovered(const Discovered& d, double now) {
    if (known_present(d)) {
        // What the full path gives a known URL: past max-depth is checked
        // before the store; otherwise a plain link to it changes nothing.
        if (past_max_depth(store_.settings(), d.depth, d.type)) return {AddStatus::rejected, AddReason::max_depth};
        return {AddStatus::duplicate, AddReason::none};
    }
    AddResult r = add_discovered_uncached(d, now);
    remember_present(d, r);
    return r;
}

namespace {
EnqueueResult discovered_record(const Discovered& d) {
    EnqueueResult e;
    UrlRecord& f = e.req.record;
    f.url = d.url;
    f.via = d.via;
    f.depth = d.depth;
    f.discovery = d.discovery;
    f.type = d.type;
    f.last_modified = d.last_modified;
    return e;
}
}  // namespace

AddResult Enqueuer::add_discovered_uncached(const Discovered& d, double now) {
    EnqueueResult e = discovered_record(d);
    prepare(e, store_.settings());
    finish(e, now);
    return e.outcome;
}

std::optional<Enqueuer::Target> Enqueuer::target_of(const Discovered& d) {
    EnqueueResult e = discovered_record(d);
    e.req.record.depth = 0;  // scope.max-depth rejects it before the store, if at all
    prepare(e, store_.settings());
    if (!e.scoped || e.outcome.reason != AddReason::none) return std::nullopt;
    return Target{std::move(e.req.queue_key), std::move(e.req.host_key), std::move(e.domain), e.req.fp};
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

// The request's priority (the record's own, or computed) and how it came
// about; false when it is not a finite number.
bool score(const Settings& s, EnqueueResult& e) {
    AddRequest& r = e.req;
    if (r.record.priority) {
        r.priority = *r.record.priority;
        return true;
    }
    PriorityResult pr = compute_priority_detail(s, r.url, r.record);
    r.priority = pr.priority;
    e.priority_source = pr.source;
    e.bonus_applied = pr.bonus_applied;
    // Huge bias, bonuses or weights can overflow to inf or NaN (which
    // the store cannot rank): a rejection, not a stopped run.
    return std::isfinite(r.priority);
}

// What the row takes from the record but the policy decides: cost and revisits.
void cost_and_recrawl(const Settings& s, AddRequest& r) {
    const UrlRecord& f = r.record;
    r.cost = f.cost ? *f.cost : compute_cost(s, r.url, f.via);
    r.recrawl = f.recrawl;
    if (!r.recrawl && !f.type.empty())
        for (auto& t : s.recrawl_types)
            if (t == f.type) r.recrawl = true;
}

}  // namespace

void Enqueuer::prepare(EnqueueResult& e, const Settings& s) {
    if (e.outcome.reason != AddReason::none) return;  // rejected by read_fields
    AddRequest& r = e.req;
    const UrlRecord& f = r.record;
    CanonResult c = canonicalize_url(f.url, s.canon);
    if (!c.ok) {
        // canonicalize_url's reasons are AddReason words (bad-url, bad-scheme).
        e.outcome.reason = add_reason_from_name(c.reason).value_or(AddReason::bad_url);
        return;
    }
    // Longer URLs are refused before any regular expression sees them (the
    // scope expressions are RE2, linear in the URL's length, but a URL this
    // long is not one a crawl wants). 2083 is Heritrix's limit (and Internet
    // Explorer's).
    if (c.url.url.size() > kMaxUrlBytes) {
        e.outcome.reason = AddReason::url_too_long;
        return;
    }
    r.url = std::move(c.url);
    if (!in_scope(s, r.url.url)) {
        e.outcome.reason = AddReason::out_of_scope;
        return;
    }
    e.scoped = true;
    e.seed = f.discovery.empty() || f.discovery == "seed";
    // Registered domains per host are cached: a crawl has few hosts and many URLs.
    auto dom_it = domains_.find(r.url.host);
    if (dom_it == domains_.end()) {
        if (domains_.size() > 20000) domains_.clear();
        dom_it = domains_.emplace(r.url.host, registered_domain(r.url.host)).first;
    }
    e.domain = dom_it->second;
    // Rejections from here on wait for finish's seed-domain check, which
    // comes first.
    if (past_max_depth(s, f.depth, f.type)) {
        e.outcome.reason = AddReason::max_depth;
        return;
    }
    r.queue_key = queue_key(r.url, s.queue_key);
    r.host_key = r.url.scheme + "://" + r.url.authority();
    r.fp = url_fingerprint(r.url.url);
    if (!score(s, e)) {
        e.outcome.reason = AddReason::bad_priority;
        return;
    }
    cost_and_recrawl(s, r);
}

void Enqueuer::finish(EnqueueResult& e, double now) {
    if (!e.scoped) return;  // rejected before the seed-domain check
    // Seed domains grow as seeds are added, so this check is made here, in
    // input order, and not in prepare().
    if (!e.seed && store_.settings().seed_domains && !store_.is_seed_domain(e.domain)) {
        e.outcome.reason = AddReason::out_of_scope;
        return;
    }
    if (e.outcome.reason != AddReason::none) return;  // max-depth, bad-priority
    e.req.now = now;
    e.outcome = store_.add_url(e.req);
    if (e.outcome.status != AddStatus::rejected && e.seed) {
        store_.add_seed(e.domain, e.req.host_key);
    }
}

}  // namespace frontier
