// The host and queue rows of added URLs: found by key, or created, one
// URL at a time (ids_for); a backend may read or make them for a chunk of
// URLs at once (StoreBackend::probe_fingerprints).
#include <string_view>
#include <unordered_set>

#include "store/store.hpp"
#include "store/store_impl.hpp"

namespace frontier {

// A new queue's row (frontier(7), BUDGETS): with hold-queues it starts
// inactive, at the back of the FIFO (`seq`: its place), without a session
// budget; else active, with its replenish.
Store::Impl::NewQueue Store::Impl::new_queue(const std::string& key, bool hold, int64_t seq) {
    if (hold) return {static_cast<int64_t>(QueueState::inactive), seq, 0};
    return {static_cast<int64_t>(QueueState::active), std::nullopt, settings.budget_for(key).replenish};
}

int64_t Store::Impl::queue_id_for(const std::string& key, const Settings& s) {
    if (const int64_t* id = queue_ids.find(key)) return *id;
    std::optional<int64_t> id = statements.find_id("SELECT id FROM queues WHERE key = ?", key);
    if (!id) {
        const NewQueue row = new_queue(key, s.hold_queues, s.hold_queues ? statements.meta_next("fifo_seq") : 0);
        Stmt& ins =
            q("INSERT INTO queues(key, state, sched, inactive_seq, session_balance, created_at) "
              "VALUES (?, ?, 2, ?, ?, ?) RETURNING id");
        ins.bind(1, key).bind(2, row.state).bind(3, row.seq).bind(4, row.balance).bind(5, now);
        if (!ins.step()) throw DbError("cannot create queue " + key);
        id = ins.i64(0);
        ins.reset();
        q("UPDATE queues SET served = ? WHERE id = ?").bind(1, *id - kNewServedOffset).bind(2, *id).exec();
        count("queues", 1);
    }
    queue_ids.put(key, *id);
    return *id;
}

int64_t Store::Impl::host_id_for(const std::string& name) {
    if (const int64_t* id = host_ids.find(name)) return *id;
    std::optional<int64_t> id = statements.find_id("SELECT id FROM hosts WHERE name = ?", name);
    if (!id) {
        Stmt& ins = q("INSERT INTO hosts(name) VALUES (?) RETURNING id");
        ins.bind(1, name);
        if (!ins.step()) throw DbError("cannot create host " + name);
        id = ins.i64(0);
        ins.reset();
    }
    host_ids.put(name, *id);
    return *id;
}

std::pair<int64_t, int64_t> Store::Impl::ids_for(const std::string& host_key, const std::string& queue_key,
                                                 const Settings& s) {
    if (const HostQueue* hq = host_queues.find(host_key); hq && hq->serves(queue_key))
        return {hq->host_id, hq->queue_id};
    int64_t qid = queue_id_for(queue_key, s);
    int64_t hid = host_id_for(host_key);
    host_queues.put(host_key, HostQueue{hid, qid, HostQueue::hash(queue_key)});
    return {hid, qid};
}

void Store::prefetch_for_add(const std::vector<uint64_t>& fps, const std::vector<const AddRequest*>& reqs) {
    impl_->backend->probe_fingerprints(*this, *impl_, fps, reqs);
}

void Store::prefetch_links(const std::vector<uint64_t>& fps, const LinkRows& rows) {
    impl_->backend->probe_links(*impl_, fps, rows);
}

}  // namespace frontier
