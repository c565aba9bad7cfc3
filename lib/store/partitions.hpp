// Private to the storage module (lib/store/): the partitions of a frontier's
// queues. Writers that run beside each other (Store::begin(true); on
// PostgreSQL, frontier(7), POSTGRESQL) each hold some partitions and write
// only their queues.
#pragma once

#include <cstdint>

namespace frontier {

inline constexpr int64_t kQueuePartitions = 1024;

inline int64_t queue_partition(int64_t queue_id) { return queue_id % kQueuePartitions; }

}  // namespace frontier
