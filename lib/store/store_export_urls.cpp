// export_url_table (lib/store/store_export.hpp): frontier-export --urls.
// Part of the storage module.
#include <iterator>

#include "store/db.hpp"
#include "json/json.hpp"
#include "store/export_index.hpp"
#include "store/store.hpp"
#include "store/store_connection.hpp"
#include "store/store_export.hpp"

namespace frontier {

namespace {

using T = ColumnType;

// The columns of frontier-export --urls, in order: the URL row as a crawl
// engineer reads it (names, not codes; the queue's key, not its id).
struct UrlColumn {
    const char* name;
    const char* sql;
    ColumnType type;
};
const UrlColumn kUrlColumns[] = {
    {"url", "u.url", T::text},
    {"state", "u.state", T::integer},  // written as its name
    {"reason", "u.reason", T::text},
    {"queue", "q.key", T::text},
    {"depth", "u.depth", T::integer},
    {"discovery", "u.discovery", T::text},
    {"type", "u.type", T::text},
    {"via", "u.via", T::text},
    {"priority", "u.priority", T::real},
    {"status", "u.status", T::integer},
    {"error_class", "u.error_class", T::text},
    {"fetched_at", "u.fetched_at", T::real},
    {"content_hash", "u.content_hash", T::text},
    {"attempts", "u.attempts", T::integer},
    {"visits", "u.visits", T::integer},
    {"successes", "u.successes", T::integer},
    {"last_success", "u.last_success", T::real},
    {"next_visit", "u.next_visit", T::real},
    {"added_at", "u.added_at", T::real},
};

// RFC 4180: a field with a comma, a quote or a line break is quoted, its
// quotes doubled.
void append_csv_field(std::string& out, std::string_view v) {
    if (v.find_first_of(",\"\r\n") == std::string_view::npos) {
        out += v;
        return;
    }
    out += '"';
    for (char c : v) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
}

// One URL row of `st` (kUrlColumns, in order) as a CSV record in `text` or
// a JSON object in `w`.
void write_url_row(const Stmt& st, bool csv, std::string& text, JsonWriter& w) {
    if (csv) text.clear();
    else w.begin();
    for (size_t i = 0; i < std::size(kUrlColumns); ++i) {
        const UrlColumn& c = kUrlColumns[i];
        int col = static_cast<int>(i);
        if (csv && i) text += ',';
        if (st.is_null(col)) continue;
        std::string v;
        if (std::string_view(c.name) == "state") {
            v = url_state_name(static_cast<UrlState>(st.i64(col)));
        } else if (c.type == T::integer) {
            if (!csv) {
                w.field(c.name, st.i64(col));
                continue;
            }
            v = std::to_string(st.i64(col));
        } else if (c.type == T::real) {
            if (!csv) {
                w.field(c.name, st.dbl(col));
                continue;
            }
            append_json_number(v, st.dbl(col));
        } else {
            v = st.str(col);
        }
        if (csv) append_csv_field(text, v);
        else w.field(c.name, v);
    }
    if (!csv) w.end();
}

}  // namespace

int64_t export_url_table(Store& store, bool csv, const std::function<void(std::string_view)>& line) {
    Db& db = store_db(store);
    std::string sql = "SELECT ";
    for (size_t i = 0; i < std::size(kUrlColumns); ++i) sql += std::string(i ? ", " : "") + kUrlColumns[i].sql;
    sql += " FROM urls u JOIN queues q ON q.id = u.queue_id ORDER BY u.id";
    ReadTransaction tx(db);
    std::string text;
    if (csv) {
        for (size_t i = 0; i < std::size(kUrlColumns); ++i) text += std::string(i ? "," : "") + kUrlColumns[i].name;
        line(text);
    }
    JsonWriter w;
    int64_t n = 0;
    Stmt st = db.prepare_stream(sql);  // memory stays flat (as export_rows)
    for (; st.step(); ++n) {
        write_url_row(st, csv, text, w);
        line(csv ? std::string_view(text) : std::string_view(w.str()));
    }
    return n;
}

}  // namespace frontier
