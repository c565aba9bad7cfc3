// An array parameter of a statement: many values bound as one (ids, or a
// column of many rows), built by the PostgreSQL backend's set-based reads
// and writes (lib/store/pg/pg_store.hpp) and encoded in pg_text.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "store/db.hpp"

namespace frontier {

// An array parameter (one for many rows or ids), one element at a time,
// in PostgreSQL's binary array format (array_recv: dimensions, a null
// flag, the element type, the size and lower bound, then each element's
// length, -1 for NULL, and bytes, all big-endian), so that the server
// reads it without parsing text; Stmt::bind sends it so. Every element is
// of one type: int8, float8 or text, as the parameter's SQL type
// (CAST(? AS bigint[]), double precision[], text[]) says. Bound as a
// Stmt::BinaryParam: an empty array as the text '{}' (of any type).
class PgArray {
public:
    void add(int64_t v);
    void add(double v);
    void add(const std::optional<double>& v) { v ? add(*v) : add_null(Elem::float8); }
    void add(const std::optional<int64_t>& v) { v ? add(*v) : add_null(Elem::int8); }
    void add(const std::optional<std::string>& v) { add_text(v ? std::string_view(*v) : std::string_view(), !v); }
    void add_text(std::string_view v, bool null);  // up to the first NUL (pg_text)
    size_t size() const { return n_; }
    // The parameter's bytes; none while no element was added (Stmt::bind
    // then sends the text '{}', an empty array of any type).
    const std::string& binary() const { return buf_; }
    operator Stmt::BinaryParam() const { return {buf_, "{}"}; }
    void clear() {
        buf_.clear();
        n_ = 0;
        elem_ = Elem::none;
    }

private:
    enum class Elem : uint32_t { none = 0, int8 = 20, text = 25, float8 = 701 };
    void element(Elem e, int32_t length);  // the header (first element), the count, the length
    void add_null(Elem e) { element(e, -1); }
    std::string buf_;
    size_t n_ = 0;
    Elem elem_ = Elem::none;
};

}  // namespace frontier
