#include "core/sha1.hpp"

#include <cstring>

namespace frontier {

namespace {
inline uint32_t rol(uint32_t v, int n) { return (v << n) | (v >> (32 - n)); }
}  // namespace

void Sha1::reset() {
    h_[0] = 0x67452301u;
    h_[1] = 0xEFCDAB89u;
    h_[2] = 0x98BADCFEu;
    h_[3] = 0x10325476u;
    h_[4] = 0xC3D2E1F0u;
    buf_len_ = 0;
    total_ = 0;
}

void Sha1::block(const uint8_t* p) {
    uint32_t w[16];
    for (int i = 0; i < 16; ++i)
        w[i] = (uint32_t(p[4 * i]) << 24) | (uint32_t(p[4 * i + 1]) << 16) | (uint32_t(p[4 * i + 2]) << 8) |
               uint32_t(p[4 * i + 3]);
    uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3], e = h_[4];
    // The message schedule lives in a 16-word ring: w[i & 15].
    auto next = [&w](int i) {
        uint32_t v = rol(w[(i + 13) & 15] ^ w[(i + 8) & 15] ^ w[(i + 2) & 15] ^ w[i & 15], 1);
        w[i & 15] = v;
        return v;
    };
    auto step = [&](uint32_t f, uint32_t k, uint32_t wi) {
        uint32_t t = rol(a, 5) + f + e + k + wi;
        e = d;
        d = c;
        c = rol(b, 30);
        b = a;
        a = t;
    };
    for (int i = 0; i < 16; ++i) step((b & c) | (~b & d), 0x5A827999u, w[i]);
    for (int i = 16; i < 20; ++i) step((b & c) | (~b & d), 0x5A827999u, next(i));
    for (int i = 20; i < 40; ++i) step(b ^ c ^ d, 0x6ED9EBA1u, next(i));
    for (int i = 40; i < 60; ++i) step((b & c) | (b & d) | (c & d), 0x8F1BBCDCu, next(i));
    for (int i = 60; i < 80; ++i) step(b ^ c ^ d, 0xCA62C1D6u, next(i));
    h_[0] += a;
    h_[1] += b;
    h_[2] += c;
    h_[3] += d;
    h_[4] += e;
}

void Sha1::update(const void* data, size_t len) {
    if (len == 0) return;  // data may be null for an empty block
    const uint8_t* p = static_cast<const uint8_t*>(data);
    total_ += len;
    if (buf_len_ > 0) {
        size_t take = std::min(len, sizeof buf_ - buf_len_);
        std::memcpy(buf_ + buf_len_, p, take);
        buf_len_ += take;
        p += take;
        len -= take;
        if (buf_len_ < sizeof buf_) return;
        block(buf_);
        buf_len_ = 0;
    }
    while (len >= 64) {
        block(p);
        p += 64;
        len -= 64;
    }
    if (len > 0) {
        std::memcpy(buf_, p, len);
        buf_len_ = len;
    }
}

std::array<uint8_t, 20> Sha1::digest() {
    uint64_t bits = total_ * 8;
    uint8_t pad[72] = {0x80};
    size_t pad_len = (buf_len_ < 56) ? 56 - buf_len_ : 120 - buf_len_;
    update(pad, pad_len);
    uint8_t len_be[8];
    for (int i = 0; i < 8; ++i) len_be[i] = uint8_t(bits >> (56 - 8 * i));
    update(len_be, 8);
    std::array<uint8_t, 20> out{};
    for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 4; ++j) out[4 * i + j] = uint8_t(h_[i] >> (24 - 8 * j));
    return out;
}

std::string sha1_hex(std::string_view data) {
    Sha1 h;
    h.update(data);
    auto d = h.digest();
    static const char* hex = "0123456789abcdef";
    std::string s;
    for (uint8_t b : d) {
        s.push_back(hex[b >> 4]);
        s.push_back(hex[b & 15]);
    }
    return s;
}

std::string base32(const uint8_t* data, size_t len) {
    static const char* alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    std::string s;
    uint64_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < len; ++i) {
        acc = (acc << 8) | data[i];
        bits += 8;
        while (bits >= 5) {
            s.push_back(alpha[(acc >> (bits - 5)) & 31]);
            bits -= 5;
        }
    }
    if (bits > 0) s.push_back(alpha[(acc << (5 - bits)) & 31]);
    while (s.size() % 8) s.push_back('=');
    return s;
}

std::string warc_sha1(std::string_view data) {
    Sha1 h;
    h.update(data);
    auto d = h.digest();
    return "sha1:" + base32(d.data(), d.size());
}

}  // namespace frontier
