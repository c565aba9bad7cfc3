// Header and end lines of the frontier-export stream (lib/store/export_format.hpp).
#include "store/export_format.hpp"

#include "json/json.hpp"

namespace frontier {

std::string export_header_line(const ExportHeader& h) {
    JsonWriter w;
    w.begin();
    w.field("format", kExportFormat);
    w.field("format_version", h.format_version);
    w.field("schema_version", h.schema_version);
    w.field("tool", "frontier-export");
    w.field("tool_version", h.tool_version);
    w.field("exported_at", h.exported_at);
    w.end();
    return w.str();
}

bool is_export_header(const Record& r) { return r.has("format"); }
bool is_export_end(const Record& r) { return r.has("end"); }

std::string read_export_header(const Record& r, int64_t max_schema, ExportHeader& h) {
    const JsonValue* f = r.find("format");
    if (!f || f->kind != JsonValue::Kind::string || f->s != kExportFormat)
        return "not a frontier-export stream: the first line must be its header "
               "{\"format\":\"frontier-export\",...}";
    const JsonValue* fv = r.find("format_version");
    const JsonValue* sv = r.find("schema_version");
    if (!fv || fv->kind != JsonValue::Kind::integer || fv->i < 1)
        return "the frontier-export header has no valid format_version";
    if (!sv || sv->kind != JsonValue::Kind::integer || sv->i < 1)
        return "the frontier-export header has no valid schema_version";
    if (fv->i > kExportFormatVersion)
        return "the stream has frontier-export format version " + std::to_string(fv->i) +
               ", newer than this tool reads (" + std::to_string(kExportFormatVersion) +
               "); use a newer frontier toolkit";
    if (sv->i > max_schema)
        return "the stream comes from a frontier file with schema version " + std::to_string(sv->i) +
               ", newer than this tool knows (" + std::to_string(max_schema) +
               "); use a newer frontier toolkit";
    h.format_version = fv->i;
    h.schema_version = sv->i;
    const JsonValue* tv = r.find("tool_version");
    h.tool_version = tv && tv->kind == JsonValue::Kind::string ? tv->s : "";
    const JsonValue* at = r.find("exported_at");
    h.exported_at =
        at && (at->kind == JsonValue::Kind::integer || at->kind == JsonValue::Kind::number) ? at->d : 0;
    return {};
}

std::string export_end_line(const RowCounts& counts) {
    JsonWriter w;
    w.begin();
    w.field("end", kExportFormat);
    w.field("total", write_row_counts(w, "rows", counts));
    w.end();
    return w.str();
}

std::vector<std::string> check_export_end(const Record& end, const RowCounts& imported) {
    const JsonValue* e = end.find("end");
    const JsonValue* rows = end.find("rows");
    Record listed;
    if (!e || e->kind != JsonValue::Kind::string || e->s != kExportFormat || !rows ||
        rows->kind != JsonValue::Kind::object || !parse_record(rows->raw, listed))
        return {"the end line is not {\"end\":\"frontier-export\",\"rows\":{...}}"};
    std::vector<std::string> problems;
    for (auto& [table, n] : imported) {
        const JsonValue* v = listed.find(table);
        int64_t want = v && v->kind == JsonValue::Kind::integer ? v->i : 0;
        if (want != n)
            problems.push_back("the end line lists " + std::to_string(want) + " " + table + " rows, " +
                               std::to_string(n) + " were imported");
    }
    for (const JsonField& f : listed.fields) {
        bool known = false;
        for (auto& c : imported) known = known || c.first == f.key;
        if (!known)
            problems.push_back("the end line lists rows of table " + f.key +
                               ", which this tool does not know");
    }
    return problems;
}

int64_t write_row_counts(JsonWriter& w, std::string_view key, const RowCounts& counts) {
    w.key(key);
    w.begin_object();
    int64_t total = 0;
    for (auto& [table, n] : counts) {
        w.field(table, n);
        total += n;
    }
    w.end_object();
    return total;
}

}  // namespace frontier
