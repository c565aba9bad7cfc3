// Whole-number settings from the environment (frontier(7), ENVIRONMENT).
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace frontier {

// The variable `name` as a whole number from `lo` to `hi`; nullopt when it
// is unset or empty. Anything else throws UsageError ("NAME is not a whole
// number of WHAT: VALUE"), `what` naming the unit and the range.
inline std::optional<int64_t> env_whole_number(const char* name, int64_t lo, int64_t hi, std::string_view what) {
    const char* v = std::getenv(name);
    if (!v || !*v) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    long long n = std::strtoll(v, &end, 10);
    if (end == v || *end || errno || n < lo || n > hi)
        throw UsageError(std::string(name) + " is not a whole number of " + std::string(what) + ": " + v);
    return static_cast<int64_t>(n);
}

}  // namespace frontier
