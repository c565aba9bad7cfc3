// SHA-1 (FIPS 180-4) for WARC digests, and RFC 4648 base32. SHA-1 is used
// here only for the WARC-Block-Digest / WARC-Payload-Digest convention, not
// for security.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace frontier {

// Streaming SHA-1. Usage: Sha1 h; h.update(a); h.update(b); auto d = h.digest();
// digest() finalises; call reset() before reusing. Not thread-safe per object.
class Sha1 {
public:
    Sha1() { reset(); }
    void reset();
    void update(const void* data, size_t len);
    void update(std::string_view s) { update(s.data(), s.size()); }
    std::array<uint8_t, 20> digest();

private:
    void block(const uint8_t* p);
    uint32_t h_[5];
    uint8_t buf_[64];
    size_t buf_len_ = 0;
    uint64_t total_ = 0;
};

// Lower-case hex of a SHA-1 digest (40 characters).
std::string sha1_hex(std::string_view data);

// RFC 4648 base32 (upper-case alphabet, '=' padding) of `data`.
std::string base32(const uint8_t* data, size_t len);

// "sha1:" + base32 of the SHA-1 of `data` (32 characters, no padding), the
// form WARC digests use.
std::string warc_sha1(std::string_view data);

}  // namespace frontier
