// The one path by which URLs enter the frontier, used by frontier-add for
// input records and by frontier-done for discovered links, redirects and
// sitemaps: validation, canonicalisation, scope, priority, cost, then
// Store::add_url. Bad records are results, never exceptions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "json/json.hpp"
#include "policy/model.hpp"
#include "store/store.hpp"

namespace frontier {

// Canonical URLs longer than this are rejected "url-too-long".
inline constexpr size_t kMaxUrlBytes = 2083;

// One record on the add path, filled in place step by step (read_fields,
// prepare, finish): the request (the record as given and what was computed
// from it) and what became of it.
struct EnqueueResult {
    AddRequest req;     // req.url.url: the canonical URL (empty when it did not parse
                        // or was too long); req.queue_key, priority, cost: for added
    AddResult outcome;  // rejected (with a reason) until the store adds it
    std::string field;  // for bad-field: the offending key
    std::string_view priority_source;  // computed priorities: the seed's prioritySource
    double bonus_applied = 0;          // and bonusApplied
    // Left by prepare() for finish():
    bool scoped = false;  // passed the checks made before the seed-domain check; a
                          // rejection applied after it (max-depth, bad-priority) is in outcome
    bool seed = false;
    std::string domain;  // registered domain of the host
};

// A URL found while fetching `via`.
struct Discovered {
    std::string_view url;           // absolute
    std::string_view via;           // canonical URL of the page
    int64_t depth = 0;              // the page's depth + 1
    std::string_view discovery;     // "link", "redirect", "sitemap"
    std::string_view type;          // e.g. "sitemap" for robots.txt Sitemap: lines
    std::optional<double> last_modified;
};

class Enqueuer {
public:
    explicit Enqueuer(Store& store) : store_(store) {}

    // Adds one input record (frontier-add(1) INPUT fields). Must be called inside a
    // Store transaction.
    EnqueueResult add(const Record& rec, double now);

    // Adds a discovered URL through the same scope and scoring rules
    // (frontier-done only counts the outcomes).
    // A plain link (discovery "link", no type, no lister date) whose exact
    // text an earlier call of this Enqueuer found in the frontier, under the
    // same settings and with no rollback since, is a duplicate at once: no
    // canonicalisation, no database read (frontier-done(1), PERFORMANCE).
    // URLs are never deleted, so a URL once present stays present.
    AddResult add_discovered(const Discovered& d, double now);
    // Whether add_discovered would find `d` a duplicate at once (the plain
    // link is known to be in the frontier, under these settings): then it
    // writes nothing.
    bool known(const Discovered& d) { return known_present(d); }
    // Where add_discovered would put `d`, were it new (at any depth): its
    // queue's key and its fingerprint; none when the checks it makes before
    // the store reject it. The URL is canonicalised and scored, as
    // add_discovered does again.
    struct Target {
        std::string queue_key, host_key, domain;
        uint64_t fp = 0;
    };
    std::optional<Target> target_of(const Discovered& d);

    // add() in three steps over one EnqueueResult, for frontier-add's
    // pipeline (lib/frontier/add_session.hpp): read_fields copies a record's
    // fields into e.req.record (false with e's rejection set for a bad
    // field, a last_modified outside sane_time(now) included); prepare does the CPU work and touches no database, so it may
    // run on another thread than the Store's (one thread at a time: it
    // caches registered domains; the settings must not be refreshed
    // meanwhile); finish applies the seed-domain scope and stores the URL,
    // inside a Store transaction. prepare and finish leave a rejected
    // record as it is.
    static bool read_fields(const Record& rec, EnqueueResult& e, double now);
    void prepare(EnqueueResult& e, const Settings& s);
    void finish(EnqueueResult& e, double now);

    // Whether `depth` is past scope.max-depth for a URL of `type`.
    static bool past_max_depth(const Settings& s, int64_t depth, std::string_view type);

private:
    // Link texts known to be in the frontier (add_discovered); cleared when
    // the settings change, a transaction is rolled back, or it holds
    // kMaxPresentBytes of text.
    static constexpr size_t kMaxPresentBytes = 8u << 20;
    bool known_present(const Discovered& d);
    AddResult add_discovered_uncached(const Discovered& d, double now);
    void remember_present(const Discovered& d, const AddResult& r);

    Store& store_;
    std::unordered_map<std::string, std::string> domains_;  // host -> registered domain
    std::unordered_set<std::string> present_;
    size_t present_bytes_ = 0;
    uint64_t present_settings_ = 0, present_rollbacks_ = 0;
};

}  // namespace frontier
