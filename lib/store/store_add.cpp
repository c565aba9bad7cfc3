// Store::add_url: dedup over the whole history (fingerprint tables, with the
// URL text compared so a fingerprint collision never drops a distinct URL),
// updates of known URLs, and inserts.
#include <algorithm>
#include <cmath>

#include "policy/lease_policy.hpp"
#include "policy/priority.hpp"
#include "policy/readd.hpp"
#include "policy/recrawl.hpp"
#include "store/store.hpp"
#include "store/sql_columns.hpp"
#include "store/store_impl.hpp"

namespace frontier {

namespace {

// The columns add_url reads of a known URL row, and the row read from them.
#define KNOWN_COLUMNS(X)                                                                                      \
    X(id, "id") X(url, "url") X(state, "state") X(priority, "priority") X(recrawl, "recrawl")                \
    X(last_modified, "last_modified") X(queue_id, "queue_id") X(due_at, "due_at") X(successes, "successes") \
    X(last_success, "last_success") X(next_visit, "next_visit") X(tier, "tier") X(tier_key, "tier_key")      \
    X(fp, "fp")
enum class KnownCol { KNOWN_COLUMNS(SQL_COLUMN_NAME) };
const std::string kKnown = sql_column_list({KNOWN_COLUMNS(SQL_COLUMN_EXPR)});
#define KNOWN_U(column, expr) "u." expr,
const std::string kKnownU = sql_column_list({KNOWN_COLUMNS(KNOWN_U)});
#undef KNOWN_U
#undef KNOWN_COLUMNS
// The rows of a fingerprint (frontier(7), FILE FORMAT): its ids are in url_fps, or,
// added lately, in url_fps_new. Two joins, not `id IN (...)`: SQLite builds
// a temporary table for the latter at every probe.
std::string known_by_fp(const std::string& fp) {
    std::string sql;
    for (const char* t : {"url_fps", "url_fps_new"}) {
        if (!sql.empty()) sql += " UNION ALL ";
        sql += "SELECT " + kKnownU + " FROM " + t + " AS f JOIN urls AS u ON u.id = f.id WHERE f.fp = " + fp;
    }
    return sql;
}
const std::string kKnownByFp = known_by_fp("?1");
KnownUrl read_known(const Stmt& f) {
    using C = KnownCol;
    SqlRow<C> row(f);
    KnownUrl k;
    k.id = row.i64(C::id);
    k.queue_id = row.i64(C::queue_id);
    k.url = row.str(C::url);
    StoredUrl& v = k.stored;
    v.state = static_cast<UrlState>(row.i64(C::state));
    v.priority = row.dbl(C::priority);
    v.recrawl = row.i64(C::recrawl) != 0;
    v.fork = fork_tier(static_cast<int>(row.i64(C::tier)), row.dbl(C::tier_key));
    v.successes = row.i64(C::successes);
    v.last_modified = row.opt_dbl(C::last_modified);
    v.due_at = row.opt_dbl(C::due_at);
    v.last_success = row.opt_dbl(C::last_success);
    v.next_visit = row.opt_dbl(C::next_visit);
    return k;
}


}  // namespace

const std::string& known_url_columns() { return kKnown; }
KnownUrl read_known_url(const Stmt& st) { return read_known(st); }
int64_t known_url_fp(const Stmt& st) { return SqlRow<KnownCol>(st).i64(KnownCol::fp); }

AddResult Store::add_url(const AddRequest& r) {
    Impl& m = *impl_;
    const Settings& s = settings();
    m.now = r.now;
    if (std::optional<KnownUrl> known = m.find_known(r)) return m.add_known(s, r, *known);
    if (s.max_queued >= 0 && count("queued") >= s.max_queued) return {AddStatus::rejected, AddReason::queue_full};
    m.add_new(s, r);
    return {AddStatus::added, {}};
}

// Known URL? Every row with this fingerprint is compared by text.
std::optional<KnownUrl> Store::Impl::find_known(const AddRequest& r) {
    std::optional<KnownUrl> known;
    const int64_t fp = static_cast<int64_t>(r.fp);
    if (auto pre = urls.prefetched.find(fp); pre != urls.prefetched.end()) {
        for (const KnownUrl& k : pre->second)
            if (k.url == r.url.url) known = k;
        // This record may write the row: the next one with this fingerprint
        // reads it again.
        urls.prefetched.erase(pre);
        return known;
    }
    backend->write_new_urls(*this);  // the rows read below include those not yet inserted
    if (urls.seen.proves_unseen(r.fp)) return known;
    for (;;) {
        Stmt& f = q(kKnownByFp.c_str());
        f.bind(1, fp);
        while (f.step()) {
            if (SqlRow<KnownCol>(f).text(KnownCol::url) != r.url.url) continue;
            known = read_known(f);
            break;
        }
        f.reset();
        // frontier-done holds URL-row updates until commit: write this row's
        // first, then read it again (a link to a URL finished earlier in the
        // same transaction).
        if (!known || !urls.updates.holds(known->id)) return known;
        urls.settle(known->id);
        known.reset();
    }
}

// A known URL added again: what readd (lib/policy/readd.hpp) decides, written.
AddResult Store::Impl::add_known(const Settings& s, const AddRequest& r, const KnownUrl& k) {
    Readd d = readd(k.stored, r, s);
    if (!d.changed) return {AddStatus::duplicate, {}};
    urls.prefetched_leases.erase(k.id);  // read again by a result in this transaction
    if (d.recrawl_on) count("revisit:urls", 1);
    UrlState was = k.stored.state;
    if (d.state != was) {  // requeued
        count(url_state_name(was), -1);
        count("queued", 1);
        totals.queue_deltas[k.queue_id].queued += 1;
        if (was == UrlState::done)
            q("UPDATE queues SET done = done - 1 WHERE id = ?").bind(1, k.queue_id).exec();
        else if (was == UrlState::failed)
            q("UPDATE queues SET failed = failed - 1 WHERE id = ?").bind(1, k.queue_id).exec();
    }
    queues.leave_lease_order(k.id);
    q("UPDATE urls SET priority = ?1, rank = ?2, recrawl = ?3, last_modified = ?4, tier = ?5, tier_key = ?6, "
      "state = ?7, due_at = ?8, failures = CASE WHEN ?9 THEN 0 ELSE failures END, reason = CASE WHEN ?9 "
      "THEN NULL ELSE reason END WHERE id = ?10")
        .bind(1, d.priority).bind(2, s.fifo ? 0.0 : d.priority).bind(3, d.recrawl ? 1 : 0).bind(4, d.last_modified)
        .bind(5, d.tier.tier).bind(6, d.tier.key).bind(7, static_cast<int>(d.state)).bind(8, d.due_at)
        .bind(9, d.relisted ? 1 : 0).bind(10, k.id).exec();
    queues.enter_lease_order(k.id);
    if (d.state == UrlState::queued && !d.due_at) {
        queues.refresh_best(k.queue_id);
        totals.queue_deltas[k.queue_id];  // reschedule at flush
    }
    return {AddStatus::updated, {}};
}

// A new URL: its row (now, or batched), the queue's delta and the counters.
void Store::Impl::add_new(const Settings& s, const AddRequest& r) {
    const UrlRecord& rec = r.record;
    // Beside other writers, only a queue whose key the transaction locked
    // may be made or grow (Store::begin_result_batch).
    if (in_partitions && !backend->holds_queue_key(r.queue_key))
        throw DbError("a URL of queue " + r.queue_key + " added in partitions without its key's lock");
    auto [hid, qid] = ids_for(r.host_key, r.queue_key, s);
    NewUrl row{r, qid, hid, s.fifo ? 0.0 : r.priority,
               recrawl_tier({r.recrawl, rec.last_modified, std::nullopt, 0, std::nullopt, rec.visit_now, r.now,
                             rec.fork.value_or(false)}),
               class_code(url_class(rec.type))};
    backend->insert_url(*this, row);
    QueueDelta& d = totals.queue_deltas[qid];
    if (d.key.empty()) d.key = r.queue_key;
    d.queued += 1;
    d.enqueued += 1;
    d.last_url = r.url.url;
    if (!d.min_rank || row.rank < *d.min_rank) d.min_rank = row.rank;
    totals.added += 1;
    urls.fps_buffered += 1;
    totals.depth_added[std::clamp<int64_t>(rec.depth, 0, 3)] += 1;
    if (r.recrawl) count("revisit:urls", 1);
    std::string disc(rec.discovery.empty() ? std::string_view("seed") : canonical_discovery(rec.discovery));
    totals.heat_depth_added[{disc, static_cast<int>(std::clamp<int64_t>(rec.depth, 0, 3))}] += 1;
    totals.heat_added[{std::move(disc), rec.type.empty() ? std::string("other") : rec.type}] += 1;
    // Queue rows are written once per transaction, but a large transaction
    // over many hosts would hold a delta per queue: bounded memory instead.
    if (totals.queue_deltas.size() >= kMaxPendingQueues) flush();
}

}  // namespace frontier
