// The frontier-export stream around the rows (lib/store/store_export.hpp):
//
//   {"format":"frontier-export","format_version":1,"schema_version":2,
//    "tool":"frontier-export","tool_version":"0.1.0","exported_at":1800000000}
//   {"table":"meta","key":"fifo_seq","value":4}
//   ... one line per row, tables in export_tables() order ...
//   {"end":"frontier-export","rows":{"meta":3,...,"urls":120},"total":140}
//
// The end line makes a cut-off stream detectable. Pure functions, no I/O;
// thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "store/store_export.hpp"

namespace frontier {

class JsonWriter;

class Record;

inline constexpr std::string_view kExportFormat = "frontier-export";
// Bumped when a reader of the previous version could misread the stream.
inline constexpr int64_t kExportFormatVersion = 1;

struct ExportHeader {
    int64_t format_version = kExportFormatVersion;
    int64_t schema_version = 0;  // of the exported file (lib/store/store.hpp kSchemaVersion)
    std::string tool_version;
    double exported_at = 0;  // epoch seconds: the snapshot's time
};

// The header line (no newline).
std::string export_header_line(const ExportHeader& h);

// Reads and checks a header record. Returns an error message, empty when
// the header is accepted: "format" must be "frontier-export", its
// format_version at most kExportFormatVersion and its schema_version at
// most `max_schema` (an older schema is fine: columns it lacks are NULL).
std::string read_export_header(const Record& r, int64_t max_schema, ExportHeader& h);

// The end line (no newline) for these row counts.
std::string export_end_line(const RowCounts& counts);

// Writes "KEY":{"table":n,...} into the open object of `w` and returns the
// sum of the counts (the end line's "rows", frontier-import's "imported").
int64_t write_row_counts(JsonWriter& w, std::string_view key, const RowCounts& counts);

// True for a header record (it has "format") / an end record (it has "end").
bool is_export_header(const Record& r);
bool is_export_end(const Record& r);

// Compares an end record with the rows imported per table. Returns one
// message per difference ("the end line lists 120 urls rows, 119 were
// imported"), or a message that the end record is malformed; empty when
// everything matches.
std::vector<std::string> check_export_end(const Record& end, const RowCounts& imported);

}  // namespace frontier
