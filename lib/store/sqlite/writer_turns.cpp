#include "store/sqlite/writer_turns.hpp"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "core/output.hpp"

namespace frontier {

namespace {

// Far past any file's end and SQLite's own lock bytes (around 1 GiB into
// the file): a byte range lock needs no data there.
constexpr long long kTurnstile = 1LL << 62;
constexpr long long kTurn = kTurnstile + 1;

struct flock range(short type, long long byte) {
    struct flock f {};
    f.l_type = type;
    f.l_whence = SEEK_SET;
    f.l_start = byte;
    f.l_len = 1;
    return f;
}

void nap(double seconds) {
    timespec ts{0, static_cast<long>(seconds * 1e9)};
    nanosleep(&ts, nullptr);
}

}  // namespace

WriterTurns::~WriterTurns() {
    if (fd_ >= 0) ::close(fd_);
}

// Open-file-description locks (not the per-process POSIX ones SQLite uses):
// they belong to this descriptor alone. It stays open until the store's
// connection has closed, since closing any descriptor of the file drops the
// process's POSIX locks on it, SQLite's among them (see ~SqliteDb).
bool WriterTurns::lock(long long byte) {
    if (fd_ < 0 && usable_) {
        fd_ = ::open(path_.c_str(), O_RDWR | O_CLOEXEC);  // a write lock needs it
        if (fd_ < 0) usable_ = false;
    }
    if (!usable_) return false;
    struct flock f = range(F_WRLCK, byte);
    if (::fcntl(fd_, F_OFD_SETLK, &f) == 0) return true;
    if (errno != EAGAIN && errno != EACCES) usable_ = false;  // e.g. a file system without them
    return false;
}

void WriterTurns::unlock(long long byte) {
    struct flock f = range(F_UNLCK, byte);
    (void)::fcntl(fd_, F_OFD_SETLK, &f);
}

// Polled, not F_OFD_SETLKW: a holder that never ends (a stopped process)
// must not hang this writer past its timeout. The steps stay short, as
// the turn usually comes within a transaction's length.
bool WriterTurns::wait(double seconds) {
    if (turn_) return false;  // a transaction is open already: BEGIN will say so
    const double until = monotonic_seconds() + seconds;
    double step = 20e-6;
    for (long long byte : {kTurnstile, kTurn}) {
        for (;;) {
            if (lock(byte)) {
                (byte == kTurnstile ? turnstile_ : turn_) = true;
                break;
            }
            if (!usable_ || monotonic_seconds() >= until) return turnstile_;
            nap(step);
            step = std::min(step * 2, 500e-6);
        }
    }
    return true;
}

void WriterTurns::begun() {
    if (turnstile_) unlock(kTurnstile);
    turnstile_ = false;
}

void WriterTurns::ended() {
    begun();
    if (turn_) unlock(kTurn);
    turn_ = false;
}

bool WriterTurns::other_waiting() {
    if (fd_ < 0 || !usable_) return false;
    struct flock f = range(F_WRLCK, kTurnstile);
    return ::fcntl(fd_, F_OFD_GETLK, &f) == 0 && f.l_type != F_UNLCK;
}

}  // namespace frontier
