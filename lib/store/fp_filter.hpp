// A Bloom filter over URL fingerprints (frontier(7), FILE FORMAT): it
// answers "certainly not added" or "perhaps added", never "not added" for
// a fingerprint that was. Blocked: a fingerprint's bits are all in one
// 64-byte block, so a lookup reads one cache line. Sized for a number of
// fingerprints at 16 bits each (2 bytes; about 0.2% false "perhaps" at that
// load), and usable to twice that (8 bits each, about 3%), when
// overloaded() says to build a larger one. Keys are expected to be hashes
// (uniform 64-bit values). Pure memory, no database; not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace frontier {

class FpFilter {
public:
    // Room for `capacity` fingerprints at 16 bits each (at least one block).
    explicit FpFilter(uint64_t capacity);

    void add(uint64_t fp);
    // False only for a fingerprint never added.
    bool may_contain(uint64_t fp) const;

    uint64_t added() const { return added_; }  // add calls, repeats included
    uint64_t capacity() const { return capacity_; }
    // More than twice its capacity added: a false "perhaps" has become
    // likely enough (a few percent) that a larger filter pays.
    bool overloaded() const { return added_ > 2 * capacity_; }
    size_t bytes() const { return words_.size() * sizeof(uint64_t); }

private:
    size_t block_of(uint64_t fp) const;
    template <class F>
    static bool each_bit(uint64_t fp, F&& f);

    static constexpr int kBits = 7;  // bits set per fingerprint
    std::vector<uint64_t> words_;    // blocks of 8 words
    uint64_t blocks_ = 0, capacity_ = 0, added_ = 0;
};

}  // namespace frontier
