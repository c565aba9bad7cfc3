// Statements: the small reads and writes every part of the store makes.
#include "store/statements.hpp"

#include "core/error.hpp"

namespace frontier {

std::optional<int64_t> Statements::find_id(const char* sql, const std::string& key) {
    Stmt& st = q(sql);
    st.bind(1, key);
    std::optional<int64_t> id;
    if (st.step()) id = st.i64(0);
    st.reset();
    return id;
}

int64_t Statements::meta_next(const char* key) {
    Stmt& st = q("UPDATE meta SET value = value + 1 WHERE key = ? RETURNING value");
    st.bind(1, key);
    if (!st.step()) throw DbError(std::string("missing meta key ") + key);
    int64_t v = st.i64(0);
    st.reset();
    return v;
}

}  // namespace frontier
