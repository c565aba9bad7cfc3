#include "fetch/body_budget.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace frontier {

BodyCharge& BodyCharge::operator=(BodyCharge&& o) noexcept {
    if (this != &o) {
        release();
        budget_ = o.budget_;
        held_ = o.held_;
        share_ = o.share_;
        reserving_ = o.reserving_;
        o.budget_ = nullptr;
        o.held_ = o.share_ = 0;
        o.reserving_ = false;
    }
    return *this;
}

void BodyCharge::release() {
    if (budget_ != nullptr) budget_->release(*this);
}

void BodyCharge::unkeep(uint64_t n) {
    if (budget_ != nullptr) budget_->unkeep(*this, n);
}

BodyBudget::BodyBudget(uint64_t budget, int concurrency) {
    uint64_t n = static_cast<uint64_t>(std::max(concurrency, 1));
    share_ = std::max(budget / n, kMinShare);
    capacity_ = std::max(budget, share_ * n);
}

bool BodyBudget::try_start(BodyCharge& c, uint64_t share) {
    c.release();
    if (share == 0) return true;  // keeps nothing
    std::lock_guard<std::mutex> lock(mu_);
    if (held_ + reserved_ + share > capacity_ && (held_ > 0 || reserved_ > 0)) {
        waiting_ = true;
        return false;
    }
    c.budget_ = this;
    c.held_ = 0;
    c.share_ = share;
    c.reserving_ = true;
    reserved_ += share;
    return true;
}

uint64_t BodyBudget::grant(BodyCharge& c, uint64_t n) {
    if (c.budget_ != this || n == 0) return 0;
    std::lock_guard<std::mutex> lock(mu_);
    uint64_t within = 0;
    if (c.reserving_ && c.held_ < c.share_) {
        within = std::min(n, c.share_ - c.held_);
        reserved_ -= within;
    }
    uint64_t used = held_ + within + reserved_;
    uint64_t beyond = std::min(n - within, capacity_ > used ? capacity_ - used : 0);
    held_ += within + beyond;
    c.held_ += within + beyond;
    peak_ = std::max(peak_, held_);
    return within + beyond;
}

void BodyBudget::finish(BodyCharge& c) {
    if (c.budget_ != this) return;
    std::lock_guard<std::mutex> lock(mu_);
    if (c.reserving_ && c.held_ < c.share_) reserved_ -= c.share_ - c.held_;
    c.reserving_ = false;
}

void BodyBudget::release(BodyCharge& c) {
    std::lock_guard<std::mutex> lock(mu_);
    if (c.reserving_ && c.held_ < c.share_) reserved_ -= c.share_ - c.held_;
    held_ -= std::min(held_, c.held_);
    c.budget_ = nullptr;
    c.held_ = c.share_ = 0;
    c.reserving_ = false;
    if (waiting_ && waker_) {
        waiting_ = false;
        waker_();  // under the lock: set_waker() cannot pull it away meanwhile
    }
}

void BodyBudget::unkeep(BodyCharge& c, uint64_t n) {
    std::lock_guard<std::mutex> lock(mu_);
    n = std::min(n, c.held_);
    // Bytes within the share go back to the reservation, the rest to the pool.
    uint64_t beyond = c.held_ > c.share_ ? std::min(n, c.held_ - c.share_) : 0;
    if (c.reserving_) reserved_ += n - beyond;
    c.held_ -= n;
    held_ -= std::min(held_, n);
}

void BodyBudget::set_waker(std::function<void()> waker) {
    std::lock_guard<std::mutex> lock(mu_);
    waker_ = std::move(waker);
}

uint64_t BodyBudget::held() const {
    std::lock_guard<std::mutex> lock(mu_);
    return held_;
}

uint64_t BodyBudget::peak() const {
    std::lock_guard<std::mutex> lock(mu_);
    return peak_;
}

BodySpill::~BodySpill() {
    if (fd_ >= 0) ::close(fd_);
}

std::unique_ptr<BodySpill> BodySpill::create() {
    std::unique_ptr<BodySpill> s(new BodySpill());
    const char* env = std::getenv("TMPDIR");
    std::string dir = env && *env ? env : "/tmp";
    s->fd_ = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (s->fd_ < 0) {  // a file system without O_TMPFILE: a named file, unlinked at once
        std::string path = dir + "/fetch-body-XXXXXX";
        s->fd_ = ::mkostemp(path.data(), O_CLOEXEC);
        if (s->fd_ >= 0) ::unlink(path.c_str());
    }
    if (s->fd_ < 0) s->error_ = "cannot create a temporary file in " + dir + ": " + std::strerror(errno);
    return s;
}

void BodySpill::append(const char* p, size_t n) {
    while (n > 0 && error_.empty()) {
        ssize_t w = ::write(fd_, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            int err = w < 0 ? errno : ENOSPC;
            const char* env = std::getenv("TMPDIR");
            std::string dir = env && *env ? env : "/tmp";
            error_ = std::string(err == ENOSPC || err == EDQUOT ? "disk full: " : "") +
                     "cannot write a temporary file in " + dir + ": " + std::strerror(err);
            break;
        }
        p += w;
        n -= static_cast<size_t>(w);
        size_ += static_cast<uint64_t>(w);
    }
}

}  // namespace frontier
