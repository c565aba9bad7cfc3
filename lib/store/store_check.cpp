// check_frontier (lib/store/store_check.hpp): the frontier's invariants recounted
// from the tables. Part of the storage module: all of its SQL is here, written
// against the schema of lib/store/schema.cpp; a schema change updates this file.
#include "store/store_check.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <unordered_map>
#include <vector>

#include "core/error.hpp"
#include "policy/settings.hpp"
#include "store/check_tally.hpp"
#include "store/db.hpp"
#include "store/lease_order_storage.hpp"
#include "store/schema_def.hpp"
#include "store/sql_codes.hpp"
#include "store/sql_columns.hpp"
#include "store/store.hpp"
#include "store/store_connection.hpp"
#include "web/url.hpp"

namespace frontier {

// The longest lease a tool hands out (lease.ttl is at most 7 days), with a
// second of slack for clocks read at different moments.
constexpr double kMaxLeaseSeconds = 604800 + 1;

namespace {

using namespace check;

void check_integrity(Checker& c, Db& db) {
    c.start("integrity");
    std::string problems = db.integrity_problems();
    for (size_t at = 0, nl; at < problems.size(); at = nl + 1) {
        nl = problems.find('\n', at);
        if (nl == std::string::npos) nl = problems.size();
        c.fail(problems.substr(at, nl - at));
    }
    // A backend with identity sequences (PostgreSQL) checks its own pages;
    // what it cannot know is that the ids a frontier gives out next are past
    // every stored id, which an import with explicit ids must ensure.
    for (const char* t : {"queues", "hosts", "urls"}) {
        std::optional<int64_t> last = db.id_sequence_last(t);
        if (!last) continue;
        int64_t largest = scalar(db, std::string("SELECT coalesce(max(id), 0) FROM ") + t);
        if (*last < largest)
            c.fail(std::string(t) + ".id: the identity sequence is at " + std::to_string(*last) +
                   ", below the largest id " + std::to_string(largest));
    }
}

void check_schema(Checker& c, Db& db) {
    c.start("schema");
    int64_t v = db.schema_version();
    if (v != kSchemaVersion)
        c.fail("user_version is " + std::to_string(v) + ", expected " + std::to_string(kSchemaVersion));
    for (const char* key : {"settings_version", "serve_seq", "fifo_seq"}) {
        Stmt st = db.prepare("SELECT value FROM meta WHERE key = ?");
        st.bind(1, key);
        if (!st.step() || st.is_null(0)) c.fail(std::string("meta key ") + key + " is missing");
    }
}

void check_settings(Checker& c, Db& db) {
    c.start("settings");
    try {
        enum class S { key, value };
        Stmt st = db.prepare("SELECT key, value FROM settings");
        std::map<std::string, std::string> values;
        for (SqlRow<S> row(st); st.step();) values[row.str(S::key)] = row.str(S::value);
        enum class D { domain, key, value };
        Stmt ds = db.prepare("SELECT domain, key, value FROM domain_settings");
        std::map<std::string, std::map<std::string, std::string>> domains;
        for (SqlRow<D> d(ds); ds.step();) domains[d.str(D::domain)][d.str(D::key)] = d.str(D::value);
        (void)build_settings(values, domains);
    } catch (const std::exception& e) {
        c.fail(e.what());
    }
}

// url-state, url-refs and duplicate-url.
void check_url_rows(Checker& c, Db& db) {
    c.start("url-state");
    {
        enum class U { id, url, state };
        Stmt st = db.prepare("SELECT id, url, state FROM urls WHERE state NOT BETWEEN " SQL_URL_QUEUED
                             " AND " SQL_URL_DISABLED);
        for (SqlRow<U> u(st); st.step();)
            c.fail("url " + std::to_string(u.i64(U::id)) + " " + short_url(u.text(U::url)) + " has state " +
                   std::to_string(u.i64(U::state)));
    }
    c.start("url-refs");
    {
        enum class R { id, url, queue_id, host_id };
        Stmt st = db.prepare(
            "SELECT id, url, queue_id, host_id FROM urls "
            "WHERE queue_id NOT IN (SELECT id FROM queues) OR host_id NOT IN (SELECT id FROM hosts)");
        for (SqlRow<R> u(st); st.step();)
            c.fail("url " + std::to_string(u.i64(R::id)) + " " + short_url(u.text(R::url)) + " refers to queue " +
                   std::to_string(u.i64(R::queue_id)) + " / host " + std::to_string(u.i64(R::host_id)) +
                   ", one of which is missing");
    }
    c.start("duplicate-url");
    {
        enum class D { url, n };
        Stmt st = db.prepare("SELECT url, count(*) FROM urls GROUP BY url HAVING count(*) > 1");
        for (SqlRow<D> d(st); st.step();)
            c.fail(short_url(d.text(D::url)) + " is stored " + std::to_string(d.i64(D::n)) + " times");
    }
}

#define URL_PASS_COLUMNS(X) \
    X(id, "id") X(fp, "fp") X(url, "url") X(state, "state") X(queue_id, "queue_id") \
    X(lease_expires, "lease_expires") X(due_at, "due_at")
enum class UrlPass { URL_PASS_COLUMNS(SQL_COLUMN_NAME) };

// One URL row into the recount: per state, per queue, its lease.
void recount_url(UrlRecount& rc, const SqlRow<UrlPass>& u, std::string_view url, double now) {
    int64_t state = u.i64(UrlPass::state);
    if (state >= 0 && state < 6) ++rc.by_state[state];
    QueueCount& q = rc.per_queue.at(u.i64(UrlPass::queue_id));
    ++q.n;
    switch (static_cast<UrlState>(state)) {
        case UrlState::queued:
            ++q.queued;
            if (u.is_null(UrlPass::due_at)) ++q.ready;
            break;
        case UrlState::leased: ++q.leased; break;
        case UrlState::done: ++q.done; break;
        case UrlState::failed: ++q.failed; break;
        case UrlState::blocked: ++q.blocked; break;
        default: break;
    }
    if (state != static_cast<int64_t>(UrlState::leased)) return;
    if (u.is_null(UrlPass::lease_expires))
        rc.lease_problems.push_back("leased url " + short_url(url) + " has no lease expiry");
    else if (double at = u.dbl(UrlPass::lease_expires); at > now + kMaxLeaseSeconds)
        rc.lease_problems.push_back("lease of " + short_url(url) + " expires at " + num(at) + " (now " + num(now) +
                                    "), later than lease.ttl allows");
}

// One pass over the URLs: fingerprints, leases, and the recounts per
// state and per queue.
UrlRecount check_fingerprints(Checker& c, Db& db, double now) {
    c.start("fingerprint");
    // The flat part of the tally stops at twice the queues' number: a file
    // with a few huge queue ids (damaged, imported) keeps a small array.
    const int64_t queues = scalar(db, "SELECT count(*) FROM queues");
    UrlRecount rc(std::min(scalar(db, "SELECT coalesce(max(id), 0) FROM queues"), 2 * queues + 65536));
    Stmt st = db.prepare("SELECT " + sql_column_list({URL_PASS_COLUMNS(SQL_COLUMN_EXPR)}) + " FROM urls");
    SqlRow<UrlPass> u(st);
    while (st.step()) {
        std::string_view url = u.text(UrlPass::url);
        if (static_cast<uint64_t>(u.i64(UrlPass::fp)) != url_fingerprint(url))
            c.fail("url " + std::to_string(u.i64(UrlPass::id)) + " " + short_url(url) + ": stored fingerprint " +
                   std::to_string(u.i64(UrlPass::fp)) + " is not the URL's");
        recount_url(rc, u, url, now);
    }
    // Every URL's fingerprint and id once in url_fps or url_fps_new
    // (frontier(7), FILE FORMAT): each URL has its pair, and there are no others.
    enum class M { id, url };
    Stmt missing = db.prepare(
        "SELECT id, url FROM urls u "
        "WHERE NOT EXISTS (SELECT 1 FROM url_fps f WHERE f.fp = u.fp AND f.id = u.id) "
        "AND NOT EXISTS (SELECT 1 FROM url_fps_new n WHERE n.fp = u.fp AND n.id = u.id)");
    for (SqlRow<M> m(missing); missing.step();)
        c.fail("url " + std::to_string(m.i64(M::id)) + " " + short_url(m.text(M::url)) +
               ": its fingerprint is in neither url_fps nor url_fps_new");
    enum class P { fp, id };
    Stmt extra = db.prepare(
        "SELECT fp, id FROM (SELECT fp, id FROM url_fps UNION ALL SELECT fp, id FROM url_fps_new) AS p "
        "WHERE NOT EXISTS (SELECT 1 FROM urls u WHERE u.id = p.id AND u.fp = p.fp)");
    for (SqlRow<P> p(extra); extra.step();)
        c.fail("fingerprint " + std::to_string(p.i64(P::fp)) + " of url " + std::to_string(p.i64(P::id)) +
               " in url_fps or url_fps_new: no such URL");
    const int64_t pairs =
        scalar(db, "SELECT (SELECT count(*) FROM url_fps) + (SELECT count(*) FROM url_fps_new)");
    const int64_t urls = scalar(db, "SELECT count(*) FROM urls");
    if (pairs != urls)
        c.fail("url_fps and url_fps_new hold " + std::to_string(pairs) + " fingerprints for " +
               std::to_string(urls) + " URLs");
    return rc;
}

// The lease order (frontier(7), FILE FORMAT), as its backend keeps it.
void check_lease_order(Checker& c, Db& db) {
    c.start("lease-order");
    db.lease_order().check(c, db);
}

RobotsLeases check_leases(Checker& c, Db& db, const UrlRecount& rc, double now) {
    c.start("lease");
    for (auto& p : rc.lease_problems) c.fail(p);
    RobotsLeases robots;
    enum class H { name, expires, queue };
    Stmt st = db.prepare("SELECT name, robots_lease_expires, robots_queue FROM hosts "
                         "WHERE robots_lease_expires IS NOT NULL");
    for (SqlRow<H> h(st); st.step();) {
        ++robots.leased;
        if (h.is_null(H::queue)) c.fail("robots.txt lease of " + h.str(H::name) + " belongs to no queue");
        else ++robots.per_queue[h.i64(H::queue)];
        if (h.dbl(H::expires) > now + kMaxLeaseSeconds)
            c.fail("robots.txt lease of " + h.str(H::name) + " expires at " + num(h.dbl(H::expires)) + " (now " +
                   num(now) + "), later than lease.ttl allows");
    }
    return robots;
}

// depth:* and heat:* are per added URL, recounted with the same buckets as
// the storage module (depth clamped to 3+, an empty discovery is "seed", an
// empty type "other"); heatd:* (discovery x depth) add up to the URLs too.
void check_depth_and_heat(Checker& c, Db& db, const std::map<std::string, int64_t>& stored, int64_t urls) {
    enum class D { bucket, n };
    Stmt dp = db.prepare("SELECT CASE WHEN depth >= 3 THEN '3+' WHEN depth <= 0 THEN '0' ELSE CAST(depth AS TEXT) "
                         "END, count(*) FROM urls GROUP BY 1");
    std::map<std::string, int64_t> depth;
    for (SqlRow<D> d(dp); dp.step();) depth["depth:" + d.str(D::bucket)] = d.i64(D::n);
    for (auto& [name, n] : stored)
        if (name.starts_with("depth:") && !depth.count(name)) depth[name] = 0;
    for (auto& [name, n] : depth) check_counter(c, stored, name, n);
    int64_t heat = 0, heatd = 0;
    bool any_heatd = false;
    for (auto& [name, n] : stored) {
        if (name.starts_with("heat:")) heat += n;
        if (name.starts_with("heatd:")) {
            heatd += n;
            any_heatd = true;
        }
    }
    if (heat != urls)
        c.fail("heat:* counters add up to " + std::to_string(heat) + ", but " + std::to_string(urls) +
               " URLs are stored");
    if (any_heatd && heatd != urls)
        c.fail("heatd:* counters add up to " + std::to_string(heatd) + ", but " + std::to_string(urls) +
               " URLs are stored");
}

// The timeline's sums are the crawl:* counters (both written by
// frontier-done's flush, in one transaction).
void check_timeline_sums(Checker& c, Db& db, const std::map<std::string, int64_t>& stored) {
    enum class T { pages, bytes, errors };
    Stmt tl = db.prepare("SELECT coalesce(sum(pages), 0), coalesce(sum(bytes), 0), coalesce(sum(errors), 0) "
                         "FROM timeline");
    if (!tl.step()) return;
    SqlRow<T> t(tl);
    const std::pair<const char*, T> sums[] = {
        {"crawl:pages", T::pages}, {"crawl:bytes", T::bytes}, {"crawl:errors", T::errors}};
    for (auto& [name, col] : sums) {
        int64_t n = stored_counter(stored, name);
        if (n != t.i64(col))
            c.fail(std::string("counter ") + name + " is " + std::to_string(n) + ", but the timeline sums to " +
                   std::to_string(t.i64(col)));
    }
    tl.reset();
}

void check_counters(Checker& c, Db& db, const CheckResult& r, const UrlRecount& rc, const RobotsLeases& robots) {
    c.start("counters");
    std::map<std::string, int64_t> stored;
    enum class C { name, n };
    Stmt st = db.prepare("SELECT name, n FROM counters");
    for (SqlRow<C> row(st); st.step();) stored[row.str(C::name)] = row.i64(C::n);
    const char* names[6] = {"queued", "leased", "done", "failed", "blocked", "disabled"};
    for (int i = 0; i < 6; ++i) check_counter(c, stored, names[i], rc.by_state[i]);
    check_counter(c, stored, "robots_leased", robots.leased);
    check_counter(c, stored, "added", r.urls);
    check_counter(c, stored, "queues", r.queues);
    check_depth_and_heat(c, db, stored, r.urls);
    check_timeline_sums(c, db, stored);
    for (auto& [name, n] : stored)
        if (n < 0) c.fail("counter " + name + " is negative (" + std::to_string(n) + ")");
}

#define QUEUE_CHECK_COLUMNS(X) \
    X(id, "id") X(key, "key") X(state, "state") X(queued, "queued") X(in_flight, "in_flight") X(done, "done") \
    X(failed, "failed") X(blocked, "blocked") X(enqueued, "enqueued") X(best, "best") \
    X(inactive_seq, "inactive_seq")
enum class QueueCheck { QUEUE_CHECK_COLUMNS(SQL_COLUMN_NAME) };

// queue-counts and queue-state, in one pass over the queues.
void check_queues(Checker& c, Db& db, UrlRecount& rc, const RobotsLeases& robots) {
    using Q = QueueCheck;
    size_t counts = c.start("queue-counts");
    size_t states = c.start("queue-state");
    Stmt st = db.prepare("SELECT " + sql_column_list({QUEUE_CHECK_COLUMNS(SQL_COLUMN_EXPR)}) +
                         " FROM queues ORDER BY id");
    SqlRow<Q> row(st);
    while (st.step()) {
        int64_t id = row.i64(Q::id);
        std::string key = row.str(Q::key);
        const QueueCount q = rc.per_queue.take(id);
        auto rq = robots.per_queue.find(id);
        int64_t robots_in_flight = rq == robots.per_queue.end() ? 0 : rq->second;
        struct {
            const char* name;
            int64_t stored, recount;
        } cols[] = {{"queued", row.i64(Q::queued), q.queued},
                    {"in_flight", row.i64(Q::in_flight), int64_t{q.leased} + robots_in_flight},
                    {"done", row.i64(Q::done), q.done},
                    {"failed", row.i64(Q::failed), q.failed},
                    {"blocked", row.i64(Q::blocked), q.blocked},
                    {"enqueued", row.i64(Q::enqueued), q.n}};
        for (auto& col : cols)
            if (col.stored != col.recount)
                c.fail_at(counts, "queue " + key + ": " + col.name + " stored " + std::to_string(col.stored) +
                                      ", recount " + std::to_string(col.recount));
        int64_t state = row.i64(Q::state);
        if (state < static_cast<int64_t>(QueueState::active) || state > static_cast<int64_t>(QueueState::retired_by_hand))
            c.fail_at(states, "queue " + key + " has state " + std::to_string(state));
        if (state == static_cast<int64_t>(QueueState::inactive) && row.is_null(Q::inactive_seq))
            c.fail_at(states, "inactive queue " + key + " has no place in the FIFO");
        if (q.ready > 0 && row.is_null(Q::best))
            c.fail_at(states, "queue " + key + " holds " + std::to_string(q.ready) +
                                  " due URLs but no best rank: it would never be scheduled");
    }
    rc.per_queue.for_each_left([&](int64_t id, const QueueCount& q) {
        c.fail_at(counts, std::to_string(q.n) + " URLs belong to missing queue " + std::to_string(id));
    });
}

}  // namespace

CheckResult check_frontier(Store& store, double now, int64_t max_details) {
    CheckResult r;
    Checker c(r, max_details);
    Db& db = store_db(store);
    // The duplicate and recount queries sort the whole URL table.
    db.prepare_for_large_sorts();
    ReadTransaction tx(db);
    check_integrity(c, db);
    check_schema(c, db);
    check_settings(c, db);
    r.urls = scalar(db, "SELECT count(*) FROM urls");
    r.queues = scalar(db, "SELECT count(*) FROM queues");
    r.hosts = scalar(db, "SELECT count(*) FROM hosts");
    check_url_rows(c, db);
    UrlRecount rc = check_fingerprints(c, db, now);
    check_lease_order(c, db);
    RobotsLeases robots = check_leases(c, db, rc, now);
    check_counters(c, db, r, rc, robots);
    check_queues(c, db, rc, robots);
    return r;
}

}  // namespace frontier
