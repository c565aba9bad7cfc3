// Lease ids (frontier-lease(1), OUTPUT; frontier-done(1), INPUT): a URL
// lease is "<row id>-<lease sequence>", a robots.txt lease
// "r<host id>-<sequence>", both numbers in lower-case hexadecimal without
// leading zeros. The one place that writes and reads the form.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace frontier {

// "1f-2" for (31, 2); with `robots`, "r1f-2".
std::string format_lease(int64_t id, int64_t seq, bool robots = false);

// How a lease id reads: not a lease id at all (frontier-done rejects it:
// bad-lease), one in the form frontier-lease writes, or one in that form
// whose numbers are too large for any row (an unknown lease: stale).
enum class LeaseId { bad, ok, unknown };

// Parses "<hex>-<hex>" (a robots.txt lease without its "r"), canonical form
// only, at most 40 characters: "0x1-1", "01-1", "+1-1", "1F-1", " 1-1" are
// bad, though strtoull would read them.
LeaseId parse_lease(std::string_view s, int64_t& id, int64_t& seq);

}  // namespace frontier
