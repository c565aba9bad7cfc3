#include "net/address_guard.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <cstring>

namespace frontier {

namespace {

bool in_net(uint32_t addr, uint32_t net, int bits) {
    uint32_t mask = bits == 0 ? 0 : ~uint32_t{0} << (32 - bits);
    return (addr & mask) == (net & mask);
}

constexpr uint32_t ip4(unsigned a, unsigned b, unsigned c, unsigned d) { return a << 24 | b << 16 | c << 8 | d; }

const struct {
    const char* name;
    AddressKind kind;
} kNames[] = {{"public", kAddrPublic},
              {"loopback", kAddrLoopback},
              {"private", kAddrPrivate},
              {"special", kAddrSpecial},
              {"link-local", kAddrLinkLocal}};

}  // namespace

AddressKind ipv4_kind(uint32_t a) {
    if (a == ip4(100, 100, 100, 200) || a == ip4(168, 63, 129, 16) || in_net(a, ip4(169, 254, 0, 0), 16))
        return kAddrLinkLocal;
    if (in_net(a, ip4(127, 0, 0, 0), 8)) return kAddrLoopback;
    if (in_net(a, ip4(10, 0, 0, 0), 8) || in_net(a, ip4(172, 16, 0, 0), 12) || in_net(a, ip4(192, 168, 0, 0), 16) ||
        in_net(a, ip4(100, 64, 0, 0), 10))
        return kAddrPrivate;
    if (in_net(a, 0, 8) || in_net(a, ip4(192, 0, 0, 0), 24) || in_net(a, ip4(192, 0, 2, 0), 24) ||
        in_net(a, ip4(198, 18, 0, 0), 15) || in_net(a, ip4(198, 51, 100, 0), 24) ||
        in_net(a, ip4(203, 0, 113, 0), 24) || in_net(a, ip4(224, 0, 0, 0), 4) || in_net(a, ip4(240, 0, 0, 0), 4))
        return kAddrSpecial;
    return kAddrPublic;
}

AddressKind ipv6_kind(const unsigned char b[16]) {
    auto zero = [&](int from, int to) {
        for (int i = from; i < to; ++i)
            if (b[i]) return false;
        return true;
    };
    auto embedded_v4 = [&] { return uint32_t{b[12]} << 24 | uint32_t{b[13]} << 16 | uint32_t{b[14]} << 8 | b[15]; };
    if (zero(0, 10) && b[10] == 0xff && b[11] == 0xff) return ipv4_kind(embedded_v4());  // ::ffff:a.b.c.d
    if (b[0] == 0 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b && zero(4, 12))     // 64:ff9b::a.b.c.d
        return ipv4_kind(embedded_v4());
    if (zero(0, 15) && b[15] == 1) return kAddrLoopback;  // ::1
    static const unsigned char metadata[16] = {0xfd, 0, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54};
    if (std::memcmp(b, metadata, 16) == 0) return kAddrLinkLocal;  // fd00:ec2::254
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) return kAddrLinkLocal;  // fe80::/10
    if ((b[0] & 0xfe) == 0xfc) return kAddrPrivate;                    // fc00::/7
    if (zero(0, 12)) return kAddrSpecial;                              // ::, IPv4-compatible ::a.b.c.d
    if (b[0] == 0xff) return kAddrSpecial;                             // multicast
    if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8) return kAddrSpecial;  // 2001:db8::/32
    return kAddrPublic;
}

AddressKind address_kind(const struct sockaddr* sa) {
    if (sa == nullptr) return kAddrSpecial;
    if (sa->sa_family == AF_INET)
        return ipv4_kind(ntohl(reinterpret_cast<const struct sockaddr_in*>(sa)->sin_addr.s_addr));
    if (sa->sa_family == AF_INET6) return ipv6_kind(reinterpret_cast<const struct sockaddr_in6*>(sa)->sin6_addr.s6_addr);
    return kAddrSpecial;
}

std::optional<AddressKind> address_kind(std::string_view text) {
    if (text.size() >= 2 && text.front() == '[' && text.back() == ']') text = text.substr(1, text.size() - 2);
    if (text.empty() || text.size() > 45) return std::nullopt;
    std::string s(text);
    in_addr v4;
    if (inet_pton(AF_INET, s.c_str(), &v4) == 1) return ipv4_kind(ntohl(v4.s_addr));
    in6_addr v6;
    if (inet_pton(AF_INET6, s.c_str(), &v6) == 1) return ipv6_kind(v6.s6_addr);
    return std::nullopt;
}

const char* address_kind_name(AddressKind k) {
    for (auto& n : kNames)
        if (n.kind == k) return n.name;
    return "special";
}

std::string format_address_kinds(unsigned mask) {
    std::string out;
    for (auto& n : kNames)
        if (mask & n.kind) {
            if (!out.empty()) out += ',';
            out += n.name;
        }
    return out;
}

std::optional<unsigned> parse_address_kinds(std::string_view list) {
    unsigned mask = 0;
    for (;;) {
        size_t comma = list.find(',');
        std::string_view name = list.substr(0, comma);
        while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
        while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
        if (name == "all") {
            mask |= kAddrAll;
        } else {
            bool found = false;
            for (auto& n : kNames)
                if (name == n.name) mask |= n.kind, found = true;
            if (!found) return std::nullopt;  // also an empty name: "", "a,", ",a"
        }
        if (comma == std::string_view::npos) return mask;
        list.remove_prefix(comma + 1);
    }
}

}  // namespace frontier
