// Private to the storage module (lib/store/): the columns frontier-done
// sets on a URL row (UrlUpdate), from which both of its writes are made:
// one row (UrlRows::write_update) and many rows over arrays
// (lib/store/pg/pg_store_writes.cpp).
#pragma once

#include <string>

#include "store/url_updates.hpp"

namespace frontier {

// X(column, array type for PostgreSQL). `interval` is quoted by pg_translate.
#define URL_UPDATE_COLUMNS(X)                                                                                   \
    X(id, "bigint") X(state, "bigint") X(due_at, "REAL") X(reason, "text") X(status, "bigint")                \
    X(error_class, "text") X(fetched_at, "REAL") X(etag, "text") X(http_last_modified, "text")                \
    X(content_hash, "text") X(retries, "bigint") X(failures, "bigint") X(last_visit, "REAL")                   \
    X(last_success, "REAL") X(visits, "bigint") X(successes, "bigint") X(changes, "bigint")                    \
    X(interval, "REAL") X(next_visit, "REAL") X(tier, "bigint") X(tier_key, "REAL") X(first_success, "REAL")
#define URL_UPDATE_NAME(column, type) column,
enum class UpdCol { URL_UPDATE_COLUMNS(URL_UPDATE_NAME) count };
#undef URL_UPDATE_NAME

// Each column of an update with its value, f(UpdCol, value).
template <class F>
inline void each_update_value(const UrlUpdate& u, F&& f) {
    using C = UpdCol;
    f(C::id, u.id);
    f(C::state, static_cast<int64_t>(u.state));
    f(C::due_at, u.due);
    f(C::reason, u.reason);
    f(C::status, u.status);
    f(C::error_class, u.error_class);
    f(C::fetched_at, u.fetched_at);
    f(C::etag, u.etag);
    f(C::http_last_modified, u.http_last_modified);
    f(C::content_hash, u.content_hash);
    f(C::retries, u.retries);
    f(C::failures, u.failures);
    f(C::last_visit, u.last_visit);
    f(C::last_success, u.last_success);
    f(C::visits, u.visits);
    f(C::successes, u.successes);
    f(C::changes, u.changes);
    f(C::interval, u.interval);
    f(C::next_visit, u.next_visit);
    f(C::tier, u.tier);
    f(C::tier_key, u.tier_key);
    f(C::first_success, u.first_success);
}

// What a column is set to from `v` (the new value): first_success keeps its
// value when the update has none.
inline std::string set_column(const std::string& column, const std::string& v) {
    return column + " = " + (column == "first_success" ? "coalesce(" + v + ", urls.first_success)" : v);
}

struct UpdateColumn {
    const char* name;
    const char* type;
};
#define URL_UPDATE_COL(column, type) UpdateColumn{#column, type},
inline const UpdateColumn kUpdateColumns[] = {URL_UPDATE_COLUMNS(URL_UPDATE_COL)};
#undef URL_UPDATE_COL
#undef URL_UPDATE_COLUMNS

}  // namespace frontier
