// The INSERT text both backends build for Db::prepare_insert_or_clash
// (lib/store/db.hpp): "VERB INTO table(a, b) VALUES (?, ?)". Private to
// lib/store/.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace frontier {

inline std::string insert_sql(std::string_view verb, std::string_view table,
                              const std::vector<std::string_view>& columns) {
    std::string sql = std::string(verb) + " INTO " + std::string(table) + "(";
    std::string marks;
    for (size_t i = 0; i < columns.size(); ++i) {
        sql += (i ? ", " : "") + std::string(columns[i]);
        marks += i ? ", ?" : "?";
    }
    return sql + ") VALUES (" + marks + ")";
}

}  // namespace frontier
