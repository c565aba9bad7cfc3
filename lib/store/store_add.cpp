// Store::add_url: dedup over the whole history (fingerprint index, with the
// URL text compared so a fingerprint collision never drops a distinct URL),
// updates of known URLs, and inserts.
#include <algorithm>
#include <cmath>

#include "policy/priority.hpp"
#include "policy/recrawl.hpp"
#include "store/store.hpp"
#include "store/store_impl.hpp"

namespace frontier {

namespace {

// The columns add_url reads of a known URL row, and the row read from them.
#define FRONTIER_KNOWN_COLUMNS \
    "id, url, state, priority, recrawl, last_modified, queue_id, due_at, successes, last_success, next_visit, tier, tier_key"
KnownUrl read_known(const Stmt& f) {
    return {f.i64(0),  f.i64(2),     f.i64(6),     f.i64(4),     f.i64(8),
            f.dbl(3),  fork_tier(static_cast<int>(f.i64(11)), f.dbl(12)),
            f.opt_dbl(5), f.opt_dbl(7), f.opt_dbl(9), f.opt_dbl(10), f.str(1)};
}

}  // namespace

void Store::Impl::flush_pending_urls() {
    if (pending_rows == 0) return;
    Stmt& ins = q("INSERT INTO urls(fp, url, queue_id, host_id, rank, priority, tier, tier_key, cost, cls, depth, type, "
                  "discovery, via, meta, recrawl, last_modified, added_at) SELECT * FROM unnest(?::bigint[], "
                  "?::text[], ?::bigint[], ?::bigint[], ?::float8[], ?::float8[], ?::bigint[], ?::float8[], "
                  "?::bigint[], ?::bigint[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[], "
                  "?::float8[], ?::float8[])");
    for (size_t i = 0; i < pending_cols.size(); ++i) ins.bind(static_cast<int>(i) + 1, pending_cols[i].str());
    ins.exec();
    for (auto& c : pending_cols) c.clear();
    pending_rows = 0;
}

AddResult Store::add_url(const AddRequest& r) {
    Impl& m = *impl_;
    const Settings& s = settings();
    m.now = r.now;

    // Known URL? Every row with this fingerprint is compared by text.
    using Known = KnownUrl;
    std::optional<Known> known;
    const int64_t fp = static_cast<int64_t>(r.fp);
    if (auto pre = m.prefetched.find(fp); pre != m.prefetched.end()) {
        for (const Known& k : pre->second)
            if (k.url == r.url.url) known = k;
        // This record may write the row: the next one with this fingerprint
        // reads it again.
        m.prefetched.erase(pre);
    } else {
        m.flush_pending_urls();  // the rows read below include those not yet inserted
        for (;;) {
            Stmt& f = m.q("SELECT " FRONTIER_KNOWN_COLUMNS " FROM urls WHERE fp = ?");
            f.bind(1, fp);
            while (f.step()) {
                if (f.text(1) != r.url.url) continue;
                known = read_known(f);
                break;
            }
            f.reset();
            // frontier-done holds URL-row updates until commit: write this row's
            // first, then read it again (a link to a URL finished earlier in the
            // same transaction).
            if (!known || !m.url_updates.holds(known->id)) break;
            m.settle_url(known->id);
            known.reset();
        }
    }
    if (known) {
        bool lm_changed = r.last_modified && (!known->last_modified || *known->last_modified != *r.last_modified);
        bool prio_changed = r.priority_given && known->priority != r.priority;
        bool recrawl_changed = r.recrawl && !known->recrawl;
        // A disabled revisit comes back when it is listed again (frontier-add,
        // a sitemap), not when a crawled page links to it (frontier(7), RECRAWL).
        std::string_view disc = canonical_discovery(r.discovery);
        bool relisted = known->state == static_cast<int>(UrlState::disabled) && disc != "link" && disc != "redirect";
        bool visit_now = r.visit_now && known->state != static_cast<int>(UrlState::leased) &&
                         known->state != static_cast<int>(UrlState::blocked);
        // The fork flag orders URLs never loaded; a record without it keeps
        // the stored one.
        bool fork = known->successes == 0 && r.fork.value_or(known->fork);
        bool fork_changed = fork != known->fork && known->state == static_cast<int>(UrlState::queued);
        if (!lm_changed && !prio_changed && !recrawl_changed && !relisted && !visit_now && !fork_changed)
            return {AddStatus::duplicate, {}};

        bool recrawl = known->recrawl || r.recrawl;
        std::optional<double> lm = r.last_modified ? r.last_modified : known->last_modified;
        if (recrawl_changed) m.count("revisit:urls", 1);
        // A lister date newer than the last success: a revisit waiting for its
        // target is due as soon as recrawl.min-interval allows (tier 2).
        std::optional<double> due_at = known->due_at;
        bool listed_change = false;
        if (recrawl && lm_changed && known->state == static_cast<int>(UrlState::done) && due_at)
            if (auto d = listed_change_due(s, lm, known->last_success, known->successes); d && *d < *due_at) {
                due_at = d;
                listed_change = *d <= r.now;
            }
        double priority = prio_changed ? r.priority : known->priority;
        Tier t = recrawl_tier(
            {recrawl, lm, known->last_success, known->successes, known->next_visit, visit_now, r.now, fork});
        UrlState state = static_cast<UrlState>(known->state);
        bool waiting = known->due_at.has_value();  // a retry or revisit that is not due yet
        if (relisted || visit_now || listed_change) {
            if (state != UrlState::queued) {
                m.count(url_state_name(state), -1);
                m.count("queued", 1);
                m.queue_deltas[known->queue_id].queued += 1;
                if (state == UrlState::done)
                    m.q("UPDATE queues SET done = done - 1 WHERE id = ?").bind(1, known->queue_id).exec();
                else if (state == UrlState::failed)
                    m.q("UPDATE queues SET failed = failed - 1 WHERE id = ?").bind(1, known->queue_id).exec();
            }
            state = UrlState::queued;
            waiting = false;
        }
        Stmt& up = m.q("UPDATE urls SET priority = ?, rank = ?, recrawl = ?, last_modified = ?, tier = ?, tier_key = ?, "
                       "state = ?, due_at = ?, failures = CASE WHEN ? THEN 0 ELSE failures END, reason = CASE WHEN ? "
                       "THEN NULL ELSE reason END WHERE id = ?");
        up.bind(1, priority).bind(2, s.fifo ? 0.0 : priority).bind(3, recrawl ? 1 : 0).bind(4, lm)
            .bind(5, t.tier).bind(6, t.key).bind(7, static_cast<int>(state));
        if (waiting) up.bind(8, due_at.value_or(0)); else up.bind_null(8);
        up.bind(9, relisted ? 1 : 0).bind(10, relisted ? 1 : 0).bind(11, known->id).exec();
        if (state == UrlState::queued && !waiting) {
            m.refresh_best(known->queue_id);
            m.queue_deltas[known->queue_id];  // reschedule at flush
        }
        return {AddStatus::updated, {}};
    }

    if (s.max_queued >= 0 && count("queued") >= s.max_queued) return {AddStatus::rejected, "queue-full"};

    auto [hid, qid] = m.ids_for(r.host_key, r.queue_key, s);
    Tier t = recrawl_tier(
        {r.recrawl, r.last_modified, std::nullopt, 0, std::nullopt, r.visit_now, r.now, r.fork.value_or(false)});
    double rank = s.fifo ? 0.0 : r.priority;
    const int64_t cls = url_class(r.type) == "acquisition" ? 1 : 0;
    if (m.batch_inserts) {
        auto& c = m.pending_cols;
        c.resize(18);
        c[0].add(static_cast<int64_t>(r.fp));
        c[1].add_text(r.url.url, false);
        c[2].add(qid);
        c[3].add(hid);
        c[4].add(rank);
        c[5].add(r.priority);
        c[6].add(static_cast<int64_t>(t.tier));
        c[7].add(t.key);
        c[8].add(static_cast<int64_t>(r.cost));
        c[9].add(cls);
        c[10].add(static_cast<int64_t>(r.depth));
        c[11].add_text(r.type, r.type.empty());
        c[12].add_text(r.discovery, r.discovery.empty());
        c[13].add_text(r.via, r.via.empty());
        c[14].add_text(r.meta, r.meta.empty());
        c[15].add(static_cast<int64_t>(r.recrawl ? 1 : 0));
        c[16].add(r.last_modified);
        c[17].add(r.now);
        if (++m.pending_rows >= Impl::kPendingRows) m.flush_pending_urls();
    } else {
        m.q("INSERT INTO urls(fp, url, queue_id, host_id, state, rank, priority, tier, tier_key, cost, cls, depth, type, "
            "discovery, via, meta, recrawl, last_modified, added_at) VALUES (?,?,?,?,0,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
            .bind(1, static_cast<int64_t>(r.fp)).bind(2, r.url.url).bind(3, qid).bind(4, hid).bind(5, rank)
            .bind(6, r.priority).bind(7, t.tier).bind(8, t.key).bind(9, r.cost)
            .bind(10, cls).bind(11, r.depth)
            .bind(12, r.type.empty() ? std::optional<std::string>() : std::optional<std::string>(r.type))
            .bind(13, r.discovery.empty() ? std::optional<std::string>() : std::optional<std::string>(r.discovery))
            .bind(14, r.via.empty() ? std::optional<std::string>() : std::optional<std::string>(r.via))
            .bind(15, r.meta.empty() ? std::optional<std::string>() : std::optional<std::string>(r.meta))
            .bind(16, r.recrawl ? 1 : 0).bind(17, r.last_modified).bind(18, r.now).exec();
    }
    QueueDelta& d = m.queue_deltas[qid];
    d.queued += 1;
    d.enqueued += 1;
    d.last_url = r.url.url;
    if (!d.min_rank || rank < *d.min_rank) d.min_rank = rank;
    m.added += 1;
    m.depth_added[std::clamp<int64_t>(r.depth, 0, 3)] += 1;
    if (r.recrawl) m.count("revisit:urls", 1);
    std::string disc(r.discovery.empty() ? std::string_view("seed") : canonical_discovery(r.discovery));
    m.heat_depth_added[{disc, static_cast<int>(std::clamp<int64_t>(r.depth, 0, 3))}] += 1;
    m.heat_added[{std::move(disc), r.type.empty() ? std::string("other") : r.type}] += 1;
    // Queue rows are written once per transaction, but a large transaction
    // over many hosts would hold a delta per queue: bounded memory instead.
    if (m.queue_deltas.size() >= kMaxPendingQueues) m.flush();
    return {AddStatus::added, {}};
}

void Store::prefetch_fingerprints(const std::vector<uint64_t>& fps) {
    Impl& m = *impl_;
    if (!db_->statements_are_round_trips() || fps.empty()) return;
    m.batch_inserts = true;
    m.flush_pending_urls();  // the rows read below include those not yet inserted
    // One parameter, one round trip for the whole chunk.
    PgArray arr;
    for (uint64_t fp : fps) {
        arr.add(static_cast<int64_t>(fp));
        m.prefetched.try_emplace(static_cast<int64_t>(fp));
    }
    // One index probe per fingerprint (a LATERAL subquery that OFFSET 0
    // keeps apart): `fp = ANY(...)` alone got a generic plan while the table
    // was small, then scanned the whole table for every chunk (37 ms per
    // chunk at 50k URLs).
    Stmt& f = m.q("SELECT u.* FROM unnest(?::bigint[]) AS k(fp), LATERAL (SELECT " FRONTIER_KNOWN_COLUMNS
                  ", fp FROM urls WHERE urls.fp = k.fp OFFSET 0) AS u");
    f.bind(1, arr.str());
    while (f.step()) m.prefetched[f.i64(13)].push_back(read_known(f));
    f.reset();
}

}  // namespace frontier
