// Private to the SQLite backend: writers of one frontier file take its
// write lock in turn (frontier(7), FILE FORMAT). SQLite's own lock is not
// fair: a writer that commits and begins again at once (frontier-done
// applying a steady stream of results) wins it back before a waiting
// writer's busy handler next looks, so a frontier-lease --follow could wait
// until the stream paused while the fetches it feeds ran dry. Two
// open-file-description locks on bytes of the file that SQLite never locks
// make a queue: a writer takes the turnstile, then the turn, begins its
// transaction and lets the turnstile go; the turn is held until the
// transaction ends. A writer that wants the lock again must pass the
// turnstile, which the one waiting holds until it has begun. And a writer
// with a long transaction can see that another waits (other_waiting) and
// commit early. Writers that do not take part (another program on the
// file) still meet SQLite's busy handler, as before.
#pragma once

#include <string>

namespace frontier {

class WriterTurns {
public:
    explicit WriterTurns(std::string path) : path_(std::move(path)) {}
    ~WriterTurns();
    WriterTurns(const WriterTurns&) = delete;
    WriterTurns& operator=(const WriterTurns&) = delete;

    // Before BEGIN IMMEDIATE: waits for the turnstile and then the turn, at
    // most `seconds` in all (then goes on without them: SQLite's busy
    // timeout decides). True when it took a lock that ended() must give
    // back should BEGIN fail.
    bool wait(double seconds);
    // After BEGIN, whether it succeeded or not: the turnstile to the next.
    void begun();
    // The transaction ended (committed or rolled back): the turn to the next.
    void ended();
    // Does another writer wait for its turn? One system call.
    bool other_waiting();

private:
    bool lock(long long byte);
    void unlock(long long byte);

    std::string path_;
    int fd_ = -1;
    bool usable_ = true;  // false once the file system refused such locks
    bool turnstile_ = false, turn_ = false;
};

}  // namespace frontier
