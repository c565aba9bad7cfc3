// UrlRows: frontier-done's URL-row updates, and the fingerprints waiting
// in url_fps_new.
#include "store/url_rows.hpp"

#include "core/error.hpp"
#include "store/url_update_columns.hpp"

namespace frontier {

// The fingerprints this transaction put in url_fps_new, counted in meta
// (fps_new); once it holds fp_buffer_limit() of them, Store::commit moves
// them to url_fps (move_fingerprints).
void UrlRows::count_fingerprints() {
    Stmt& up =
        statements_.q("INSERT INTO meta(key, value) VALUES ('fps_new', ?) ON CONFLICT(key) DO UPDATE "
          "SET value = meta.value + excluded.value RETURNING value");
    up.bind(1, fps_buffered);
    const int64_t held = up.step() ? up.i64(0) : 0;
    up.reset();
    fps_added += fps_buffered;
    fps_buffered = 0;
    if (held >= fp_buffer_limit()) fps_to_move = held;
    seen.rows_written();
}

namespace {
// One row: UPDATE urls SET state = ?2, ... WHERE id = ?1 (parameter n+1 is
// column n); the lease ends.
std::string url_update_sql() {
    std::string set;
    for (int i = 1; i < static_cast<int>(UpdCol::count); ++i)
        set += set_column(kUpdateColumns[i].name, "?" + std::to_string(i + 1)) + ", ";
    return "UPDATE urls SET " + set + "lease_expires = NULL WHERE id = ?1";
}

}  // namespace

void UrlRows::write_update(const UrlUpdate& u) {
    static const std::string sql = url_update_sql();
    Stmt& st = statements_.q(sql.c_str());
    each_update_value(u, [&st](UpdCol c, const auto& v) { st.bind(static_cast<int>(c) + 1, v); });
    st.exec();
    // Its lease order entry (frontier(7), FILE FORMAT): a leased row has
    // none; a late result's row left its entry before (finish_url).
    if (u.state == static_cast<int>(UrlState::queued) && !u.due) queues_.enter_lease_order(u.id);
}

void UrlRows::clear() {
    prefetched.clear();
    prefetched_leases.clear();
    updates.clear();
    fps_buffered = 0;
    fps_added = 0;
    fps_to_move = 0;
    seen.rolled_back();
}

}  // namespace frontier
