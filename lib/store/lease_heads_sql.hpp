// Private to lib/store/: a queue's next URLs (heads) as a lease reads
// them: their columns, their order (HEAD_ORDER) and a head row as read.
#pragma once

#include <string>

#include "store/lease_run.hpp"
#include "store/sql_codes.hpp"
#include "store/sql_columns.hpp"

namespace frontier {

// The next URL of a queue: the columns a head row has, in order.
#define HEAD_COLUMNS(X)                                                                                         \
    X(id, "id") X(url, "url") X(host_id, "host_id") X(priority, "priority") X(depth, "depth")                 \
    X(attempts, "attempts") X(type, "type") X(discovery, "discovery") X(via, "via") X(meta, "meta")         \
    X(cost, "cost") X(etag, "etag") X(http_last_modified, "http_last_modified")                             \
    X(content_hash, "content_hash") X(lease_seq, "lease_seq") X(rank, "rank") X(tier, "tier")               \
    X(tier_key, "tier_key")
enum class HeadCol { HEAD_COLUMNS(SQL_COLUMN_NAME) };
inline const std::string kHead = sql_column_list({HEAD_COLUMNS(SQL_COLUMN_EXPR)});
// The lease order of a queue's URLs (frontier(7), FILE FORMAT).
#define HEAD_ORDER " ORDER BY rank, tier, tier_key, cost, id"

// A queue's next due URL, read one at a time (next_head): of every class,
// of the class asked (--class), or of a class among the first few
// (alternation). Each backend's, over its lease order
// (StoreBackend::next_head_sql).
struct NextSql {
    std::string all, of_class, in_scan;
};

#undef HEAD_COLUMNS

// A head row whose columns start at column `first`.
inline LeaseHead read_head(const Stmt& st, int first) {
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

}  // namespace frontier
