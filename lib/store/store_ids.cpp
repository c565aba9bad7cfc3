// The host and queue rows of added URLs: found by key, or created, one
// URL at a time (ids_for) or, where each read is a round trip
// (PostgreSQL), for a chunk of URLs at once (Store::prefetch_for_add).
#include <string_view>
#include <unordered_set>

#include "store/store.hpp"
#include "store/store_impl.hpp"

namespace frontier {

namespace {
// A new queue's `served` mark is its id less this: unique and negative, so
// never-served queues take turns in creation order, and (best, served)
// stays a unique key of the ready index.
constexpr int64_t kNewServedOffset = int64_t{1} << 40;
}  // namespace

// A new queue's row (frontier(7), BUDGETS): with hold-queues it starts
// inactive, at the back of the FIFO (`seq`: its place), without a session
// budget; else active, with its replenish.
Store::Impl::NewQueue Store::Impl::new_queue(const std::string& key, bool hold, int64_t seq) {
    if (hold) return {static_cast<int64_t>(QueueState::inactive), seq, 0};
    return {static_cast<int64_t>(QueueState::active), std::nullopt, settings.budget_for(key).replenish};
}

// The id caches are bounded: cleared when full (queues and hosts are never
// deleted, so what they hold stays true).
void Store::Impl::remember_queue(const std::string& key, int64_t id) {
    if (queue_ids.size() >= kIdCacheMax) queue_ids.clear();  // bounded memory on huge frontiers
    queue_ids.insert_or_assign(key, id);
}

void Store::Impl::remember_host(const std::string& name, int64_t id) {
    if (host_ids.size() >= kIdCacheMax) host_ids.clear();
    host_ids.insert_or_assign(name, id);
}

int64_t Store::Impl::queue_id_for(const std::string& key, const Settings& s) {
    if (auto it = queue_ids.find(key); it != queue_ids.end()) return it->second;
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
    remember_queue(key, *id);
    return *id;
}

int64_t Store::Impl::host_id_for(const std::string& name) {
    if (auto it = host_ids.find(name); it != host_ids.end()) return it->second;
    std::optional<int64_t> id = statements.find_id("SELECT id FROM hosts WHERE name = ?", name);
    if (!id) {
        Stmt& ins = q("INSERT INTO hosts(name) VALUES (?) RETURNING id");
        ins.bind(1, name);
        if (!ins.step()) throw DbError("cannot create host " + name);
        id = ins.i64(0);
        ins.reset();
    }
    remember_host(name, *id);
    return *id;
}

std::pair<int64_t, int64_t> Store::Impl::ids_for(const std::string& host_key, const std::string& queue_key,
                                                 const Settings& s) {
    if (auto it = host_queues.find(host_key); it != host_queues.end() && it->second.queue_key == queue_key)
        return {it->second.host_id, it->second.queue_id};
    int64_t qid = queue_id_for(queue_key, s);
    int64_t hid = host_id_for(host_key);
    if (host_queues.size() >= kIdCacheMax) host_queues.clear();
    host_queues.insert_or_assign(host_key, HostQueue{hid, qid, queue_key});
    return {hid, qid};
}

namespace {
// The ids of stored rows by key, one index probe per key (as probe_each_sql).
std::string ids_by_key_sql(const char* table, const char* key) {
    return std::string(
               "SELECT k.key, t.id FROM unnest(CAST(? AS TEXT[])) AS k(key), LATERAL (SELECT id FROM ") +
           table + " WHERE " + table + "." + key + " = k.key OFFSET 0) AS t";
}
const std::string kQueueIdsByKey = ids_by_key_sql("queues", "key");
const std::string kHostIdsByName = ids_by_key_sql("hosts", "name");

// A URL the fingerprint prefetch found stored (the same text): no new row.
bool stored(const std::unordered_map<int64_t, std::vector<KnownUrl>>& prefetched, const AddRequest& r) {
    auto it = prefetched.find(static_cast<int64_t>(r.fp));
    if (it == prefetched.end()) return false;
    for (const KnownUrl& k : it->second)
        if (k.url == r.url.url) return true;
    return false;
}

// Reads "key, id" rows into the cache (`remember`), noting the keys found
// (where `found` is given).
template <class Remember>
void read_ids(Stmt* st, std::unordered_set<std::string>* found, Remember&& remember) {
    if (!st) return;
    while (st->step()) {
        std::string key = st->str(0);
        remember(key, st->i64(1));
        if (found) found->insert(std::move(key));
    }
    st->reset();
}
}  // namespace

// The stored rows of these fingerprints (prefetch_fingerprints) and, in
// the same round trip, the host and queue rows of `reqs` not cached; then
// the rows that the new URLs among `reqs` need and are not stored are
// created (one round trip more; with budget.hold-queues one for the FIFO
// sequence first), as queue_id_for and host_id_for would one at a time,
// in the same order.
void Store::prefetch_for_add(const std::vector<uint64_t>& fps, const std::vector<const AddRequest*>& reqs) {
    Impl& m = *impl_;
    if (!db_->statements_are_round_trips()) return;
    // A record may still be rejected for a full frontier: its rows are made
    // as it is added, not before.
    if (reqs.empty() || settings().max_queued >= 0) return prefetch_fingerprints(fps);
    std::vector<std::string> queues, hosts;  // not cached, each once
    std::unordered_set<std::string_view> asked_q, asked_h;
    for (const AddRequest* r : reqs) {
        if (auto it = m.host_queues.find(r->host_key);
            it != m.host_queues.end() && it->second.queue_key == r->queue_key)
            continue;
        if (!m.queue_ids.count(r->queue_key) && asked_q.insert(r->queue_key).second)
            queues.push_back(r->queue_key);
        if (!m.host_ids.count(r->host_key) && asked_h.insert(r->host_key).second)
            hosts.push_back(r->host_key);
    }
    auto send = [&m](const std::string& sql, const std::vector<std::string>& keys) -> Stmt* {
        if (keys.empty()) return nullptr;
        PgArray arr;
        for (const std::string& k : keys) arr.add_text(k, false);
        Stmt& st = m.q(sql.c_str());
        st.bind(1, arr).send();  // its rows come with the fingerprints' round trip
        return &st;
    };
    Stmt* qs = send(kQueueIdsByKey, queues);
    Stmt* hs = send(kHostIdsByName, hosts);
    prefetch_fingerprints(fps);
    std::unordered_set<std::string> found_q, found_h;
    read_ids(qs, &found_q, [&m](const std::string& k, int64_t id) { m.remember_queue(k, id); });
    read_ids(hs, &found_h, [&m](const std::string& k, int64_t id) { m.remember_host(k, id); });
    // Of those not stored, the rows a new URL goes to, in input order.
    std::vector<std::string> new_q, new_h;
    std::unordered_set<std::string_view> made_q, made_h;
    for (const AddRequest* r : reqs) {
        if (stored(m.urls.prefetched, *r)) continue;
        if (asked_q.count(r->queue_key) && !found_q.count(r->queue_key) && made_q.insert(r->queue_key).second)
            new_q.push_back(r->queue_key);
        if (asked_h.count(r->host_key) && !found_h.count(r->host_key) && made_h.insert(r->host_key).second)
            new_h.push_back(r->host_key);
    }
    if (!new_q.empty() || !new_h.empty()) m.create_rows(new_q, new_h, settings());
}

// New queue and host rows for these keys (none stored), in one round trip
// (with budget.hold-queues, one more first: their places in the FIFO).
void Store::Impl::create_rows(const std::vector<std::string>& queues, const std::vector<std::string>& hosts,
                              const Settings& s) {
    Stmt* hs = nullptr;
    if (!hosts.empty()) {
        PgArray names;
        for (const std::string& h : hosts) names.add_text(h, false);
        hs = &q("INSERT INTO hosts(name) SELECT * FROM unnest(CAST(? AS TEXT[])) RETURNING name, id");
        hs->bind(1, names).send();
    }
    Stmt* qs = nullptr;
    if (!queues.empty()) {
        const bool hold = s.hold_queues;
        int64_t seq = 0;  // their places in the FIFO follow it
        if (hold) {
            Stmt& st = q("UPDATE meta SET value = value + ? WHERE key = 'fifo_seq' RETURNING value");
            st.bind(1, static_cast<int64_t>(queues.size()));
            if (!st.step()) throw DbError("missing meta key fifo_seq");
            seq = st.i64(0) - static_cast<int64_t>(queues.size());
            st.reset();
        }
        PgArray keys, states, seqs, balances, created;
        for (const std::string& k : queues) {
            const NewQueue row = new_queue(k, hold, ++seq);
            keys.add_text(k, false);
            states.add(row.state);
            seqs.add(row.seq);
            balances.add(row.balance);
            created.add(now);
        }
        qs =
            &q("INSERT INTO queues(key, state, sched, inactive_seq, session_balance, created_at) "
               "SELECT k, st, 2, seq, bal, at FROM unnest(CAST(? AS TEXT[]), CAST(? AS bigint[]), "
               "CAST(? AS bigint[]), CAST(? AS bigint[]), CAST(? AS float8[])) AS v(k, st, seq, bal, at) "
               "RETURNING key, id");
        qs->bind(1, keys).bind(2, states).bind(3, seqs).bind(4, balances).bind(5, created).send();
    }
    read_ids(hs, nullptr, [this](const std::string& k, int64_t id) { remember_host(k, id); });
    if (!qs) return;
    PgArray ids;
    while (qs->step()) {
        remember_queue(qs->str(0), qs->i64(1));
        ids.add(qs->i64(1));
    }
    qs->reset();
    q("UPDATE queues SET served = queues.id - ?2 FROM unnest(CAST(?1 AS bigint[])) AS v(id) "
      "WHERE queues.id = ANY(ARRAY[v.id])")
        .bind(1, ids)
        .bind(2, kNewServedOffset)
        .exec();
    count("queues", static_cast<int64_t>(ids.size()));
}

}  // namespace frontier
