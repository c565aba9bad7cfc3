// The address guard (frontier(7), ADDRESS GUARD): which kinds of IP
// address a fetch may connect to. Plain functions over plain values; fetch
// applies them to the address of every connection it opens (libcurl's
// socket callback), frontier-lease decides per URL which kinds it allows.
#pragma once

#include <sys/socket.h>

#include <optional>
#include <string>
#include <string_view>

namespace frontier {

// Kinds of address, as bits of a mask.
enum AddressKind : unsigned {
    kAddrPublic = 1,     // everything not below
    kAddrLoopback = 2,   // 127.0.0.0/8, ::1
    kAddrPrivate = 4,    // 10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7
    kAddrSpecial = 8,    // 0/8, 192.0.0/24, documentation and benchmark nets,
                         // multicast, 240/4, broadcast, ::, ff00::/8, 2001:db8::/32
    kAddrLinkLocal = 16, // 169.254/16, fe80::/10 and the cloud metadata
                         // addresses (fd00:ec2::254, 100.100.100.200, 168.63.129.16)
};
inline constexpr unsigned kAddrAll = 31;
// The kinds a local site may be on: what a seed's host may reach.
inline constexpr unsigned kAddrLocal = kAddrLoopback | kAddrPrivate | kAddrSpecial;
// fetch's default for a record that does not say: all but link-local.
inline constexpr unsigned kAddrDefault = kAddrAll & ~kAddrLinkLocal;

// The kind of an IPv4 address (host byte order) or IPv6 address (16
// bytes). IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d)
// addresses are the kind of their IPv4 address.
AddressKind ipv4_kind(uint32_t addr);
AddressKind ipv6_kind(const unsigned char addr[16]);
// The kind of a socket address (AF_INET / AF_INET6); special for others.
AddressKind address_kind(const struct sockaddr* sa);
// The kind of a numeric address in text ("10.0.0.1", "::1", "[::1]");
// nullopt when it is not one.
std::optional<AddressKind> address_kind(std::string_view text);

// The kinds a URL may connect to (frontier(7), ADDRESS GUARD): public
// ones, those of net.allow, and local ones when its host is a seed's host
// and net.seed-hosts is on.
inline unsigned url_address_kinds(unsigned net_allow, bool local_seed_host) {
    return kAddrPublic | net_allow | (local_seed_host ? kAddrLocal : 0);
}

// May a connection to an address of `kind` be opened, for a record that
// allows `allowed`? `first_kind` is the kind of the transfer's first
// connection (0 when this is it), `redirect` whether a response came before
// (a redirect being followed): a redirect from a public address may not
// lead to a non-public one, whatever `allowed` says.
inline bool connection_allowed(unsigned allowed, AddressKind kind, unsigned first_kind, bool redirect) {
    if (!(allowed & kind)) return false;
    return !(redirect && first_kind == kAddrPublic && kind != kAddrPublic);
}

// "public", "loopback", "private", "special", "link-local".
const char* address_kind_name(AddressKind k);
// "public,loopback" for a mask (kinds in the order above); "" for 0.
std::string format_address_kinds(unsigned mask);
// Reads a comma-separated list of kind names (spaces allowed, "all" for
// every kind); nullopt when a name is unknown or the list is empty.
std::optional<unsigned> parse_address_kinds(std::string_view list);

}  // namespace frontier
