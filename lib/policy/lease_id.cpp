#include "policy/lease_id.hpp"

#include <cstdio>

namespace frontier {

namespace {

std::string hex(int64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(v));
    return buf;
}

// One number of a lease id: lower-case hexadecimal digits, no leading zero
// (but "0"), no sign, no "0x", no blank.
LeaseId parse_hex_part(std::string_view s, int64_t& out) {
    if (s.empty() || (s.size() > 1 && s[0] == '0')) return LeaseId::bad;
    uint64_t v = 0;
    bool huge = s.size() > 16 || (s.size() == 16 && s[0] > '7');  // above INT64_MAX
    for (char c : s) {
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0) return LeaseId::bad;
        v = v * 16 + static_cast<uint64_t>(d);
    }
    out = static_cast<int64_t>(v);
    return huge ? LeaseId::unknown : LeaseId::ok;
}

}  // namespace

std::string format_lease(int64_t id, int64_t seq, bool robots) {
    return (robots ? "r" : "") + hex(id) + "-" + hex(seq);
}

LeaseId parse_lease(std::string_view s, int64_t& id, int64_t& seq) {
    auto dash = s.find('-');
    if (dash == std::string_view::npos || s.size() > 40) return LeaseId::bad;
    LeaseId a = parse_hex_part(s.substr(0, dash), id), b = parse_hex_part(s.substr(dash + 1), seq);
    if (a == LeaseId::bad || b == LeaseId::bad) return LeaseId::bad;
    return a == LeaseId::ok && b == LeaseId::ok ? LeaseId::ok : LeaseId::unknown;
}

}  // namespace frontier
