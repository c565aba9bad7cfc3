// libFuzzer target: the frontier-import side of the export stream
// (lib/store/store_export.cpp decode_row, lib/store/export_format.cpp header and end
// lines), without a database. The input is one line, parsed as a record.
// Invariants: no crash; a row decode_row accepts has its table, a value per
// column, every NOT NULL column set and each value of its column's type; an
// accepted header has versions this build reads.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "store/export_format.hpp"
#include "json/json.hpp"
#include "store/store_export.hpp"

using namespace frontier;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    Record r;
    if (!parse_record(text, r)) return 0;
    ImportRow row;
    RowProblem p = decode_row(r, row);
    if (p.reason.empty()) {
        if (!row.table || row.values.size() != row.table->columns.size()) abort();
        for (size_t i = 0; i < row.values.size(); ++i) {
            const ExportColumn& c = row.table->columns[i];
            const ImportValue& v = row.values[i];
            if (c.not_null && v.kind == ImportValue::Kind::null) abort();
            if (v.kind == ImportValue::Kind::text && !v.s) abort();
            if (c.type == ColumnType::integer && v.kind != ImportValue::Kind::null &&
                v.kind != ImportValue::Kind::integer)
                abort();
            if (c.type == ColumnType::real && v.kind != ImportValue::Kind::null &&
                v.kind != ImportValue::Kind::real)
                abort();
            if (c.type == ColumnType::text && v.kind != ImportValue::Kind::null &&
                v.kind != ImportValue::Kind::text)
                abort();
        }
    } else if (p.reason != "missing-table" && p.reason != "unknown-table" && p.reason != "unknown-field" &&
               p.reason != "missing-field" && p.reason != "bad-field") {
        abort();
    }
    ExportHeader h;
    if (is_export_header(r) && read_export_header(r, 2, h).empty() &&
        (h.format_version < 1 || h.format_version > kExportFormatVersion || h.schema_version > 2))
        abort();
    if (is_export_end(r)) (void)check_export_end(r, {{"meta", 3}, {"urls", 10}});
    return 0;
}
