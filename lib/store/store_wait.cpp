// Store::next_lease_time (lib/store/store.hpp): what a crawl with nothing
// out is waiting for.
#include "store/sql_codes.hpp"
#include "store/store.hpp"
#include "store/store_impl.hpp"

namespace frontier {

std::optional<double> Store::next_lease_time(double now) {
    // An inactive queue with URLs is activated by the next lease: counted
    // as ready, so that a crawl never ends while one waits for its turn.
    Stmt& ready = impl_->q("SELECT count(*) FROM queues WHERE sched = " SQL_SCHED_READY " OR (state = " SQL_QUEUE_INACTIVE
                           " AND queued > 0)");
    bool any_ready = ready.step() && ready.i64(0) > 0;
    ready.reset();
    if (any_ready) return now;
    std::optional<double> next;
    for (const char* sql : {"SELECT min(wake_at) FROM queues WHERE sched = " SQL_SCHED_SLEEPING,
                            "SELECT min(due_at) FROM urls WHERE due_at IS NOT NULL AND state = " SQL_URL_QUEUED}) {
        Stmt& st = impl_->q(sql);
        if (st.step() && !st.is_null(0) && (!next || st.dbl(0) < *next)) next = st.dbl(0);
        st.reset();
    }
    return next;
}

}  // namespace frontier
