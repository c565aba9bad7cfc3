// Private to the storage module (lib/store/): a process's cache of values
// read from the frontier by key (a queue's or host's id, a host's
// Crawl-delay, whether a host is a seed host), bounded in memory on huge
// frontiers.
//
// Two generations of at most half the bound each. A hit in the old one
// moves the entry to the young one; when the young one is full it becomes
// the old one and the old one is dropped. So the keys in use stay cached
// however many others pass through: clearing the whole cache when full
// dropped the busiest hosts with the rest, and a frontier with more hosts
// than the bound read them all again after every clear.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <unordered_map>
#include <utility>

namespace frontier {

template <class K, class V>
class BoundedCache {
public:
    explicit BoundedCache(size_t bound) : half_(std::max<size_t>(1, bound / 2)) {}

    // The cached value of `k`, or nullptr. Valid until the next change.
    V* find(const K& k) {
        if (auto it = young_.find(k); it != young_.end()) return &it->second;
        auto it = old_.find(k);
        if (it == old_.end()) return nullptr;
        V v = std::move(it->second);
        old_.erase(it);
        return &put(k, std::move(v));
    }
    bool contains(const K& k) { return find(k) != nullptr; }

    // Caches `v` as the value of `k` (replacing any).
    V& put(const K& k, V v) {
        old_.erase(k);
        if (young_.size() >= half_ && !young_.count(k)) {
            old_ = std::move(young_);
            young_.clear();
        }
        return young_.insert_or_assign(k, std::move(v)).first->second;
    }
    void insert(const K& k) { put(k, V{}); }  // for a set: BoundedCache<K, bool>

    void erase(const K& k) {
        young_.erase(k);
        old_.erase(k);
    }
    void clear() {
        young_.clear();
        old_.clear();
    }
    size_t size() const { return young_.size() + old_.size(); }

private:
    size_t half_;
    std::unordered_map<K, V> young_, old_;
};

}  // namespace frontier
