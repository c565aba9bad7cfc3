// The one path by which URLs enter the frontier, used by frontier-add for
// input records and by frontier-done for discovered links, redirects and
// sitemaps: validation, canonicalisation, scope, priority, cost, then
// Store::add_url. Bad records are results, never exceptions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "json.hpp"
#include "model.hpp"
#include "store.hpp"

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

class Enqueuer {
public:
    explicit Enqueuer(Store& store) : store_(store) {}

    // Adds one input record (SPEC §4 fields). Must be called inside a
    // Store transaction.
    EnqueueResult add(const Record& rec, double now);

    // Adds a discovered URL through the same scope and scoring rules.
    EnqueueResult add_discovered(const Discovered& d, double now);

private:
    struct Fields;
    EnqueueResult add_fields(const Fields& f, double now);
    Store& store_;
    std::unordered_map<std::string, std::string> domains_;  // host -> registered domain
};

}  // namespace frontier
