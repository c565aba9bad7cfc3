// Settings the store tests share (tests/tools/throughput.bash is the shell
// side): no politeness delays, up to 100 leases out per queue.
#pragma once

#include "store/store.hpp"

inline void politeness_off(frontier::Store& store) {
    store.set_setting("politeness.min-delay", "0");
    store.set_setting("politeness.delay-factor", "0");
    store.set_setting("politeness.max-in-flight", "100");
}
