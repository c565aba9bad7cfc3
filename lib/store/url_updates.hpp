// frontier-done's URL-row updates, held in memory until the transaction
// commits and then written in row-id order.
//
// Results come back in lease order, which spreads them over the whole URL
// table: a transaction of many results touches most of its pages, each
// several times, and once the page cache is full of dirty pages SQLite
// spills them to the WAL, reads them back, overwrites their frames and, at
// commit, re-reads every frame after the first overwritten one to redo the
// checksums. Written in row-id order, each page is read, changed and
// spilled once. Nothing else changes: the rows, counters and output are
// those of writing each update at once (UrlRows::settle writes a
// held update first wherever a row is read again in the transaction).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace frontier {

// One URL row after a fetch result (the columns Store::finish sets).
struct UrlUpdate {
    int64_t id = 0;
    int state = 0;
    std::optional<double> due;
    std::optional<std::string> reason;
    std::optional<int64_t> status;
    std::optional<std::string> error_class;
    double fetched_at = 0;
    std::optional<std::string> etag, http_last_modified, content_hash;
    int64_t retries = 0, failures = 0;
    double last_visit = 0;
    std::optional<double> last_success;
    int64_t visits = 0, successes = 0, changes = 0;
    std::optional<double> interval, next_visit;
    int64_t tier = 0;
    double tier_key = 0;
    std::optional<double> first_success;  // set only at a revisited URL's first success
};

// Held updates, packed, at most one per row id.
class PendingUrlUpdates {
public:
    // Held at most at once, which bounds the memory of a long transaction;
    // a full list is written mid-transaction.
    static constexpr size_t kMaxHeld = 131072;

    void add(const UrlUpdate& u);
    bool holds(int64_t id) const { return index_.count(id) != 0; }
    // Removes and returns the update held for a row, if any.
    std::optional<UrlUpdate> take(int64_t id);
    size_t size() const { return index_.size(); }
    bool full() const { return packed_.size() >= kMaxHeld; }
    // Writes every held update in row-id order; then none is held (also
    // when `write` throws: the transaction is then rolled back).
    template <class Write>
    void drain(Write write) {
        std::vector<uint32_t> order = sorted();
        struct Clear {
            PendingUrlUpdates& p;
            ~Clear() { p.clear(); }
        } clear_after{*this};
        for (uint32_t i : order) write(unpack(packed_[i]));
    }
    void clear();

    // Packed form (~150 bytes plus the strings): the UrlUpdate columns by
    // kind, in the order of the tables in url_updates.cpp.
    struct Packed {
        int64_t id;
        double doubles[3];      // fetched_at, last_visit, tier_key
        double opt_doubles[5];  // due, last_success, interval, next_visit, first_success; NaN: NULL
        int64_t ints[6];        // retries, failures, visits, successes, changes, tier
        int64_t status;
        size_t str_off;         // reason, error_class, etag, http_last_modified, content_hash
        uint32_t str_len[5];    // kNull: NULL
        int8_t state;
        bool has_status;
    };

private:
    static constexpr uint32_t kNull = UINT32_MAX;
    std::vector<uint32_t> sorted() const;
    UrlUpdate unpack(const Packed& p) const;

    std::vector<Packed> packed_;
    std::string strings_;
    std::unordered_map<int64_t, uint32_t> index_;  // row id -> packed_ position
};

}  // namespace frontier
