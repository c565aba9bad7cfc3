// decode_row and RowImporter (lib/store/store_export.hpp): frontier-import.
// Part of the storage module: the tables and columns are the schema's own
// (lib/store/schema_def.hpp).
#include <cmath>
#include <optional>
#include <unordered_map>

#include "core/error.hpp"
#include "json/json.hpp"
#include "store/db.hpp"
#include "store/export_index.hpp"
#include "store/lease_order_storage.hpp"
#include "store/schema_def.hpp"
#include "store/store.hpp"
#include "store/store_connection.hpp"
#include "store/store_export.hpp"
#include "store/store_impl.hpp"

namespace frontier {

namespace {

using T = ColumnType;

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

// Why `row` clashed, when the backend does not say (PostgreSQL), in the
// words SQLite uses for it ("database error: UNIQUE constraint failed:
// queues.id"): the table's primary key and its other unique keys are looked
// up with the row's values.
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
    // A URL row's (fingerprint, id), written to url_fps_new with the row, so
    // an import cut short still finds every URL it committed (frontier(7),
    // FILE FORMAT); finish() moves them to url_fps.
    std::optional<Stmt> pair_insert;
    std::optional<Stmt> entry_insert;  // SQLite: the lease order entry (kLeaseEntrySql)
    size_t fp_col = 0, id_col = 0;  // their places in the urls table's columns
    explicit Impl(Store& s) : store(s) {}
    void insert_pair(const ImportRow& row);
};

void RowImporter::Impl::insert_pair(const ImportRow& row) {
    if (!pair_insert) {  // the first URL row: the statement, and where fp and id are
        const std::vector<ExportColumn>& cols = row.table->columns;
        fp_col = id_col = cols.size();
        for (size_t i = 0; i < cols.size(); ++i) {
            if (cols[i].name == std::string_view("fp")) fp_col = i;
            if (cols[i].name == std::string_view("id")) id_col = i;
        }
        if (fp_col == cols.size() || id_col == cols.size())
            throw DbError("the urls table has no fp or id column");
        pair_insert = store_db(store).prepare("INSERT INTO url_fps_new(fp, id) VALUES (?, ?)");
        if (const char* sql = store_db(store).lease_order().import_entry_sql()) entry_insert = store_db(store).prepare(sql);
    }
    bind_value(*pair_insert, 1, row.values[fp_col]);
    bind_value(*pair_insert, 2, row.values[id_col]);
    pair_insert->exec();
    // Its lease order entry, if queued and due (SQLite; schema_def.hpp).
    if (entry_insert) {
        bind_value(*entry_insert, 1, row.values[id_col]);
        entry_insert->exec();
    }
}

RowImporter::RowImporter(Store& store) : impl_(std::make_unique<Impl>(store)) {}
RowImporter::~RowImporter() = default;

std::vector<std::string> RowImporter::non_empty_tables() {
    std::vector<std::string> v;
    for (const ExportTable& t : export_tables()) {
        if (t.name == std::string_view("meta")) continue;
        Stmt st = store_db(impl_->store).prepare(std::string("SELECT count(*) FROM ") + t.name);
        if (st.step() && st.i64(0) > 0) v.push_back(std::string(t.name) + " " + std::to_string(st.i64(0)));
    }
    return v;
}

void RowImporter::finish() {
    impl_->inserts.clear();
    impl_->pair_insert.reset();
    impl_->entry_insert.reset();
    Db& db = store_db(impl_->store);
    db.prepare_for_large_sorts();
    // The ids were given explicitly: move each identity sequence past the
    // largest, so rows added later do not take an imported row's id.
    for (const ExportTable& t : export_tables())
        if (t.key == std::string_view("id")) db.advance_id_sequence(t.name);
    // The fingerprint tables are not exported (frontier(7), FILE FORMAT): the
    // imported URLs' pairs, written to url_fps_new with their rows, move to
    // url_fps in key order, in one transaction.
    Transaction tx(db);
    db.exec(move_fingerprints_sql(db, ""));
    db.exec("DELETE FROM url_fps_new");
    db.exec("DELETE FROM meta WHERE key = 'fps_new'");
    // So is the lease order where it is kept in tables: the entries
    // written with the rows (insert_pair) move into place.
    db.lease_order().settle_import(db);
    tx.commit();
}

std::string RowImporter::insert(const ImportRow& row) {
    Db& db = store_db(impl_->store);
    const ExportTable& t = *row.table;
    auto it = impl_->inserts.find(&t);
    if (it == impl_->inserts.end()) {
        std::vector<std::string_view> columns;
        for (const ExportColumn& c : t.columns) columns.push_back(c.name);
        // A `meta` row replaces the new frontier's default.
        std::string_view replace_key = t.name == std::string_view("meta") ? t.key : "";
        it = impl_->inserts.emplace(&t, db.prepare_insert_or_clash(t.name, columns, replace_key)).first;
    }
    Stmt& st = it->second;
    for (size_t i = 0; i < row.values.size(); ++i) bind_value(st, static_cast<int>(i) + 1, row.values[i]);
    std::string message;
    if (db.insert_or_clash(st, message)) {
        if (t.name == std::string_view("urls")) impl_->insert_pair(row);
        return {};
    }
    // A clash with an imported row is that row's problem.
    return message.empty() ? clash_detail(db, row) : message;
}

}  // namespace frontier
