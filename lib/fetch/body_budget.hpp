// The memory budget of `fetch` for kept bodies (fetch(1), --max-memory):
// one pool shared by the transfers in flight and the results waiting for
// the writer and the parsers. Each transfer has a guaranteed share, reserved
// when it starts, and borrows beyond it from what nobody holds or is
// promised; a result's bytes are released when it has been written or
// dropped. Thread-safe: the network thread starts transfers and charges
// bytes, the writer releases them.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace frontier {

class BodyBudget;

// What one body holds of the budget; moves with the body (the transfer,
// then its result) and releases on destruction. Move-only.
class BodyCharge {
public:
    BodyCharge() = default;
    ~BodyCharge() { release(); }
    BodyCharge(BodyCharge&& o) noexcept { *this = std::move(o); }
    BodyCharge& operator=(BodyCharge&& o) noexcept;
    BodyCharge(const BodyCharge&) = delete;
    BodyCharge& operator=(const BodyCharge&) = delete;

    uint64_t held() const { return held_; }
    // Gives the bytes (and any reservation left) back to the budget.
    void release();
    // Gives back `n` of the bytes just granted (they could not be kept).
    void unkeep(uint64_t n);

private:
    friend class BodyBudget;
    BodyBudget* budget_ = nullptr;
    uint64_t held_ = 0;       // bytes kept
    uint64_t share_ = 0;      // guaranteed while the transfer runs
    bool reserving_ = false;  // the share is reserved (the transfer runs)
};

class BodyBudget {
public:
    // `budget` bytes for `concurrency` transfers: each is guaranteed
    // share() = max(budget / concurrency, 256 KiB), so the pool holds
    // capacity() = max(budget, concurrency x share()).
    BodyBudget(uint64_t budget, int concurrency);
    BodyBudget(const BodyBudget&) = delete;
    BodyBudget& operator=(const BodyBudget&) = delete;

    static constexpr uint64_t kMinShare = uint64_t{256} << 10;
    uint64_t share() const { return share_; }
    uint64_t capacity() const { return capacity_; }

    // Starts `c` for a transfer guaranteed `share` bytes (its own: a robots
    // or --body transfer may be promised more than share()): true when the
    // share could be reserved beside what is held and promised, or when
    // nothing is (so a share larger than the pool never waits for ever).
    // False: wait; the waker runs once bytes are released.
    bool try_start(BodyCharge& c, uint64_t share);
    // How many of `n` more bytes the transfer of `c` may keep: all within
    // its share; beyond it, what is neither held nor promised to others.
    uint64_t grant(BodyCharge& c, uint64_t n);
    // The transfer ended: its unused reservation is freed, its bytes stay
    // held (by its result) until `c` is released.
    void finish(BodyCharge& c);

    // Called (on the releasing thread) after bytes were released while a
    // start waited for them; an empty function: none.
    void set_waker(std::function<void()> waker);

    // Bytes held by bodies now, and the most ever held (tests, progress).
    uint64_t held() const;
    uint64_t peak() const;

private:
    friend class BodyCharge;
    void release(BodyCharge& c);
    void unkeep(BodyCharge& c, uint64_t n);

    uint64_t share_;
    uint64_t capacity_;
    mutable std::mutex mu_;
    uint64_t held_ = 0;      // all bytes kept by transfers and queued results
    uint64_t reserved_ = 0;  // unused guaranteed bytes of running transfers
    uint64_t peak_ = 0;
    bool waiting_ = false;  // a start was refused since the last wake-up
    std::function<void()> waker_;
};

// With --warc, the part of a body past what it may keep in memory: an
// unlinked temporary file in $TMPDIR (else /tmp), gone once closed, which
// the WARC writer copies into the record (fetch(1), --max-memory).
class BodySpill {
public:
    ~BodySpill();
    BodySpill(const BodySpill&) = delete;
    BodySpill& operator=(const BodySpill&) = delete;

    // A new empty file; on failure one whose error() says why.
    static std::unique_ptr<BodySpill> create();
    // Appends `n` bytes (nothing more once an error happened).
    void append(const char* p, size_t n);
    int fd() const { return fd_; }
    uint64_t size() const { return size_; }
    // Empty, or what went wrong (creating or writing the file).
    const std::string& error() const { return error_; }

private:
    BodySpill() = default;
    int fd_ = -1;
    uint64_t size_ = 0;
    std::string error_;
};

}  // namespace frontier
