// One URL record's fields as given (frontier-add(1), INPUT; or a link that
// frontier-done found): plain data that priority scoring, cost and the store
// read. Built once per record (Enqueuer::read_fields, add_discovered) and
// then moved, never copied field by field, along the add path.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace frontier {

struct UrlRecord {
    std::string url;                  // as given, not yet canonical
    std::optional<double> priority;  // given: used as is, not computed
    std::string type;
    int64_t depth = 0;
    bool depth_given = true;  // false: the record had no depth (stored as 0; scored as unknown)
    std::string via;
    std::string discovery;
    std::optional<int64_t> cost;
    bool recrawl = false;
    std::optional<double> last_modified;
    bool visit_now = false;
    std::optional<bool> fork;  // the lister's fork flag; nullopt: not given
    double bias = 0;
    std::vector<std::pair<std::string, double>> bonuses;  // the record's named scores
    std::optional<double> estimated_cost_ms;
    // The news crawler's gap prediction for the URL: confidence_score and
    // expected_coverage_lift (frontier-add(1), gap_prediction).
    std::optional<std::pair<double, double>> gap_prediction;
    std::optional<double> cluster_count;  // occurrences of the URL's problem cluster
    std::string meta;                     // raw JSON, empty when none
    std::vector<std::string> meta_strings;  // string values of meta
};

}  // namespace frontier
