// What frontier-export and frontier-import share beyond the table list
// (lib/store/store_export.cpp, lib/store/store_import.cpp): the tables and
// columns by name, and a key's columns. Private to lib/store/.
#pragma once

#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/store_export.hpp"

namespace frontier {

// Column name -> index, per table, for decode_row.
struct TableIndex {
    std::unordered_map<std::string_view, const ExportTable*> tables;
    std::unordered_map<const ExportTable*, std::unordered_map<std::string_view, size_t>> columns;
};
const TableIndex& table_index();

// The columns of a key ("domain, key").
std::vector<std::string_view> key_columns(std::string_view key);

// Ends the read transaction however the export ends.
struct ReadTransaction {
    Db& db;
    explicit ReadTransaction(Db& d) : db(d) { db.begin_read(); }
    ~ReadTransaction() { db.rollback(); }
};

}  // namespace frontier
