// The Store methods the sessions of lib/frontier/ use (store.hpp,
// "sessions"): each backend's way of starting a batch, written only over
// Store's public methods.

#include "store/store.hpp"

namespace frontier {

namespace {
// Result lines read together where a read is a round trip: enough that a
// batch's lease rows come in one statement, few enough that a slow
// producer's first line never waits long behind the rest.
constexpr size_t kRecordsPerRoundTrip = 256;
}  // namespace

size_t Store::records_read_together() const { return reads_are_round_trips() ? kRecordsPerRoundTrip : 1; }

void Store::begin_result_batch(double now) {
    if (!reads_are_round_trips()) {
        refresh_settings();
        begin();
        housekeeping(now);
        return;
    }
    begin();
    send_settings_version();
    send_housekeeping(now);
}

bool Store::settle_result_batch(double now) {
    if (!reads_are_round_trips()) return false;
    refresh_sent_settings();
    if (!housekeeping(now)) return false;
    drop_prefetched_leases();
    return true;
}

}  // namespace frontier
