// The Store methods the sessions of lib/frontier/ use (store.hpp,
// "sessions"): each backend's way of starting a batch
// (lib/store/store_backend.hpp).

#include "store/store_impl.hpp"

namespace frontier {

size_t Store::records_read_together() const { return impl_->backend->records_read_together(); }

void Store::begin_result_batch(double now, bool in_partitions, BatchLocks locks) {
    if (in_partitions) impl_->backend->lock_batch(std::move(locks));
    impl_->backend->begin_result_batch(*this, *impl_, now, in_partitions);
}

bool Store::link_queues_held() { return impl_->backend->link_queues_held(); }

bool Store::results_in_partitions() const { return impl_->backend->partitions_on(); }

bool Store::settle_result_batch(double now) { return impl_->backend->settle_result_batch(*this, *impl_, now); }

}  // namespace frontier
