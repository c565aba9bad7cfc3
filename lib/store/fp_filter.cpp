// FpFilter: a blocked Bloom filter (fp_filter.hpp).
#include "store/fp_filter.hpp"

namespace frontier {

namespace {

// SplitMix64's finaliser. Fingerprints are hashes (frontier(7)): their
// high bits alone spread them over the blocks; other keys keep the filter
// sound, only less selective.
uint64_t mix(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

constexpr uint64_t kBlockBits = 512;

}  // namespace

FpFilter::FpFilter(uint64_t capacity) : capacity_(capacity) {
    blocks_ = (capacity * 16 + kBlockBits - 1) / kBlockBits;
    if (blocks_ == 0) blocks_ = 1;
    words_.assign(blocks_ * 8, 0);
}

// The block from the fingerprint's high half, unmixed (blocks_ < 2^32):
// fingerprints added in key order (a scan of url_fps) then fill the
// blocks in order, not at random.
size_t FpFilter::block_of(uint64_t fp) const { return static_cast<size_t>(((fp >> 32) * blocks_) >> 32); }

// The bits from 9-bit slices of a mix; `f(word, mask)` false stops.
template <class F>
bool FpFilter::each_bit(uint64_t fp, F&& f) {
    const uint64_t b = mix(fp ^ 0x9e3779b97f4a7c15ULL);
    for (int i = 0; i < kBits; ++i) {
        const unsigned bit = static_cast<unsigned>(b >> (9 * i)) & 511u;
        if (!f(bit >> 6, uint64_t{1} << (bit & 63))) return false;
    }
    return true;
}

void FpFilter::add(uint64_t fp) {
    uint64_t* block = &words_[block_of(fp) * 8];
    each_bit(fp, [block](size_t word, uint64_t mask) {
        block[word] |= mask;
        return true;
    });
    ++added_;
}

bool FpFilter::may_contain(uint64_t fp) const {
    const uint64_t* block = &words_[block_of(fp) * 8];
    return each_bit(fp, [block](size_t word, uint64_t mask) { return (block[word] & mask) != 0; });
}

}  // namespace frontier
