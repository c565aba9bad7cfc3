// Fetch results as the policy tests write them: a status, an error class
// and, for 429 and 503, a Retry-After, at one fixed time.
#pragma once

#include <optional>
#include <string>

#include "policy/outcome.hpp"

namespace frontier::test {

constexpr double kNow = 1800000000;

inline FetchFacts result(int64_t status, std::optional<double> retry_after, std::string error_class = "") {
    FetchFacts f;
    f.has_status = true;
    f.status = status;
    f.error_class = std::move(error_class);
    f.retry_after = retry_after;
    return f;
}

inline FetchFacts result(int64_t status, std::string error_class = "") {
    return result(status, std::nullopt, std::move(error_class));
}

}  // namespace frontier::test
