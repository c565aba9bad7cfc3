// export_rows (lib/store/store_export.hpp). Part of the storage module: the
// tables and columns are the schema's own (lib/store/schema_def.hpp). The
// URL table of --urls is in lib/store/store_export_urls.cpp, the import in
// lib/store/store_import.cpp.
#include "store/store_export.hpp"

#include <algorithm>

#include "store/db.hpp"
#include "core/error.hpp"
#include "json/json.hpp"
#include "store/export_index.hpp"
#include "store/store.hpp"
#include "store/store_connection.hpp"

namespace frontier {

namespace {

using T = ColumnType;

// "SELECT a, b, typeof(c), c FROM t ORDER BY k": an `any` column is read
// with the type of its value (Db::value_type_sql). Names come from the
// constant table list only. The backend's own schema version (PostgreSQL's
// meta row 'schema_version'; SQLite's user_version) is not a row: the header
// carries it. Nor is the count of fingerprints in url_fps_new (meta row
// 'fps_new'; the import builds url_fps). Text keys sort bytewise on both
// backends.
std::string select_sql(const Db& db, const ExportTable& t) {
    std::string sql = "SELECT ";
    for (size_t i = 0; i < t.columns.size(); ++i) {
        if (i) sql += ", ";
        if (t.columns[i].type == T::any) sql += db.value_type_sql(t.columns[i].name) + ", ";
        sql += t.columns[i].name;
    }
    sql += std::string(" FROM ") + t.name;
    if (t.name == std::string_view("meta")) sql += " WHERE key NOT IN ('schema_version', 'fps_new')";
    sql += " ORDER BY ";
    bool first = true;
    for (std::string_view col : key_columns(t.key)) {
        bool text = false;
        for (const ExportColumn& c : t.columns)
            if (c.name == col && c.type == T::text) text = true;
        sql += std::string(first ? "" : ", ") + (text ? db.bytewise_order_sql(col) : std::string(col));
        first = false;
    }
    return sql;
}

// The storage class an `any` column was read with: SQLite's typeof() or
// PostgreSQL's type name.
ColumnType storage_type(std::string_view storage) {
    if (storage == "integer" || storage == "bigint") return T::integer;
    if (storage == "real" || storage == "double precision") return T::real;
    return T::text;
}

// One row of `st` (select_sql's columns) as a JSON object in `w`.
void write_row(JsonWriter& w, const ExportTable& t, const Stmt& st, int64_t& invalid_utf8) {
    w.begin();
    w.field("table", t.name);
    int col = 0;
    for (const ExportColumn& c : t.columns) {
        ColumnType type = c.type == T::any ? storage_type(st.text(col++)) : c.type;
        if (st.is_null(col)) {
            ++col;
            continue;
        }
        switch (type) {
            case T::integer:
                w.field(c.name, st.i64(col));
                break;
            case T::real:
                w.field(c.name, st.dbl(col));
                break;
            default: {
                std::string_view s = st.text(col);
                if (!valid_utf8(s)) ++invalid_utf8;
                w.field(c.name, s);
            }
        }
        ++col;
    }
    w.end();
}

}  // namespace

const TableIndex& table_index() {
    static const TableIndex idx = [] {
        TableIndex x;
        for (const ExportTable& t : export_tables()) {
            x.tables[t.name] = &t;
            auto& cols = x.columns[&t];
            for (size_t i = 0; i < t.columns.size(); ++i) cols[t.columns[i].name] = i;
        }
        return x;
    }();
    return idx;
}


std::vector<std::string_view> key_columns(std::string_view key) {
    std::vector<std::string_view> cols;
    for (size_t at = 0; at <= key.size();) {
        size_t comma = std::min(key.find(", ", at), key.size());
        cols.push_back(key.substr(at, comma - at));
        at = comma + 2;
    }
    return cols;
}


// The schema's tables and columns less those kept out of the export
// (ColumnDef::exported, TableDef::exported: the lease holders).
const std::vector<ExportTable>& export_tables() {
    static const std::vector<ExportTable> tables = [] {
        std::vector<ExportTable> v;
        for (const TableDef& t : schema_tables()) {
            if (!t.exported) continue;
            v.push_back(t);
            std::erase_if(v.back().columns, [](const ColumnDef& c) { return !c.exported; });
        }
        return v;
    }();
    return tables;
}

RowCounts export_rows(Store& store, const std::function<void(std::string_view)>& line,
                      int64_t& invalid_utf8) {
    Db& db = store_db(store);
    RowCounts counts;
    invalid_utf8 = 0;
    ReadTransaction tx(db);
    JsonWriter w;
    for (const ExportTable& t : export_tables()) {
        int64_t n = 0;
        Stmt st = db.prepare_stream(select_sql(db, t));
        for (; st.step(); ++n) {
            write_row(w, t, st, invalid_utf8);
            line(w.str());
        }
        counts.emplace_back(t.name, n);
    }
    return counts;
}

}  // namespace frontier
