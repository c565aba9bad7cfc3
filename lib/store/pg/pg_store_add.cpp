// The PostgreSQL store's side of frontier-add (pg_store.hpp): the URL rows
// of a chunk's fingerprints read in one statement, the queue and host rows
// its new URLs need read or made for the chunk at once, and new URL rows
// inserted in batches (frontier(7), POSTGRESQL).
#include <algorithm>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>

#include "core/error.hpp"
#include "store/pg/pg_store.hpp"
#include "store/pg/pg_sql.hpp"

namespace frontier {

namespace {

// The rows of many fingerprints (a PostgreSQL array): each table's index
// probed for all keys at once (`= ANY`), then urls per id found: less
// server time than a probe per key (unnest, then a LATERAL probe of each
// table), which the planner runs as a memoized bitmap scan per key. Run
// with sequential scans off
// (kIndexOnly): a plan made while a table was small scans it whole, and the
// server keeps a statement's plan as its tables grow.
std::string known_by_fps() {
    const std::string& known = known_url_columns();
    std::string ids;
    for (const char* t : {"url_fps", "url_fps_new"}) {
        if (!ids.empty()) ids += " UNION ALL ";
        ids += std::string("SELECT id FROM ") + t + " WHERE fp = ANY(CAST(?1 AS bigint[]))";
    }
    return "SELECT u.* FROM (" + ids + ") AS f, LATERAL (SELECT " + known +
           " FROM urls WHERE urls.id = f.id OFFSET 0) AS u";
}
const char* const kIndexOnly = "SET LOCAL enable_seqscan = off";
// The new URL columns' arrays unnested (parameters ?1 to ?18, in
// SQL_NEW_URL_COLUMNS' order).
std::string new_url_arrays() {
    static const char* const kTypes[kNewUrlColumns] = {
        "bigint", "text", "bigint", "bigint", "float8", "float8", "bigint", "float8", "bigint",
        "bigint", "bigint", "text", "text", "text", "text", "bigint", "float8", "float8"};
    std::string sql;
    for (int i = 0; i < kNewUrlColumns; ++i)
        sql += std::string(i ? ", " : "") + "unnest(?" + std::to_string(i + 1) + "::" + kTypes[i] + "[])";
    return sql;
}
const char* const kIndexOnlyEnd = "SET LOCAL enable_seqscan TO DEFAULT";


}  // namespace

void PgStoreBackend::probe_fps(Store::Impl& m, const std::vector<uint64_t>& fps) {
    static const std::string known_by_fps_sql = known_by_fps();
    if (fps.empty()) return;
    batch_inserts_ = true;
    // Rows not yet inserted: before the probe when it looks for one of them,
    // else behind it, so the server inserts them while this chunk is added
    // (frontier-add's CPU and the server's beside each other).
    const bool behind = std::none_of(fps.begin(), fps.end(),
                                     [this](uint64_t fp) { return pending_fps_.count(static_cast<int64_t>(fp)); });
    if (!behind) flush_pending_urls();
    // One parameter, one round trip for the whole chunk.
    PgArray arr;
    for (uint64_t fp : fps) {
        arr.add(static_cast<int64_t>(fp));
        m.urls.prefetched.try_emplace(static_cast<int64_t>(fp));
    }
    // Sent with the probe: no round trip of their own. Beside other
    // writers, new rows take their ids from the sequence instead.
    Stmt* last_id = last_url_id_ || m.in_partitions ? nullptr : &st_.q(last_url_id_sql());
    if (last_id) last_id->send();
    st_.q(kIndexOnly).exec();
    Stmt& f = st_.q(known_by_fps_sql.c_str());
    f.bind(1, arr).send();
    flush_pending_urls(true);
    while (f.step()) m.urls.prefetched[known_url_fp(f)].push_back(read_known_url(f));
    f.reset();
    if (last_id) read_last_url_id(*last_id);
    st_.q(kIndexOnlyEnd).exec();
}

// A new URL: one array per column while probe_fingerprints batches, else
// one statement that inserts its row and its fingerprint pair.
void PgStoreBackend::insert_url(Store::Impl& m, const NewUrl& row) {
    if (!batch_inserts_) {
#define INSERT_URL "INSERT INTO urls(" SQL_NEW_URL_COLUMNS ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
        Stmt& ins = st_.q("WITH n AS (" INSERT_URL " RETURNING fp, id) "
                          "INSERT INTO url_fps_new(fp, id) SELECT fp, id FROM n");
#undef INSERT_URL
        row.columns([&](int i, const auto& v) { ins.bind(i, v); });
        ins.exec();
        return;
    }
    pending_cols_.resize(NewUrl::kColumns);
    row.columns([&](int i, const auto& v) {
        PgArray& col = pending_cols_[i - 1];
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::optional<std::string_view>>)
            col.add_text(v.value_or(std::string_view()), !v);
        else
            col.add(v);
    });
    // Beside other writers (in partitions) the ids come from the sequence.
    pending_in_parts_ = m.in_partitions;
    if (!m.in_partitions) {
        if (!last_url_id_) read_last_url_id(st_.q(last_url_id_sql()));
        pending_ids_.add(++*last_url_id_);
    }
    pending_fps_.insert(static_cast<int64_t>(row.r.fp));
    if (++pending_rows_ >= kPendingRows) flush_pending_urls();
}

// Batched inserts: the largest URL id so far (the identity sequence's last
// value, or a larger id stored by hand), read in the transaction's first
// fingerprint probe. Every insert into urls runs under the writer lock
// (frontier(7), POSTGRESQL), so the ids after it are this transaction's to
// give; flush_pending_urls moves the sequence past them.
const char* PgStoreBackend::last_url_id_sql() {
    if (last_url_id_text_.empty())
        last_url_id_text_ = "SELECT greatest((" + st_.db.id_sequence_last_sql("urls") +
                            "), (SELECT coalesce(max(id), 0) FROM urls))";
    return last_url_id_text_.c_str();
}

void PgStoreBackend::flush_pending_urls(bool behind) {
    if (pending_rows_ == 0) return;
    // With each row, its fingerprint and id in url_fps_new (frontier(7), FILE
    // FORMAT), the ids given here: one statement, no RETURNING rows between
    // the two inserts.
    // The arrays unnested in the select list, read as they go: zipped as
    // unnest(a, b, ...) in FROM, each array would be copied first.
    if (insert_urls_text_.empty()) {
        const std::string columns = new_url_arrays();
        insert_urls_text_ = "WITH a AS (INSERT INTO urls(id, " SQL_NEW_URL_COLUMNS ") SELECT unnest(?19::bigint[]), " +
                            columns + "), b AS (INSERT INTO url_fps_new(fp, id) SELECT unnest(?1::bigint[]), "
                            "unnest(?19::bigint[])) SELECT " + st_.db.id_sequence_set_sql("urls", "?20");
        // In partitions: no ids given, each row's pair made from what it returns.
        insert_urls_seq_text_ = "WITH a AS (INSERT INTO urls(" SQL_NEW_URL_COLUMNS ") SELECT " + columns +
                                " RETURNING fp, id) INSERT INTO url_fps_new(fp, id) SELECT fp, id FROM a";
    }
    Stmt& ins = st_.q((pending_in_parts_ ? insert_urls_seq_text_ : insert_urls_text_).c_str());
    for (size_t i = 0; i < pending_cols_.size(); ++i) ins.bind(static_cast<int>(i) + 1, pending_cols_[i]);
    if (!pending_in_parts_) ins.bind(kNewUrlColumns + 1, pending_ids_).bind(kNewUrlColumns + 2, *last_url_id_);
    if (behind)
        ins.exec_behind();
    else
        ins.exec();
    for (auto& c : pending_cols_) c.clear();
    pending_ids_.clear();
    pending_rows_ = 0;
    pending_fps_.clear();
}

void PgStoreBackend::rolled_back() {
    lease_writes_.clear();
    link_queues_.clear();
    link_locks_.clear();
    robots_hosts_.clear();
    unheld_links_ = nullptr;
    locked_keys_.clear();
    pending_cols_.clear();
    pending_ids_.clear();
    last_url_id_.reset();
    pending_rows_ = 0;
    pending_fps_.clear();
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

// The seed domains among some domains, one index probe each.
const char* const kSeedDomainsIn =
    "SELECT k.key, 1 FROM unnest(CAST(? AS TEXT[])) AS k(key), LATERAL (SELECT 1 FROM seed_domains "
    "WHERE seed_domains.domain = k.key OFFSET 0) AS t";

// These keys' rows, sent: their rows come with the next read's round trip.
Stmt* send_keys(Store::Impl& m, const char* sql, const std::vector<std::string>& keys) {
    if (keys.empty()) return nullptr;
    PgArray arr;
    for (const std::string& k : keys) arr.add_text(k, false);
    Stmt& st = m.q(sql);
    st.bind(1, arr).send();
    return &st;
}

// Of `keys`, those `cached` does not know, each once.
template <class Cached>
std::vector<std::string> uncached(const std::vector<std::string>& keys, Cached&& cached) {
    std::vector<std::string> out;
    std::unordered_set<std::string_view> asked;
    for (const std::string& k : keys)
        if (!cached(k) && asked.insert(k).second) out.push_back(k);
    return out;
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

// The stored rows of these fingerprints (Store::prefetch_for_add) and, in
// the same round trip, the host and queue rows of `reqs` not cached; then
// the rows that the new URLs among `reqs` need and are not stored are
// created (one round trip more; with budget.hold-queues one for the FIFO
// sequence first), as queue_id_for and host_id_for would one at a time,
// in the same order.
void PgStoreBackend::probe_fingerprints(Store& store, Store::Impl& m, const std::vector<uint64_t>& fps,
                                        const std::vector<const AddRequest*>& reqs) {
    // A record may still be rejected for a full frontier: its rows are made
    // as it is added, not before.
    if (reqs.empty() || store.settings().max_queued >= 0) return probe_fps(m, fps);
    std::vector<std::string> queues, hosts;  // not cached, each once
    std::unordered_set<std::string_view> asked_q, asked_h;
    for (const AddRequest* r : reqs) {
        if (const Store::Impl::HostQueue* hq = m.host_queues.find(r->host_key); hq && hq->serves(r->queue_key))
            continue;
        if (!m.queue_ids.contains(r->queue_key) && asked_q.insert(r->queue_key).second)
            queues.push_back(r->queue_key);
        if (!m.host_ids.contains(r->host_key) && asked_h.insert(r->host_key).second)
            hosts.push_back(r->host_key);
    }
    Stmt* qs = send_keys(m, kQueueIdsByKey.c_str(), queues);
    Stmt* hs = send_keys(m, kHostIdsByName.c_str(), hosts);
    probe_fps(m, fps);
    std::unordered_set<std::string> found_q, found_h;
    read_ids(qs, &found_q, [&m](const std::string& k, int64_t id) { m.queue_ids.put(k, id); });
    read_ids(hs, &found_h, [&m](const std::string& k, int64_t id) { m.host_ids.put(k, id); });
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
    if (!new_q.empty() || !new_h.empty()) create_rows(m, new_q, new_h, store.settings());
}

// Links' rows: the URL rows of their fingerprints, and, in the same round
// trip, their queue and host ids and seed-domain marks not cached.
void PgStoreBackend::probe_links(Store::Impl& m, const std::vector<uint64_t>& fps, const LinkRows& rows) {
    Stmt* qs = send_keys(m, kQueueIdsByKey.c_str(),
                         uncached(rows.queue_keys, [&m](const std::string& k) { return m.queue_ids.contains(k); }));
    Stmt* hs = send_keys(m, kHostIdsByName.c_str(),
                         uncached(rows.host_keys, [&m](const std::string& k) { return m.host_ids.contains(k); }));
    const std::vector<std::string> domains = uncached(rows.domains, [&m](const std::string& k) {
        return m.seed_domains.contains(k) || m.other_domains.contains(k);
    });
    Stmt* ds = send_keys(m, kSeedDomainsIn, domains);
    probe_fps(m, fps);
    read_ids(qs, nullptr, [&m](const std::string& k, int64_t id) { m.queue_ids.put(k, id); });
    read_ids(hs, nullptr, [&m](const std::string& k, int64_t id) { m.host_ids.put(k, id); });
    std::unordered_set<std::string> seeds;
    read_ids(ds, &seeds, [&m](const std::string& k, int64_t) { m.seed_domains.insert(k); });
    for (const std::string& d : domains)
        if (!seeds.count(d)) m.other_domains.insert(d);
}

// New queue and host rows for these keys (none stored), in one round trip
// (with budget.hold-queues, one more first: their places in the FIFO).
void PgStoreBackend::create_rows(Store::Impl& m, const std::vector<std::string>& queues,
                                 const std::vector<std::string>& hosts, const Settings& s) {
    Stmt* hs = nullptr;
    if (!hosts.empty()) {
        PgArray names;
        for (const std::string& h : hosts) names.add_text(h, false);
        hs = &st_.q("INSERT INTO hosts(name) SELECT * FROM unnest(CAST(? AS TEXT[])) RETURNING name, id");
        hs->bind(1, names).send();
    }
    Stmt* qs = nullptr;
    if (!queues.empty()) {
        const bool hold = s.hold_queues;
        int64_t seq = 0;  // their places in the FIFO follow it
        if (hold) {
            Stmt& st = st_.q("UPDATE meta SET value = value + ? WHERE key = 'fifo_seq' RETURNING value");
            st.bind(1, static_cast<int64_t>(queues.size()));
            if (!st.step()) throw DbError("missing meta key fifo_seq");
            seq = st.i64(0) - static_cast<int64_t>(queues.size());
            st.reset();
        }
        PgArray keys, states, seqs, balances, created;
        for (const std::string& k : queues) {
            const Store::Impl::NewQueue row = m.new_queue(k, hold, ++seq);
            keys.add_text(k, false);
            states.add(row.state);
            seqs.add(row.seq);
            balances.add(row.balance);
            created.add(m.now);
        }
        qs =
            &st_.q("INSERT INTO queues(key, state, sched, inactive_seq, session_balance, created_at) "
               "SELECT k, st, 2, seq, bal, at FROM unnest(CAST(? AS TEXT[]), CAST(? AS bigint[]), "
               "CAST(? AS bigint[]), CAST(? AS bigint[]), CAST(? AS float8[])) AS v(k, st, seq, bal, at) "
               "RETURNING key, id");
        qs->bind(1, keys).bind(2, states).bind(3, seqs).bind(4, balances).bind(5, created).send();
    }
    read_ids(hs, nullptr, [&m](const std::string& k, int64_t id) { m.host_ids.put(k, id); });
    if (!qs) return;
    PgArray ids;
    while (qs->step()) {
        m.queue_ids.put(qs->str(0), qs->i64(1));
        ids.add(qs->i64(1));
    }
    qs->reset();
    st_.q("UPDATE queues SET served = queues.id - ?2 FROM unnest(CAST(?1 AS bigint[])) AS v(id) "
      "WHERE queues.id = ANY(ARRAY[v.id])")
        .bind(1, ids)
        .bind(2, kNewServedOffset)
        .exec();
    m.count("queues", static_cast<int64_t>(ids.size()));
}

}  // namespace frontier
