// Moving a whole frontier between files and PostgreSQL databases, either
// way: the storage side of
// `frontier-export` and `frontier-import` (SQL in lib/store/store_export.cpp,
// store_export_urls.cpp and store_import.cpp, part of the storage module). The stream format around the rows (header and end
// lines) is in lib/export_format.hpp.
//
// A row is one JSON object per line: {"table":"urls","id":1,"fp":...}, its
// columns in schema order under their column names, a NULL column left out.
// INTEGER columns are JSON integers, REAL columns JSON numbers (written in
// the shortest form that reads back the same double), TEXT columns JSON
// strings (stored JSON texts such as settings values and `meta` are strings
// too, byte for byte). Row ids are kept, so lease ids, queue and host
// references and the FIFO and serve sequences mean the same in the copy.
// The table list below is the contract a PostgreSQL backend implements too.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "store/schema_def.hpp"

namespace frontier {

class Store;
class Record;

// The exported tables are the schema's tables (lib/store/schema_def.hpp),
// less the columns and tables marked not exported (the lease holders).
using ExportColumn = ColumnDef;
using ExportTable = TableDef;

// The exported tables in stream order (settings before the rows that depend
// on them, urls last). Thread-safe (built once).
const std::vector<ExportTable>& export_tables();

// Rows per table, in export_tables() order.
using RowCounts = std::vector<std::pair<std::string, int64_t>>;

// Writes every row of every exported table to `line` (one JSON object, no
// newline), in one read transaction: a consistent snapshot, safe while a
// crawl writes to the file (the snapshot pins the WAL until it ends).
// Memory is flat: rows are streamed from one statement per table.
// Returns the rows written per table; `invalid_utf8` counts text values that
// were not valid UTF-8 (written with U+FFFD, so not exact). Throws DbError;
// exceptions thrown by `line` (BrokenPipe, IoError) end the transaction too.
RowCounts export_rows(Store& store, const std::function<void(std::string_view)>& line, int64_t& invalid_utf8);

// frontier-export --urls: one line per URL (JSON object, or with `csv` a
// CSV record after a header line) with the columns an analysis wants: url,
// state (its name), reason, queue, depth, discovery, type, via, priority,
// status, error_class, fetched_at, content_hash, attempts, visits,
// successes, last_success, next_visit, added_at; nulls left out (JSON) or
// empty (CSV). One read transaction. Returns the URLs written.
int64_t export_url_table(Store& store, bool csv, const std::function<void(std::string_view)>& line);

// One decoded import row: the table and a value per column (null when the
// record leaves the column out or gives null). Strings point into the
// Record, which must outlive the row.
struct ImportValue {
    enum class Kind { null, integer, real, text } kind = Kind::null;
    int64_t i = 0;
    double d = 0;
    const std::string* s = nullptr;
};
struct ImportRow {
    const ExportTable* table = nullptr;
    std::vector<ImportValue> values;  // one per table->columns
};

// Why a record is not a row; empty `reason` when it is.
struct RowProblem {
    std::string reason;  // missing-table, unknown-table, unknown-field, missing-field, bad-field
    std::string field;   // the column concerned, when there is one
};

// Validates a record against the table definitions (no database): a known
// "table", only that table's columns, every NOT NULL column present, each
// value of its column's type (an integer column takes integral numbers,
// a real column any finite number, a text column strings). Pure; thread-safe.
RowProblem decode_row(const Record& r, ImportRow& row);

// Inserts decoded rows into a frontier that holds no data yet. Use inside
// store.begin()/commit() (the caller chooses the batch size).
class RowImporter {
public:
    explicit RowImporter(Store& store);
    ~RowImporter();
    RowImporter(const RowImporter&) = delete;
    RowImporter& operator=(const RowImporter&) = delete;

    // The data tables that already hold rows ("urls 12"), empty when the
    // frontier is empty (the `meta` sequences of a new file do not count).
    std::vector<std::string> non_empty_tables();
    // Inserts one row. A `meta` row replaces the new file's default; any
    // other row that clashes with one already imported (same key, same id)
    // is refused: returns the database's message, in SQLite's words on both
    // backends ("database error: UNIQUE constraint failed: queues.id"), and
    // changes nothing. On PostgreSQL each row is a round trip. Throws
    // DbError for anything else (disk full, I/O, a value PostgreSQL's column
    // type cannot hold).
    std::string insert(const ImportRow& row);
    // After the last commit: the connection is ready for large sorts
    // (Db::prepare_for_large_sorts: those of the check_frontier() that
    // follows, duplicate URLs and per-depth counts), so checking a large
    // import stays near the page cache's size; the identity sequences of
    // queues, hosts and urls move past the largest imported id
    // (Db::advance_id_sequence, PostgreSQL).
    void finish();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace frontier
