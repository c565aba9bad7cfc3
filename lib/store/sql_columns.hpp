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
