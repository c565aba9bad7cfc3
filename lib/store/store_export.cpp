// export_rows, decode_row and RowImporter (lib/store/store_export.hpp). Part of
// the storage module: the tables and columns are the schema's own
// (lib/store/schema_def.hpp).
#include "store/store_export.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_map>

#include "store/db.hpp"
#include "core/error.hpp"
#include "json/json.hpp"
#include "store/store.hpp"

namespace frontier {

namespace {

using T = ColumnType;

// Column name -> index, per table, for decode_row.
struct TableIndex {
    std::unordered_map<std::string_view, const ExportTable*> tables;
    std::unordered_map<const ExportTable*, std::unordered_map<std::string_view, size_t>> columns;
};

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

// Ends the read transaction however the export ends.
struct ReadTransaction {
    Db& db;
    explicit ReadTransaction(Db& d) : db(d) { db.begin_read(); }
    ~ReadTransaction() { db.rollback(); }
};

// The columns of a key ("domain, key").
std::vector<std::string_view> key_columns(std::string_view key) {
    std::vector<std::string_view> cols;
    for (size_t at = 0; at <= key.size();) {
        size_t comma = std::min(key.find(", ", at), key.size());
        cols.push_back(key.substr(at, comma - at));
        at = comma + 2;
    }
    return cols;
}

// "SELECT a, b, typeof(c), c FROM t ORDER BY k": an `any` column is read
// with its storage class (PostgreSQL: pg_typeof, its declared type). Names
// come from the constant table list only. The backend's own schema version
// (PostgreSQL's meta row 'schema_version'; SQLite's user_version) is not a
// row: the header carries it. Text keys sort bytewise on both backends.
std::string select_sql(const ExportTable& t, bool pg) {
    std::string sql = "SELECT ";
    for (size_t i = 0; i < t.columns.size(); ++i) {
        if (i) sql += ", ";
        if (t.columns[i].type == T::any)
            sql += std::string(pg ? "pg_typeof(" : "typeof(") + t.columns[i].name + (pg ? ")::text, " : "), ");
        sql += t.columns[i].name;
    }
    sql += std::string(" FROM ") + t.name;
    if (t.name == std::string_view("meta")) sql += " WHERE key <> 'schema_version'";
    if (!pg) return sql + " ORDER BY " + t.key;
    sql += " ORDER BY ";
    bool first = true;
    for (std::string_view col : key_columns(t.key)) {
        sql += std::string(first ? "" : ", ") + std::string(col);
        first = false;
        for (const ExportColumn& c : t.columns)
            if (c.name == col && c.type == T::text) sql += " COLLATE \"C\"";
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

// On PostgreSQL a row that clashes inserts nothing and returns no row (ON
// CONFLICT DO NOTHING), so the transaction goes on; a `meta` row replaces the
// new frontier's default there too, but never its schema version.
std::string insert_sql(const ExportTable& t, bool pg) {
    const bool meta = t.name == std::string_view("meta");
    std::string sql = std::string(meta && !pg ? "INSERT OR REPLACE" : "INSERT") + " INTO " + t.name + "(";
    std::string marks;
    for (size_t i = 0; i < t.columns.size(); ++i) {
        sql += (i ? ", " : "") + std::string(t.columns[i].name);
        marks += i ? ", ?" : "?";
    }
    sql += ") VALUES (" + marks + ")";
    if (!pg) return sql;
    if (meta)
        return sql + " ON CONFLICT (key) DO UPDATE SET value = excluded.value "
                     "WHERE meta.key <> 'schema_version' RETURNING 1";
    return sql + " ON CONFLICT DO NOTHING RETURNING 1";
}

void bind_value(Stmt& st, int k, const ImportValue& v) {
    switch (v.kind) {
        case ImportValue::Kind::null:
            st.bind_null(k);
            break;
        case ImportValue::Kind::integer:
            st.bind(k, v.i);
            break;
        case ImportValue::Kind::real:
            st.bind(k, v.d);
            break;
        case ImportValue::Kind::text:
            st.bind(k, std::string_view(*v.s));
            break;
    }
}

// Why PostgreSQL refused `row`, in the words SQLite uses for it ("database
// error: UNIQUE constraint failed: queues.id"): the table's primary key and
// its other unique keys are looked up with the row's values.
std::string clash_detail(Db& db, const ImportRow& row) {
    const ExportTable& t = *row.table;
    const auto& index = table_index().columns.at(&t);
    std::vector<const char*> keys{t.key};
    keys.insert(keys.end(), t.unique.begin(), t.unique.end());
    for (const char* key : keys) {
        std::string sql = std::string("SELECT 1 FROM ") + t.name + " WHERE ", names;
        std::vector<std::string_view> cols = key_columns(key);
        for (size_t i = 0; i < cols.size(); ++i) {
            sql += (i ? " AND " : "") + std::string(cols[i]) + " = ?";
            names += (i ? ", " : "") + std::string(t.name) + "." + std::string(cols[i]);
        }
        Stmt st = db.prepare(sql);
        for (size_t i = 0; i < cols.size(); ++i)
            bind_value(st, static_cast<int>(i) + 1, row.values[index.at(cols[i])]);
        if (st.step()) return "database error: UNIQUE constraint failed: " + names;
    }
    return "database error: the row clashes with a row already imported";
}

}  // namespace

const std::vector<ExportTable>& export_tables() { return schema_tables(); }

RowCounts export_rows(Store& store, const std::function<void(std::string_view)>& line,
                      int64_t& invalid_utf8) {
    Db& db = store.db();
    const bool pg = db.postgres();
    RowCounts counts;
    invalid_utf8 = 0;
    ReadTransaction tx(db);
    JsonWriter w;
    // PostgreSQL hands a statement's rows over all at once: there a cursor
    // is read in slices, so memory stays flat as on SQLite.
    constexpr const char* kCursor = "export_cursor";
    std::optional<Stmt> slice;
    if (pg) slice.emplace(db.prepare(std::string("FETCH 5000 FROM ") + kCursor));
    for (const ExportTable& t : export_tables()) {
        int64_t n = 0;
        if (!pg) {
            Stmt st = db.prepare(select_sql(t, false));
            while (st.step()) {
                write_row(w, t, st, invalid_utf8);
                line(w.str());
                ++n;
            }
        } else {
            db.exec(std::string("DECLARE ") + kCursor + " NO SCROLL CURSOR FOR " + select_sql(t, true));
            for (int64_t got = 1; got > 0;) {
                for (got = 0; slice->step(); ++got) {
                    write_row(w, t, *slice, invalid_utf8);
                    line(w.str());
                }
                slice->reset();
                n += got;
            }
            db.exec(std::string("CLOSE ") + kCursor);
        }
        counts.emplace_back(t.name, n);
    }
    return counts;
}

namespace {

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

}  // namespace

int64_t export_url_table(Store& store, bool csv, const std::function<void(std::string_view)>& line) {
    Db& db = store.db();
    const bool pg = db.postgres();
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
    auto row = [&](const Stmt& st) {
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
        line(csv ? std::string_view(text) : std::string_view(w.str()));
    };
    int64_t n = 0;
    if (!pg) {
        Stmt st = db.prepare(sql);
        for (; st.step(); ++n) row(st);
    } else {  // a cursor read in slices, so memory stays flat (as export_rows)
        db.exec("DECLARE url_cursor NO SCROLL CURSOR FOR " + sql);
        Stmt slice = db.prepare("FETCH 5000 FROM url_cursor");
        for (int64_t got = 1; got > 0;) {
            for (got = 0; slice.step(); ++got) row(slice);
            slice.reset();
            n += got;
        }
        db.exec("CLOSE url_cursor");
    }
    return n;
}

RowProblem decode_row(const Record& r, ImportRow& row) {
    const TableIndex& idx = table_index();
    const JsonValue* tv = r.find("table");
    if (!tv || tv->kind != JsonValue::Kind::string)
        return {tv ? "bad-field" : "missing-table", tv ? "table" : ""};
    auto ti = idx.tables.find(tv->s);
    if (ti == idx.tables.end()) return {"unknown-table", "table"};
    row.table = ti->second;
    const auto& cols = idx.columns.at(row.table);
    row.values.assign(row.table->columns.size(), ImportValue{});
    for (const JsonField& f : r.fields) {  // in order: a repeated key, the last wins
        if (f.key == "table") continue;
        auto ci = cols.find(f.key);
        if (ci == cols.end()) return {"unknown-field", f.key};
        const ExportColumn& c = row.table->columns[ci->second];
        const JsonValue& v = f.value;
        ImportValue& out = row.values[ci->second];
        out = ImportValue{};
        using K = JsonValue::Kind;
        if (v.kind == K::null) continue;
        ColumnType type = c.type;
        if (type == T::any)
            type = v.kind == K::string ? T::text : v.kind == K::integer ? T::integer : T::real;
        switch (type) {
            case T::integer:
                if (v.kind == K::integer ||
                    (v.kind == K::number && std::trunc(v.d) == v.d && v.d == double(v.i))) {
                    out.kind = ImportValue::Kind::integer;
                    out.i = v.i;
                } else {
                    return {"bad-field", f.key};
                }
                break;
            case T::real:
                if ((v.kind != K::integer && v.kind != K::number) || !std::isfinite(v.d))
                    return {"bad-field", f.key};
                out.kind = ImportValue::Kind::real;
                out.d = v.d;
                break;
            default:
                if (v.kind != K::string) return {"bad-field", f.key};
                out.kind = ImportValue::Kind::text;
                out.s = &v.s;
        }
    }
    for (size_t i = 0; i < row.values.size(); ++i)
        if (row.table->columns[i].not_null && row.values[i].kind == ImportValue::Kind::null) {
            if (!row.table->columns[i].zero_when_missing) return {"missing-field", row.table->columns[i].name};
            row.values[i].kind = ImportValue::Kind::integer;
            row.values[i].i = 0;
        }
    return {};
}

struct RowImporter::Impl {
    Store& store;
    std::unordered_map<const ExportTable*, Stmt> inserts;
    explicit Impl(Store& s) : store(s) {}
};

RowImporter::RowImporter(Store& store) : impl_(std::make_unique<Impl>(store)) {}
RowImporter::~RowImporter() = default;

std::vector<std::string> RowImporter::non_empty_tables() {
    std::vector<std::string> v;
    for (const ExportTable& t : export_tables()) {
        if (t.name == std::string_view("meta")) continue;
        Stmt st = impl_->store.db().prepare(std::string("SELECT count(*) FROM ") + t.name);
        if (st.step() && st.i64(0) > 0) v.push_back(std::string(t.name) + " " + std::to_string(st.i64(0)));
    }
    return v;
}

void RowImporter::finish() {
    impl_->inserts.clear();
    Db& db = impl_->store.db();
    if (!db.postgres()) {
        db.exec("PRAGMA temp_store=FILE");
        return;
    }
    // The ids were given explicitly: move each identity sequence past the
    // largest, so rows added later do not take an imported row's id.
    for (const ExportTable& t : export_tables()) {
        if (t.key != std::string_view("id")) continue;
        Stmt st = db.prepare(std::string("SELECT setval(pg_get_serial_sequence('") + t.name + "', 'id'), max(id)) FROM " +
                             t.name + " HAVING max(id) IS NOT NULL");
        st.step();
    }
}

std::string RowImporter::insert(const ImportRow& row) {
    Db& db = impl_->store.db();
    auto it = impl_->inserts.find(row.table);
    if (it == impl_->inserts.end())
        it = impl_->inserts.emplace(row.table, db.prepare(insert_sql(*row.table, db.postgres()))).first;
    Stmt& st = it->second;
    for (size_t i = 0; i < row.values.size(); ++i) bind_value(st, static_cast<int>(i) + 1, row.values[i]);
    if (db.postgres()) {  // RETURNING 1: no row when it clashed
        bool inserted = st.step();
        st.reset();
        return inserted ? std::string() : clash_detail(db, row);
    }
    try {
        st.exec();
    } catch (const DbError& e) {
        // A clash with an imported row is that row's problem; anything else
        // (I/O, disk full) stops the import.
        bool clash = db.constraint_violation(e);
        st.reset();
        if (clash) return e.what();
        throw;
    }
    return {};
}

}  // namespace frontier
