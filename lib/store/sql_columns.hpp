// The columns of a SELECT read by name, not by position. One X-macro list
// gives each column a name and its SQL expression:
//   #define SEED_COLUMNS(X) X(id, "u.id") X(url, "u.url")
// and from it come both the enum of column indexes and the SELECT list, so
// the two cannot drift apart:
//   enum class SeedCol { SEED_COLUMNS(SQL_COLUMN_NAME) };
//   std::string sql = "SELECT " + sql_column_list({SEED_COLUMNS(SQL_COLUMN_EXPR)}) + " FROM ...";
//   SqlRow<SeedCol> r(st);  ...  r.str(SeedCol::url)
// Private to lib/store/.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "store/db.hpp"

#define SQL_COLUMN_NAME(name, expr) name,
#define SQL_COLUMN_EXPR(name, expr) expr,

namespace frontier {

// "a, b, c"
inline std::string sql_column_list(std::initializer_list<const char*> exprs) {
    std::string list;
    for (const char* e : exprs) {
        if (!list.empty()) list += ", ";
        list += e;
    }
    return list;
}

// An array of integers as the one parameter, in a scalar subquery: a plan
// made for the array's length is then no better than the prepared
// statement's cached plan, which PostgreSQL uses, where it planned most
// runs again for their array (with 16 pipelines, 9 of 10 runs of
// probe_of_urls_sql).
#define SQL_ARRAY_PARAM "(SELECT CAST(? AS bigint[]))"

// The rows of `table` whose `key` is one of an array of integers (the one
// parameter, a PostgreSQL array literal: PgArray), `columns` of each: one
// index probe per key, a LATERAL subquery that OFFSET 0 keeps apart
// (`key = ANY(...)` alone got a generic plan while the table was small,
// then scanned the whole table on every call). Round-trip backends only.
// The array is a scalar subquery (SQL_ARRAY_PARAM).
inline std::string probe_each_sql(const char* table, const char* key, const std::string& columns) {
    return std::string("SELECT u.* FROM unnest(" SQL_ARRAY_PARAM ") AS k(key), LATERAL (SELECT ") + columns +
           " FROM " + table + " WHERE " + table + "." + key + " = k.key OFFSET 0) AS u";
}

// The rows of `table` that URLs point to by `column` (queue_id, host_id),
// each once, for the URL ids in an array (the one parameter): `columns` of
// each, every row found by a primary-key probe as in probe_each_sql.
inline std::string probe_of_urls_sql(const char* table, const char* column, const std::string& columns) {
    return std::string("SELECT u.* FROM (SELECT DISTINCT x.") + column +
           " AS key FROM unnest(" SQL_ARRAY_PARAM ") AS k(id), LATERAL (SELECT " + column +
           " FROM urls WHERE urls.id = k.id OFFSET 0) AS x) AS k, LATERAL (SELECT " + columns + " FROM " +
           table + " WHERE " + table + ".id = k.key OFFSET 0) AS u";
}

// The current row of a statement, its columns named by the enum `E`.
template <class E>
class SqlRow {
public:
    // `first`: the statement's column where E's columns begin.
    explicit SqlRow(const Stmt& st, int first = 0) : st_(st), first_(first) {}
    bool is_null(E c) const { return st_.is_null(at(c)); }
    int64_t i64(E c) const { return st_.i64(at(c)); }
    double dbl(E c) const { return st_.dbl(at(c)); }
    std::string_view text(E c) const { return st_.text(at(c)); }
    std::string str(E c) const { return st_.str(at(c)); }
    std::optional<int64_t> opt_i64(E c) const { return st_.opt_i64(at(c)); }
    std::optional<double> opt_dbl(E c) const { return st_.opt_dbl(at(c)); }

private:
    int at(E c) const { return first_ + static_cast<int>(c); }
    const Stmt& st_;
    int first_;
};

}  // namespace frontier
