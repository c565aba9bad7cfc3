// PostgreSQL's text forms of values, for parameters sent as text
// (lib/store/pg/db_pg.cpp) and for array literals built by the store
// (PgArray: '{1,"a\"b",NULL}', one parameter for many rows or ids).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace frontier {

// The shortest text that reads back as exactly `v`; Infinity, -Infinity
// and NaN as PostgreSQL spells them.
std::string pg_float_text(double v);

// Text as PostgreSQL can store it: up to the first NUL (SQLite kept it).
inline std::string_view pg_text(std::string_view v) { return v.substr(0, v.find('\0')); }

// An array literal, one element at a time; str() closes it.
class PgArray {
public:
    void add(int64_t v) { element(std::to_string(v)); }
    void add(double v) { element(pg_float_text(v)); }
    void add(const std::optional<double>& v) { v ? add(*v) : element("NULL"); }
    void add(const std::optional<int64_t>& v) { v ? add(*v) : element("NULL"); }
    void add(const std::optional<std::string>& v) { add_text(v ? std::string_view(*v) : std::string_view(), !v); }
    void add_text(std::string_view v, bool null);
    size_t size() const { return n_; }
    std::string str() const { return (n_ ? text_ : "{") + "}"; }
    void clear() {
        text_.clear();
        n_ = 0;
    }

private:
    void element(std::string_view e) {
        text_ += n_++ ? ',' : '{';
        text_ += e;
    }
    std::string text_;
    size_t n_ = 0;
};

}  // namespace frontier
