// Private to the storage module (lib/store/): the UPDATE that writes
// frontier-done's queue deltas (Totals::fetch_deltas) and reschedules each
// queue in the same statement (queue_sched_sql), so that no queue row is
// read back; each backend binds the deltas its own way
// (StoreBackend::write_fetch_deltas).
#pragma once

#include <cstdint>
#include <string>

#include "policy/lease_ahead.hpp"
#include "store/sql_codes.hpp"

namespace frontier {

// A queue's fetch deltas as the UPDATE of flush_fetches takes them, in
// parameter order (?1 to ?15; the time is the last, kNowParam).
enum FetchCol {
    kEnded,
    kWake,
    kN429,
    kRa,
    kErrors,
    kPenalty,
    kLatSum,
    kLatN,
    kDown,
    kDone,
    kFailed,
    kQueued,
    kBytes,
    kQueueId,
    kMaxInFlight,
    kFetchCols
};
inline constexpr int kNowParam = kFetchCols + 1;

// Calls put(column, value) for each of queue `qid`'s deltas `d`; `p` is
// the queue's politeness, whose lease cap (lease_cap: max-in-flight plus
// any lease-ahead) the schedule compares in_flight with, as the lease does.
template <class Delta, class Put>
void fetch_columns(int64_t qid, const Delta& d, const Politeness& p, Put&& put) {
    put(kEnded, d.ended);
    put(kWake, d.wake_at);
    put(kN429, d.n429);
    put(kRa, d.ra_blocks);
    put(kErrors, d.errors);
    put(kPenalty, d.penalty);
    put(kLatSum, d.latency_sum);
    put(kLatN, d.latency_n);
    put(kDown, d.host_down);
    put(kDone, d.done);
    put(kFailed, d.failed);
    put(kQueued, d.queued);
    put(kBytes, d.bytes);
    put(kQueueId, qid);
    put(kMaxInFlight, lease_cap(p));
}

// The UPDATE of queue rows by their deltas, each delta named by `v`, then
// `rest` (which rows, and where the deltas come from).
template <class Name>
std::string fetch_update_sql(Name&& v, const std::string& rest) {
    const std::string in_flight = "max(in_flight - " + v(kEnded) + ", 0)";
    const std::string wake_at = "max(wake_at, " + v(kWake) + ")";
    return "UPDATE queues SET in_flight = " + in_flight + ", wake_at = " + wake_at + ", n429 = " + v(kN429) +
           ", retry_after_blocks = retry_after_blocks + " + v(kRa) + ", error_count = error_count + " +
           v(kErrors) + ", total_spend = total_spend + " + v(kPenalty) +
           ", session_balance = session_balance - " + v(kPenalty) + ", latency_sum = latency_sum + " +
           v(kLatSum) + ", latency_n = latency_n + " + v(kLatN) + ", host_down = host_down + " + v(kDown) +
           ", done = done + " + v(kDone) + ", failed = failed + " + v(kFailed) + ", queued = queued + " +
           v(kQueued) + ", bytes = bytes + " + v(kBytes) + ", sched = " +
           queue_sched_sql("state", "best", in_flight, wake_at, v(kMaxInFlight),
                           "?" + std::to_string(kNowParam)) +
           rest;
}

// The parameter of column `col` where each is bound once (?1, ?2, ...).
inline std::string fetch_param(int col) { return "?" + std::to_string(col + 1); }

}  // namespace frontier
