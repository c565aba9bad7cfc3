// A queue's next URLs (heads) for Store::lease (store_lease.cpp): read one
// at a time (over the backend's lease order, StoreBackend::next_head_sql),
// or taken from the lists the PostgreSQL lease prefetches
// (lib/store/pg/pg_lease_heads.cpp).
#include <algorithm>
#include <deque>
#include <string>
#include <unordered_set>
#include <vector>

#include "policy/lease_order.hpp"
#include "policy/priority.hpp"
#include "store/lease_heads_sql.hpp"
#include "store/lease_run.hpp"
#include "store/sql_codes.hpp"
#include "store/sql_columns.hpp"
#include "store/store_impl.hpp"

namespace frontier {

// The heads read per queue of a page: --per-queue, at most 8, + 1.
int64_t Store::LeaseRun::page_head_limit(const LeaseRequest& req) {
    return std::min<int64_t>(std::max<int64_t>(req.per_queue, 1), 8) + 1;
}

int64_t Store::LeaseRun::refill_limit(int64_t cap) const {
    return std::min({std::max<int64_t>(req.per_queue, 1), std::max<int64_t>(left_to_take(), 1), cap}) + 1;
}

// The queue's next due URL: its prefetched head, or read now. `cls` >= 0:
// only a URL of that class (alternation), read apart from the prefetched
// heads (which are of every class). None: the queue has no such URL (when
// it has none at all, it is rescheduled; when only the class is missing,
// class_missing is set and nothing changes). `settle` false: a peek, which
// changes nothing when the queue has no URL left.
std::optional<LeaseHead> Store::LeaseRun::next_head(QueueInfo& qi, int cls, bool& from_pre, bool settle) {
    auto pre = heads.find(qi.id);
    bool none_left = false;
    if (cls < 0 && pre != heads.end()) {
        if (pre->second.empty()) refill(qi.id);
        from_pre = !pre->second.empty();
        if (from_pre) return pre->second.front();
        none_left = complete.count(qi.id) > 0;
    }
    Stmt* q = nullptr;
    if (!none_left) {
        const NextSql& next = m.backend->next_head_sql();
        q = &m.q((cls >= 0 ? next.in_scan : req.url_class.empty() ? next.all : next.of_class).c_str());
        q->bind(1, qi.id);
        if (cls >= 0)
            q->bind(2, cls);
        else if (!req.url_class.empty())
            q->bind(2, class_code(req.url_class));
    }
    if (none_left || !q->step()) {
        if (q) q->reset();
        if (cls >= 0) {
            class_missing = true;
            return std::nullopt;
        }
        if (!settle) return std::nullopt;
        m.queues.refresh_best(qi.id);
        m.queues.reschedule(qi.id);
        forget_row(qi.id);
        return std::nullopt;
    }
    LeaseHead h = read_head(*q, 0);
    q->reset();
    return h;
}

// The head leaves the queue's prefetched list once its URL is leased or
// ended; a robots.txt prerequisite or a held host keeps it.
void Store::LeaseRun::consume(int64_t qid, int64_t url_id, bool from_pre) {
    auto pre = heads.find(qid);
    if (pre == heads.end()) return;
    auto& l = pre->second;
    if (from_pre) {
        const LeaseHead& h = l.front();
        taken_key[qid] = key_of(h);
        l.pop_front();
        return;
    }
    taken_key.erase(qid);
    taken_aside.insert(qid);
    for (auto i = l.begin(); i != l.end(); ++i)
        if (i->id == url_id) {
            l.erase(i);
            return;
        }
}

}  // namespace frontier
