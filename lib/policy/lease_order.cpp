#include "policy/lease_order.hpp"

namespace frontier {

bool LeaseOrder::from_index(int64_t qid, double best, int64_t served) {
    cur_best_ = best;
    cur_served_ = served;
    if (!loaded_.insert(qid).second) return false;
    heap_.push({best, served, qid});
    return true;
}

void LeaseOrder::activated(int64_t qid, double best, int64_t served) {
    // An inactive queue is never among the candidates, so it is pushed even
    // when this batch leased from it before rotating it out: with
    // --per-queue above 1 the rotation goes on within one batch.
    loaded_.insert(qid);
    auto k = taken_.find(qid);
    double discount = k == taken_.end() ? 0 : discount_ * static_cast<double>(k->second);
    heap_.push({best + discount, served, qid});
}

LeaseOrder::Step LeaseOrder::next(QueueCandidate& c) {
    // Load the next page while an unloaded queue could come first: its
    // (best, served) is past the last loaded one, so compare both.
    if (!index_done_ && (heap_.empty() || heap_.top().eff > cur_best_ ||
                         (heap_.top().eff == cur_best_ && heap_.top().served > cur_served_)))
        return Step::load_page;
    if (heap_.empty()) return Step::empty;
    c = heap_.top();
    heap_.pop();
    return taken_[c.qid] >= per_queue_ ? Step::skip : Step::take;
}

void LeaseOrder::push_back_deferred() {
    for (const QueueCandidate& d : deferred_) heap_.push(d);
    deferred_.clear();
}

void LeaseOrder::class_missing(const QueueCandidate& c) {
    deferred_.push_back(c);
    if (++force_misses_ >= kClassScan) {
        force_off_ = true;
        push_back_deferred();
    }
}

bool LeaseOrder::stop_forcing() {
    if (wanted_class() < 0 || deferred_.empty()) return false;
    force_off_ = true;
    push_back_deferred();
    return true;
}

void LeaseOrder::leased(const QueueCandidate& c, int cls, bool more, double best, int64_t served) {
    if (alternate_ && cls >= 0) {
        int wanted = wanted_class();
        run_ = after_class_lease(run_, cls);
        run_changed_ = true;
        if (cls == wanted) {  // the other class had work: the deferred queues compete again
            push_back_deferred();
            force_misses_ = 0;
        }
    }
    int64_t& k = taken_[c.qid];
    ++k;
    if (k < per_queue_ && more) heap_.push({best + discount_ * static_cast<double>(k), served, c.qid});
    else if (more)
        capped_with_more_ = true;
}

LeaseStatus empty_lease_status(int64_t workable, int64_t retired_queued) {
    if (workable > 0) return LeaseStatus::not_ready;
    return retired_queued > 0 ? LeaseStatus::paused : LeaseStatus::finished;
}

}  // namespace frontier
