// PostgreSQL's text forms of values, for parameters sent as text
// (lib/store/pg/db_pg.cpp). The array parameters the store builds
// (PgArray, store/pg/pg_array.hpp) are encoded in pg_text.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "store/pg/pg_array.hpp"

namespace frontier {

// The shortest text that reads back as exactly `v`; Infinity, -Infinity
// and NaN as PostgreSQL spells them.
std::string pg_float_text(double v);

// Text as PostgreSQL can store it: up to the first NUL (SQLite kept it).
inline std::string_view pg_text(std::string_view v) { return v.substr(0, v.find('\0')); }

}  // namespace frontier
