#include "policy/readd.hpp"

#include "policy/priority.hpp"

namespace frontier {

Readd readd(const StoredUrl& k, const AddRequest& r, const Settings& s) {
    const UrlRecord& rec = r.record;
    Readd o;
    bool lm_changed = rec.last_modified && (!k.last_modified || *k.last_modified != *rec.last_modified);
    bool prio_changed = rec.priority && k.priority != r.priority;
    o.recrawl_on = r.recrawl && !k.recrawl;
    std::string_view disc = canonical_discovery(rec.discovery);
    o.relisted = k.state == UrlState::disabled && disc != "link" && disc != "redirect";
    bool visit_now = rec.visit_now && k.state != UrlState::leased && k.state != UrlState::blocked;
    // The fork flag orders URLs never loaded; a record without it keeps the
    // stored one.
    bool fork = k.successes == 0 && rec.fork.value_or(k.fork);
    bool fork_changed = fork != k.fork && k.state == UrlState::queued;
    if (!lm_changed && !prio_changed && !o.recrawl_on && !o.relisted && !visit_now && !fork_changed) return o;
    o.changed = true;
    o.recrawl = k.recrawl || r.recrawl;
    o.last_modified = rec.last_modified ? rec.last_modified : k.last_modified;
    std::optional<double> due_at = k.due_at;
    bool listed_change = false;
    if (o.recrawl && lm_changed && k.state == UrlState::done && due_at)
        if (auto d = listed_change_due(s, o.last_modified, k.last_success, k.successes); d && *d < *due_at) {
            due_at = d;
            listed_change = *d <= r.now;
        }
    o.priority = prio_changed ? r.priority : k.priority;
    o.tier = recrawl_tier({o.recrawl, o.last_modified, k.last_success, k.successes, k.next_visit, visit_now, r.now, fork});
    o.state = k.state;
    bool waiting = k.due_at.has_value();
    if (o.relisted || visit_now || listed_change) {
        o.state = UrlState::queued;
        waiting = false;
    }
    if (waiting) o.due_at = due_at.value_or(0);
    return o;
}

}  // namespace frontier
