// The address guard's classifier (lib/net/address_guard.hpp, frontier(7)
// ADDRESS GUARD): kinds of IPv4 and IPv6 addresses, the kind lists of
// net.allow / fetch --addresses / the "addresses" key, and the kinds a
// leased URL gets.
#include <catch2/catch.hpp>

#include <string>

#include "net/address_guard.hpp"

using namespace frontier;

TEST_CASE("address kinds of IPv4 and IPv6 addresses", "[net]") {
    struct Case {
        const char* addr;
        AddressKind kind;
    };
    for (Case c : std::initializer_list<Case>{
             {"8.8.8.8", kAddrPublic},
             {"1.1.1.1", kAddrPublic},
             {"172.15.255.255", kAddrPublic},
             {"172.32.0.0", kAddrPublic},
             {"100.63.255.255", kAddrPublic},
             {"100.128.0.0", kAddrPublic},
             {"169.253.255.255", kAddrPublic},
             {"223.255.255.255", kAddrPublic},
             {"127.0.0.1", kAddrLoopback},
             {"127.255.255.254", kAddrLoopback},
             {"10.0.0.1", kAddrPrivate},
             {"172.16.0.1", kAddrPrivate},
             {"172.31.255.255", kAddrPrivate},
             {"192.168.1.1", kAddrPrivate},
             {"100.64.0.1", kAddrPrivate},
             {"169.254.169.254", kAddrLinkLocal},
             {"169.254.0.1", kAddrLinkLocal},
             {"100.100.100.200", kAddrLinkLocal},
             {"168.63.129.16", kAddrLinkLocal},
             {"0.0.0.0", kAddrSpecial},
             {"0.1.2.3", kAddrSpecial},
             {"192.0.0.8", kAddrSpecial},
             {"192.0.2.1", kAddrSpecial},
             {"198.18.0.1", kAddrSpecial},
             {"198.51.100.7", kAddrSpecial},
             {"203.0.113.9", kAddrSpecial},
             {"224.0.0.1", kAddrSpecial},
             {"239.255.255.250", kAddrSpecial},
             {"240.0.0.1", kAddrSpecial},
             {"255.255.255.255", kAddrSpecial},
             {"2606:4700::1111", kAddrPublic},
             {"2001:4860:4860::8888", kAddrPublic},
             {"::1", kAddrLoopback},
             {"[::1]", kAddrLoopback},
             {"::", kAddrSpecial},
             {"::ffff:127.0.0.1", kAddrLoopback},
             {"::ffff:10.1.2.3", kAddrPrivate},
             {"::ffff:169.254.169.254", kAddrLinkLocal},
             {"::ffff:8.8.8.8", kAddrPublic},
             {"64:ff9b::a9fe:a9fe", kAddrLinkLocal},  // NAT64 of 169.254.169.254
             {"64:ff9b::808:808", kAddrPublic},
             {"::127.0.0.1", kAddrSpecial},  // IPv4-compatible (deprecated)
             {"fe80::1", kAddrLinkLocal},
             {"febf::1", kAddrLinkLocal},
             {"fec0::1", kAddrPublic},  // site-local, deprecated, not routed as local by Linux
             {"fd00:ec2::254", kAddrLinkLocal},
             {"fd00:ec2::253", kAddrPrivate},
             {"fc00::1", kAddrPrivate},
             {"fdff:ffff::1", kAddrPrivate},
             {"ff02::1", kAddrSpecial},
             {"2001:db8::1", kAddrSpecial},
         }) {
        INFO(c.addr);
        auto k = address_kind(c.addr);
        REQUIRE(k);
        CHECK(address_kind_name(*k) == std::string(address_kind_name(c.kind)));
    }
    for (const char* bad : {"", "localhost", "1.2.3", "1.2.3.4.5", "::g", "[::1", "10.0.0.1:80", "fe80::1%eth0"}) {
        INFO(bad);
        CHECK(!address_kind(bad));
    }
}

TEST_CASE("address kind lists", "[net]") {
    CHECK(parse_address_kinds("public") == unsigned{kAddrPublic});
    CHECK(parse_address_kinds("loopback, private") == unsigned{kAddrLoopback | kAddrPrivate});
    CHECK(parse_address_kinds("all") == kAddrAll);
    CHECK(parse_address_kinds("public,loopback,private,special,link-local") == kAddrAll);
    for (const char* bad : {"", ",", "public,", "local", "Public", "public;private"}) {
        INFO(bad);
        CHECK(!parse_address_kinds(bad));
    }
    CHECK(format_address_kinds(kAddrDefault) == "public,loopback,private,special");
    CHECK(format_address_kinds(kAddrPublic | kAddrLinkLocal) == "public,link-local");
    CHECK(parse_address_kinds(format_address_kinds(kAddrAll)) == kAddrAll);
}

TEST_CASE("the kinds a leased URL may connect to", "[net]") {
    // Not a seed's host: public only, plus net.allow.
    CHECK(url_address_kinds(0, false) == unsigned{kAddrPublic});
    CHECK(url_address_kinds(kAddrPrivate, false) == unsigned{kAddrPublic | kAddrPrivate});
    // A seed's host (net.seed-hosts on): the local kinds, never link-local.
    CHECK(url_address_kinds(0, true) == (kAddrPublic | kAddrLocal));
    CHECK((url_address_kinds(0, true) & kAddrLinkLocal) == 0);
    CHECK(url_address_kinds(kAddrLinkLocal, true) == kAddrAll);
}

TEST_CASE("which connections a transfer may open", "[net]") {
    unsigned seed_host = url_address_kinds(0, true);
    // The first connection: the record's kinds.
    CHECK(connection_allowed(seed_host, kAddrLoopback, 0, false));
    CHECK(!connection_allowed(kAddrPublic, kAddrLoopback, 0, false));
    CHECK(!connection_allowed(seed_host, kAddrLinkLocal, 0, false));
    // A redirect (robots.txt): from a local address to another local kind
    // of a seed's host is fine; from a public one only to public ones, even
    // when net.allow lets every URL reach the kind.
    CHECK(connection_allowed(seed_host, kAddrPrivate, kAddrLoopback, true));
    CHECK(connection_allowed(seed_host, kAddrPublic, kAddrLoopback, true));
    CHECK(!connection_allowed(seed_host, kAddrLoopback, kAddrPublic, true));
    CHECK(!connection_allowed(kAddrAll, kAddrLinkLocal, kAddrPublic, true));
    CHECK(connection_allowed(kAddrPublic, kAddrPublic, kAddrPublic, true));
}
