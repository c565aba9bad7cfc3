// HTTP dates (RFC 9110 §5.6.7: IMF-fixdate, RFC 850 and asctime forms) and
// the Retry-After header. Thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace frontier {

// Epoch seconds of an HTTP date in any of the three RFC 9110 forms; nullopt
// when it does not parse.
std::optional<double> parse_http_date(std::string_view text);

// IMF-fixdate of `epoch` ("Sun, 06 Nov 1994 08:49:37 GMT"), seconds truncated.
std::string format_http_date(double epoch);

// ISO 8601 UTC timestamp for WARC-Date ("2024-05-01T12:00:00Z"; with
// `micros`, six fractional digits).
std::string format_iso8601(double epoch, bool micros = false);

// Seconds to wait from a Retry-After value: delta-seconds ("120") or an
// HTTP date, relative to `now` (never negative). nullopt when malformed.
std::optional<double> parse_retry_after(std::string_view value, double now);

}  // namespace frontier
