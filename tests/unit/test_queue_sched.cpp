// A queue's place in the schedule two ways: queue_sched (the policy, plain
// code) and queue_sched_sql (the same rule in SQL, which frontier-done's
// queue UPDATEs use to reschedule without reading the row back). Both are
// evaluated over every combination of their inputs, the SQL by SQLite.
#include <catch2/catch.hpp>
#include <string>

#include "policy/lease_order.hpp"
#include "store/db.hpp"
#include "store/sql_codes.hpp"
#include "temp_dir.hpp"

using namespace frontier;

TEST_CASE("queue_sched_sql decides as queue_sched", "[store][sched]") {
    TempDir dir;
    auto db = Db::open(dir.path + "/f.db", true);
    // The parameters as the UPDATEs bind them: state, best (NULL: none),
    // in-flight count, wake time; then max-in-flight and the clock.
    Stmt st = db->prepare("SELECT " + queue_sched_sql("?1", "?2", "?3", "?4", "?5", "?6"));
    const double now = 1000;
    int cases = 0;
    for (int state : {0, 1, 2, 3})
        for (bool has_best : {false, true})
            for (int64_t in_flight : {0, 1, 2, 3})
                for (int64_t max_in_flight : {0, 1, 2})
                    for (double wake_at : {0.0, now - 1, now, now + 0.5, now + 100}) {
                        st.bind(1, state);
                        if (has_best)
                            st.bind(2, 0.25);
                        else
                            st.bind_null(2);
                        st.bind(3, in_flight).bind(4, wake_at).bind(5, max_in_flight).bind(6, now);
                        REQUIRE(st.step());
                        QueueSched want = queue_sched(state == static_cast<int>(QueueState::active), has_best,
                                                      in_flight, max_in_flight, wake_at, now);
                        INFO("state " << state << " best " << has_best << " in_flight " << in_flight
                                      << " max " << max_in_flight << " wake_at " << wake_at);
                        CHECK(st.i64(0) == static_cast<int>(want));
                        st.reset();
                        ++cases;
                    }
    CHECK(cases == 4 * 2 * 4 * 3 * 5);
}
