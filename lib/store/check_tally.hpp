// Private to lib/store/store_check.cpp: how check_frontier collects
// violations, and the recounts it keeps while it reads the tables.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/db.hpp"
#include "store/store_check.hpp"

namespace frontier::check {

// Collects the violations of the checks: fail() counts one for the check
// that runs (or the check `at`, an index from start()), keeping the first
// details of each.
class Checker {
public:
    Checker(CheckResult& r, int64_t max_details) : r_(r), max_(max_details) {}
    size_t start(std::string name) {
        r_.checks.emplace_back(std::move(name), 0);
        return r_.checks.size() - 1;
    }
    void fail(const std::string& detail) { fail_at(r_.checks.size() - 1, detail); }
    void fail_at(size_t at, const std::string& detail) {
        auto& c = r_.checks[at];
        if (c.second++ < max_) r_.violations.push_back({c.first, detail});
    }

private:
    CheckResult& r_;
    int64_t max_;
};

// Ends the read transaction however the check ends.
struct ReadTransaction {
    Db& db;
    explicit ReadTransaction(Db& d) : db(d) { db.begin_read(); }
    ~ReadTransaction() { db.rollback(); }
};

inline int64_t scalar(Db& db, const std::string& sql) {
    Stmt st = db.prepare(sql);
    return st.step() ? st.i64(0) : 0;
}

inline std::string num(double v) {
    char buf[40];
    snprintf(buf, sizeof buf, "%.15g", v);
    return buf;
}

inline std::string short_url(std::string_view u) {
    return u.size() > 200 ? std::string(u.substr(0, 200)) + "..." : std::string(u);
}

inline int64_t stored_counter(const std::map<std::string, int64_t>& stored, const std::string& name) {
    auto it = stored.find(name);
    return it == stored.end() ? 0 : it->second;
}

inline void check_counter(Checker& c, const std::map<std::string, int64_t>& stored, const std::string& name,
                   int64_t recount) {
    int64_t v = stored_counter(stored, name);
    if (v != recount)
        c.fail("counter " + name + ": stored " + std::to_string(v) + ", recount " + std::to_string(recount));
}

// What one pass over the URLs recounts: per state, per queue, and the lease
// problems found on the way (reported by the lease check).
// 32-bit counts: a queue of 4G URLs is far past what a frontier holds (a
// wrap would show as a queue-counts violation, never hide one).
struct QueueCount {
    uint32_t queued = 0, leased = 0, done = 0, failed = 0, blocked = 0, n = 0, ready = 0;
};

// The recounts by queue id: a flat array over the ids of the queues table
// (28 bytes a queue, a fraction of what a hash map entry takes),
// and a map for ids past it (URLs of a missing queue, sparse huge ids).
class QueueTally {
public:
    explicit QueueTally(int64_t max_id) : flat_(static_cast<size_t>(std::max<int64_t>(max_id, 0)) + 1) {}
    QueueCount& at(int64_t id) { return flat(id) ? flat_[static_cast<size_t>(id)] : other_[id]; }
    // A queue's counts, taken out: what is left belongs to no queue row.
    QueueCount take(int64_t id) {
        QueueCount q;
        if (flat(id)) {
            std::swap(q, flat_[static_cast<size_t>(id)]);
        } else if (auto it = other_.find(id); it != other_.end()) {
            q = it->second;
            other_.erase(it);
        }
        return q;
    }
    // Calls f(id, counts) for each id left with URLs.
    template <class F>
    void for_each_left(F&& f) const {
        for (size_t id = 0; id < flat_.size(); ++id)
            if (flat_[id].n) f(static_cast<int64_t>(id), flat_[id]);
        for (auto& [id, q] : other_)
            if (q.n) f(id, q);
    }

private:
    bool flat(int64_t id) const { return id >= 0 && static_cast<size_t>(id) < flat_.size(); }
    std::vector<QueueCount> flat_;
    std::unordered_map<int64_t, QueueCount> other_;
};

struct UrlRecount {
    explicit UrlRecount(int64_t max_queue_id) : per_queue(max_queue_id) {}
    QueueTally per_queue;
    int64_t by_state[6] = {0, 0, 0, 0, 0, 0};
    std::vector<std::string> lease_problems;
};

// robots.txt leases, as the lease check counts them.
struct RobotsLeases {
    std::unordered_map<int64_t, int64_t> per_queue;
    int64_t leased = 0;
};

}  // namespace frontier::check
