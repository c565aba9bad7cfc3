// Unit tests for lib/core/sha1.hpp: FIPS 180 vectors, streaming, base32.
#include <catch2/catch.hpp>

#include <string>

#include "core/sha1.hpp"

using namespace frontier;

TEST_CASE("sha1: known vectors", "[sha1]") {
    CHECK(sha1_hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    CHECK(sha1_hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d");
    CHECK(sha1_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
          "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
    CHECK(sha1_hex("The quick brown fox jumps over the lazy dog") == "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12");
    CHECK(sha1_hex(std::string(1000000, 'a')) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

TEST_CASE("sha1: streaming in odd pieces equals one shot", "[sha1]") {
    std::string data;
    for (int i = 0; i < 5000; ++i) data.push_back(static_cast<char>(i * 7 + 3));
    for (size_t step : {1u, 3u, 63u, 64u, 65u, 1000u}) {
        Sha1 h;
        for (size_t off = 0; off < data.size(); off += step) h.update(std::string_view(data).substr(off, step));
        auto d = h.digest();
        Sha1 one;
        one.update(data);
        CHECK(d == one.digest());
    }
    // Lengths around the padding boundary.
    for (size_t n = 50; n < 70; ++n) {
        Sha1 a;
        a.update(std::string(n, 'q'));
        Sha1 b;
        b.update(std::string(n / 2, 'q'));
        b.update(std::string(n - n / 2, 'q'));
        CHECK(a.digest() == b.digest());
    }
}

TEST_CASE("base32: RFC 4648 vectors and WARC digests", "[sha1]") {
    auto b32 = [](std::string_view s) { return base32(reinterpret_cast<const uint8_t*>(s.data()), s.size()); };
    CHECK(b32("") == "");
    CHECK(b32("f") == "MY======");
    CHECK(b32("fo") == "MZXQ====");
    CHECK(b32("foo") == "MZXW6===");
    CHECK(b32("foob") == "MZXW6YQ=");
    CHECK(b32("fooba") == "MZXW6YTB");
    CHECK(b32("foobar") == "MZXW6YTBOI======");
    // sha1("") = da39a3ee...; its base32 is the well-known empty-payload digest.
    CHECK(warc_sha1("") == "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
    CHECK(warc_sha1("abc").size() == 5 + 32);
}
