// A queue's next URLs (heads) for Store::lease (store_lease.cpp): read one
// at a time where a statement costs no round trip (SQLite); prefetched for
// a page of queues at once and refilled where it does (PostgreSQL,
// frontier(7), POSTGRESQL).
#include <algorithm>
#include <deque>
#include <string>
#include <unordered_set>
#include <vector>

#include "policy/lease_order.hpp"
#include "policy/priority.hpp"
#include "store/lease_run.hpp"
#include "store/sql_codes.hpp"
#include "store/sql_columns.hpp"
#include "store/store_impl.hpp"

namespace frontier {

namespace {

// The next URL of a queue: the columns a head row has, in order.
#define HEAD_COLUMNS(X)                                                                                         \
    X(id, "id") X(url, "url") X(host_id, "host_id") X(priority, "priority") X(depth, "depth")                 \
    X(attempts, "attempts") X(type, "type") X(discovery, "discovery") X(via, "via") X(meta, "meta")         \
    X(cost, "cost") X(etag, "etag") X(http_last_modified, "http_last_modified")                             \
    X(content_hash, "content_hash") X(lease_seq, "lease_seq") X(rank, "rank") X(tier, "tier")               \
    X(tier_key, "tier_key")
enum class HeadCol { HEAD_COLUMNS(SQL_COLUMN_NAME) };
const std::string kHead = sql_column_list({HEAD_COLUMNS(SQL_COLUMN_EXPR)});
#define HEAD_ORDER " ORDER BY rank, tier, tier_key, cost, id"
#define HEAD_DUE "state = " SQL_URL_QUEUED " AND due_at IS NULL"

const std::string kNextAll = "SELECT " + kHead + " FROM urls WHERE queue_id = ? AND " HEAD_DUE HEAD_ORDER " LIMIT 1";
const std::string kNextOfClass =
    "SELECT " + kHead + " FROM urls WHERE queue_id = ? AND " HEAD_DUE " AND cls = ?" HEAD_ORDER " LIMIT 1";
// Alternation looks for the other class among a queue's first
// LeaseOrder::kClassScan due URLs only: a bounded index range, however
// long the queue.
const std::string kNextInScan = "SELECT " + kHead + " FROM (SELECT * FROM urls WHERE queue_id = ? AND " HEAD_DUE
                                HEAD_ORDER " LIMIT 64) AS h WHERE cls = ?" HEAD_ORDER " LIMIT 1";
static_assert(LeaseOrder::kClassScan == 64, "kNextInScan scans kClassScan URLs");
// The heads (of those columns) of many queues at once: a LATERAL join of
// the queues (`queues`, aliased q with their ids in q.id) with each
// queue's ordered due URLs (each side an index range scan).
std::string heads_of(const char* queues, const std::string& columns, const char* cls) {
    return std::string(queues) + " CROSS JOIN LATERAL (SELECT " + columns +
           " FROM urls WHERE queue_id = q.id AND " + HEAD_DUE + cls + HEAD_ORDER " LIMIT ?) u";
}
// The queues: given by id, or a page of ready queues (load_page's keyset,
// as a subquery: what load_page_ahead sends).
const char* const kQueueIds = "unnest(CAST(? AS bigint[])) AS q(id)";
const char* const kPageQueues = "(SELECT id " SQL_READY_PAGE ") AS q";
const std::string kHeadsAll = "SELECT q.id, u.* FROM " + heads_of(kQueueIds, kHead, "");
const std::string kHeadsOfClass = "SELECT q.id, u.* FROM " + heads_of(kQueueIds, kHead, " AND cls = ?");
const std::string kHeadsOfPage = "SELECT q.id, u.* FROM " + heads_of(kPageQueues, kHead, "");
const std::string kHeadsOfPageOfClass =
    "SELECT q.id, u.* FROM " + heads_of(kPageQueues, kHead, " AND cls = ?");
const std::string kHostIdsOfPage = "SELECT u.host_id FROM " + heads_of(kPageQueues, "host_id", "");
const std::string kHostIdsOfPageOfClass =
    "SELECT u.host_id FROM " + heads_of(kPageQueues, "host_id", " AND cls = ?");
// A queue's heads after a given one (a keyset over the urls_next index).
const std::string kHeadsAfter = "SELECT " + kHead + " FROM urls WHERE queue_id = ? AND " HEAD_DUE
                                " AND (rank, tier, tier_key, cost, id) > (?, ?, ?, ?, ?)" HEAD_ORDER " LIMIT ?";
#undef HEAD_COLUMNS
#undef HEAD_ORDER
#undef HEAD_DUE

// A head row whose columns start at column `first`.
LeaseHead read_head(const Stmt& st, int first) {
    using C = HeadCol;
    SqlRow<C> row(st, first);
    LeaseHead h;
    h.id = row.i64(C::id);
    h.it.url = row.str(C::url);
    h.hid = row.i64(C::host_id);
    h.it.priority = row.dbl(C::priority);
    h.it.depth = row.i64(C::depth);
    h.it.attempt = row.i64(C::attempts) + 1;
    h.it.type = row.str(C::type);
    h.it.discovery = row.str(C::discovery);
    h.it.via = row.str(C::via);
    h.it.meta = row.str(C::meta);
    h.it.cost = row.i64(C::cost);
    if (!row.is_null(C::etag)) h.it.etag = row.str(C::etag);
    if (!row.is_null(C::http_last_modified)) h.it.http_last_modified = row.str(C::http_last_modified);
    if (!row.is_null(C::content_hash)) h.it.content_hash = row.str(C::content_hash);
    h.seq = row.i64(C::lease_seq) + 1;
    h.rank = row.dbl(C::rank);
    h.tier = row.i64(C::tier);
    h.tier_key = row.dbl(C::tier_key);
    return h;
}

}  // namespace

// Where a statement is a round trip (PostgreSQL), the heads of every queue
// of a loaded page are read in one set-based query instead of one per URL
// (per_queue of them: --per-queue + 1, at most 9), and a queue whose list
// runs out is read again the same way (refill). Under the writer lock only
// this lease changes these queues' URLs, so a prefetched list stays exact.
void Store::LeaseRun::prefetch(const std::vector<int64_t>& qids, int64_t per_queue) {
    if (Stmt* q = send_heads(qids, per_queue)) read_heads(*q);
}

// prefetch's query, sent (Stmt::send: on PostgreSQL it goes with the next
// read, load_page's queue rows); nullptr when there is none to send.
Stmt* Store::LeaseRun::send_heads(const std::vector<int64_t>& qids, int64_t per_queue) {
    if (!m.db.statements_are_round_trips() || qids.empty()) return nullptr;
    PgArray arr;
    for (int64_t id : qids) arr.add(id);
    Stmt& q = m.q((req.url_class.empty() ? kHeadsAll : kHeadsOfClass).c_str());
    q.bind(1, arr);
    if (req.url_class.empty()) {
        q.bind(2, per_queue);
    } else {
        q.bind(2, class_code(req.url_class));
        q.bind(3, per_queue);
    }
    q.send();
    return &q;
}

void Store::LeaseRun::read_heads(Stmt& q, const std::unordered_set<int64_t>* only) {
    std::vector<int64_t> hosts;
    while (q.step()) {
        if (only && !only->count(q.i64(0))) continue;
        LeaseHead h = read_head(q, 1);
        hosts.push_back(h.hid);
        heads[q.i64(0)].push_back(std::move(h));
    }
    q.reset();
    prefetch_hosts(hosts);  // robots_row and stamp() read them
}

// Where a read is a round trip (PostgreSQL): a page of ready queues' rows,
// their heads (as prefetch reads them, for a whole page) and their heads'
// host rows (robots_row, with the seed flags), sent together: one round
// trip. The heads and hosts statements select the page again, with the
// same rows: this call's held writes are written before the page
// statement (Impl::q), and under the writer lock no one else writes.
// Queues of the page loaded before (LeaseOrder::from_index) keep what
// this call read of them.
Store::Impl::PageSent Store::LeaseRun::send_page_ahead(Impl& m, const LeaseRequest& req, bool robots) {
    static const std::string hosts_sql =
        "SELECT " + robots_columns() + " FROM hosts WHERE id IN (" + kHostIdsOfPage + ")";
    static const std::string hosts_of_class_sql =
        "SELECT " + robots_columns() + " FROM hosts WHERE id IN (" + kHostIdsOfPageOfClass + ")";
    static const std::string page_sql = "SELECT " + Impl::queue_info_columns() + " " SQL_READY_PAGE;
    const bool of_class = !req.url_class.empty();
    const int64_t per_queue = page_head_limit(req);
    const double best = LeaseOrder::kFirstBest;
    const int64_t served = LeaseOrder::kFirstServed;
    Stmt& page = m.q(page_sql.c_str());
    page.bind(1, best).bind(2, served).send();
    // The hosts only with robots.txt on somewhere: their robots.txt state is
    // needed for every URL; the seed flags alone are read after the heads,
    // only those not known yet (prefetch_hosts).
    Stmt* sent[2] = {&m.q_unflushed((of_class ? kHeadsOfPageOfClass : kHeadsOfPage).c_str()),
                     robots ? &m.q_unflushed((of_class ? hosts_of_class_sql : hosts_sql).c_str()) : nullptr};
    for (Stmt* st : sent) {
        if (!st) continue;
        // The hosts: of each queue's first head (its other heads' hosts,
        // where a queue has several, are read by read_heads).
        const int64_t limit = st == sent[0] ? per_queue : 1;
        st->bind(1, best).bind(2, served);
        if (of_class)
            st->bind(3, class_code(req.url_class)).bind(4, limit);
        else
            st->bind(3, limit);
        st->send();
    }
    return {&page, sent[0], sent[1]};
}

// The call's first page: sent with the transaction's first read, or now.
void Store::LeaseRun::load_page_ahead() {
    Impl::PageSent sent = m.page_sent ? *m.page_sent : send_page_ahead(m, req, robots);
    m.page_sent.reset();
    Stmt& page = *sent.page;
    std::unordered_set<int64_t> loaded;
    int n = 0;
    while (page.step()) {
        ++n;
        QueueInfo qi = Impl::read_queue_info(page);
        if (!order.from_index(qi.id, qi.best.value_or(0), qi.served)) continue;
        loaded.insert(qi.id);
        queue_rows.try_emplace(qi.id, std::move(qi));
    }
    page.reset();
    order.page_read(n);
    if (sent.hosts) read_hosts_ahead(*sent.hosts);  // first: read_heads then knows their seed flags
    read_heads(*sent.heads, &loaded);
}

// The heads read per queue of a page: --per-queue, at most 8, + 1.
int64_t Store::LeaseRun::page_head_limit(const LeaseRequest& req) {
    return std::min<int64_t>(std::max<int64_t>(req.per_queue, 1), 8) + 1;
}

int64_t Store::LeaseRun::refill_limit() const {
    return std::min<int64_t>(
               std::min<int64_t>(std::max<int64_t>(req.per_queue, 1), std::max<int64_t>(req.n, 1)), 64) +
           1;
}

// A queue's prefetched list ran out: its next heads, up to what this call
// may still take from it (--per-queue, -n; at most 64) + 1 (none when the
// queue has no due URL left). Only lists of every class are refilled.
void Store::LeaseRun::refill(int64_t qid) {
    if (!req.url_class.empty()) return;
    const int64_t limit = refill_limit();
    auto k = taken_key.find(qid);
    if (k == taken_key.end()) return prefetch({qid}, limit);
    const HeadKey& key = k->second;
    // A URL of this queue taken aside (alternation) may lie after the key,
    // its lease still held: written first, it is not read again.
    Stmt& q = taken_aside.count(qid) ? m.q(kHeadsAfter.c_str()) : m.q_unflushed(kHeadsAfter.c_str());
    q.bind(1, qid).bind(2, key.rank).bind(3, key.tier).bind(4, key.tier_key).bind(5, key.cost).bind(6, key.id);
    q.bind(7, limit);
    std::vector<int64_t> hosts;
    std::deque<LeaseHead>& list = heads[qid];
    while (q.step()) {
        list.push_back(read_head(q, 0));
        hosts.push_back(list.back().hid);
    }
    q.reset();
    prefetch_hosts(hosts);
}

// The queue's next due URL: its prefetched head, or read now. `cls` >= 0:
// only a URL of that class (alternation), read apart from the prefetched
// heads (which are of every class). None: the queue has no such URL (when
// it has none at all, it is rescheduled; when only the class is missing,
// class_missing is set and nothing changes).
std::optional<LeaseHead> Store::LeaseRun::next_head(QueueInfo& qi, int cls, bool& from_pre) {
    auto pre = heads.find(qi.id);
    if (cls < 0 && pre != heads.end() && pre->second.empty()) refill(qi.id);
    from_pre = cls < 0 && pre != heads.end() && !pre->second.empty();
    if (from_pre) return pre->second.front();
    Stmt& q = m.q((cls >= 0 ? kNextInScan : req.url_class.empty() ? kNextAll : kNextOfClass).c_str());
    q.bind(1, qi.id);
    if (cls >= 0) q.bind(2, cls);
    else if (!req.url_class.empty()) q.bind(2, class_code(req.url_class));
    if (!q.step()) {
        q.reset();
        if (cls >= 0) {
            class_missing = true;
            return std::nullopt;
        }
        m.refresh_best(qi.id);
        m.reschedule(qi.id);
        forget_row(qi.id);
        return std::nullopt;
    }
    LeaseHead h = read_head(q, 0);
    q.reset();
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
        taken_key[qid] = HeadKey{h.rank, h.tier_key, h.tier, h.it.cost, h.id};
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
