// UrlRows: new URL rows inserted in batches, frontier-done's URL-row
// updates, and the fingerprints waiting in url_fps_new.
#include "store/url_rows.hpp"

#include "core/error.hpp"
#include "store/url_update_columns.hpp"

namespace frontier {

// PostgreSQL, batched inserts: the largest URL id so far (the identity
// sequence's last value, or a larger id stored by hand), read in the
// transaction's first fingerprint probe. Every insert into urls runs under
// the writer lock (frontier(7), POSTGRESQL), so the ids after it are this
// transaction's to give; flush_pending_urls moves the sequence past them.
const char* UrlRows::last_url_id_sql() {
    if (last_url_id_text_.empty())
        last_url_id_text_ = "SELECT greatest((" + statements_.db.id_sequence_last_sql("urls") +
                           "), (SELECT coalesce(max(id), 0) FROM urls))";
    return last_url_id_text_.c_str();
}

void UrlRows::flush_pending_urls(bool behind) {
    if (pending_rows == 0) return;
    // With each row, its fingerprint and id in url_fps_new (frontier(7), FILE
    // FORMAT), the ids given here: one statement, no RETURNING rows between
    // the two inserts.
    // The arrays unnested in the select list, read as they go: zipped as
    // unnest(a, b, ...) in FROM, each array would be copied first.
    if (insert_urls_text_.empty())
        insert_urls_text_ =
            "WITH a AS (INSERT INTO urls(id, " SQL_NEW_URL_COLUMNS
            ") SELECT unnest(?19::bigint[]), unnest(?1::bigint[]), unnest(?2::text[]), "
            "unnest(?3::bigint[]), unnest(?4::bigint[]), unnest(?5::float8[]), unnest(?6::float8[]), "
            "unnest(?7::bigint[]), unnest(?8::float8[]), unnest(?9::bigint[]), unnest(?10::bigint[]), "
            "unnest(?11::bigint[]), unnest(?12::text[]), unnest(?13::text[]), unnest(?14::text[]), "
            "unnest(?15::text[]), unnest(?16::bigint[]), unnest(?17::float8[]), unnest(?18::float8[])), "
            "b AS (INSERT INTO url_fps_new(fp, id) SELECT unnest(?1::bigint[]), unnest(?19::bigint[])) "
            "SELECT " +
            statements_.db.id_sequence_set_sql("urls", "?20");
    Stmt& ins = statements_.q(insert_urls_text_.c_str());
    for (size_t i = 0; i < pending_cols.size(); ++i) ins.bind(static_cast<int>(i) + 1, pending_cols[i]);
    ins.bind(kNewUrlColumns + 1, pending_ids).bind(kNewUrlColumns + 2, *last_url_id);
    if (behind)
        ins.exec_behind();
    else
        ins.exec();
    for (auto& c : pending_cols) c.clear();
    pending_ids.clear();
    pending_rows = 0;
    pending_fps.clear();
}

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
    fps_buffered = 0;
    if (held >= fp_buffer_limit()) fps_to_move = held;
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

void UrlRows::flush_updates() {
    if (statements_.db.statements_are_round_trips()) return flush_updates_set();
    updates.drain([this](const UrlUpdate& u) { write_update(u); });
}

void UrlRows::clear() {
    prefetched.clear();
    prefetched_leases.clear();
    pending_cols.clear();
    pending_ids.clear();
    last_url_id.reset();
    pending_rows = 0;
    pending_fps.clear();
    updates.clear();
    fps_buffered = 0;
    fps_to_move = 0;
}

}  // namespace frontier
