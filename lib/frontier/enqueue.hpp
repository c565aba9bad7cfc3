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
#include <utility>
#include <vector>

#include "json/json.hpp"
#include "policy/model.hpp"
#include "store/store.hpp"

namespace frontier {

// Canonical URLs longer than this are rejected "url-too-long".
inline constexpr size_t kMaxUrlBytes = 2083;

struct EnqueueResult {
    AddStatus status = AddStatus::rejected;
    std::string reason;  // rejected: bad-url, bad-scheme, bad-field, bad-priority, missing-url, url-too-long,
                         // out-of-scope, max-depth, queue-full
    std::string field;   // for bad-field: the offending key
    std::string url;     // canonical URL (empty when it did not parse)
    std::string queue;
    double priority = 0;
    std::string priority_source;  // computed priorities: the seed's prioritySource
    double bonus_applied = 0;     // and bonusApplied
    int64_t cost = 0;
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

// A record's fields, read from its JSON (owned copies: the record's buffer
// may be reused once they are read).
struct EnqueueFields {
    std::string url;
    std::optional<double> priority;
    std::string type;
    int64_t depth = 0;
    bool depth_given = true;  // false: the record had no depth (stored as 0; scored as unknown)
    std::string via;
    std::string discovery;
    std::optional<int64_t> cost;
    bool recrawl = false;
    std::optional<double> last_modified;
    bool visit_now = false;
    std::optional<bool> fork;
    double bias = 0;
    std::vector<std::pair<std::string, double>> bonuses;
    std::optional<double> estimated_cost_ms;
    std::optional<std::pair<double, double>> gap_prediction;  // confidence_score, expected_coverage_lift
    std::optional<double> cluster_count;
    std::string meta;  // raw JSON
    std::vector<std::string> meta_strings;
};

// A URL after the work that needs no database: canonicalised, scoped by
// the include/exclude rules, scored and fingerprinted (Enqueuer::prepare).
struct PreparedUrl {
    EnqueueResult res;      // a rejection when !ok
    bool ok = false;        // passed the checks made before the seed-domain check
    std::string late_reason;  // a rejection applied after the seed-domain check (max-depth, bad-priority)
    bool seed = false;
    std::string domain;     // registered domain of the host
    AddRequest req;
};

class Enqueuer {
public:
    explicit Enqueuer(Store& store) : store_(store) {}

    // Adds one input record (frontier-add(1) INPUT fields). Must be called inside a
    // Store transaction.
    EnqueueResult add(const Record& rec, double now);

    // Adds a discovered URL through the same scope and scoring rules.
    // A plain link (discovery "link", no type, no lister date) whose exact
    // text an earlier call of this Enqueuer found in the frontier, under the
    // same settings and with no rollback since, is a duplicate at once: no
    // canonicalisation, no database read (frontier-done(1), PERFORMANCE).
    // URLs are never deleted, so a URL once present stays present.
    EnqueueResult add_discovered(const Discovered& d, double now);

    // add() in three steps, for frontier-add's pipeline (tools/frontier-add.cpp):
    // read_fields copies a record's fields (false with `rejected` set for a
    // bad field); prepare does the CPU work and touches no database, so it
    // may run on another thread than the Store's (one thread at a time:
    // it caches registered domains; the settings must not be refreshed
    // meanwhile); finish applies the seed-domain scope and stores the URL,
    // inside a Store transaction.
    static bool read_fields(const Record& rec, EnqueueFields& f, EnqueueResult& rejected);
    PreparedUrl prepare(const EnqueueFields& f, const Settings& s);
    EnqueueResult finish(PreparedUrl& p, double now);

    // Whether `depth` is past scope.max-depth for a URL of `type`.
    static bool past_max_depth(const Settings& s, int64_t depth, std::string_view type);

private:
    // Link texts known to be in the frontier (add_discovered); cleared when
    // the settings change, a transaction is rolled back, or it holds
    // kMaxPresentBytes of text.
    static constexpr size_t kMaxPresentBytes = 8u << 20;
    bool known_present(const Discovered& d);
    EnqueueResult add_discovered_uncached(const Discovered& d, double now);
    void remember_present(const Discovered& d, const EnqueueResult& r);

    Store& store_;
    std::unordered_map<std::string, std::string> domains_;  // host -> registered domain
    std::unordered_set<std::string> present_;
    size_t present_bytes_ = 0;
    uint64_t present_settings_ = 0, present_rollbacks_ = 0;
};

}  // namespace frontier
