// Private to the storage module (lib/store/): the writes of the URLs a lease
// call takes where a statement is a round trip (PostgreSQL), held and
// written set-based before the next other statement (Statements::q) and at
// flush: one UPDATE of the URL rows, one of the queue rows (each queue's
// leases summed), instead of two UPDATEs per URL. Cleared at rollback.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "store/array_param.hpp"

namespace frontier {

class Statements;

class LeaseWrites {
public:
    PgArray ids, seqs, expires, holders;  // one element per leased URL
    struct Queue {                        // the URLs leased from one queue
        int64_t n = 0, cost = 0, last_cost = 0, served = 0, sched = 0;
        double at = 0;
        std::string last_url;
        std::optional<double> best;
    };
    std::map<int64_t, Queue> queues;  // by id: rows locked in id order

    bool held() const { return ids.size() != 0 || !queues.empty(); }
    // Held, and not being written now: a statement must wait for them.
    bool due() const { return held() && !writing_; }
    // Writes them (lib/store/pg/), then clears them.
    void flush(Statements& st);
    void clear() {
        ids.clear();
        seqs.clear();
        expires.clear();
        holders.clear();
        queues.clear();
    }

private:
    bool writing_ = false;
};

}  // namespace frontier
