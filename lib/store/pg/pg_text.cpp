#include "store/pg/pg_text.hpp"

#include <bit>
#include <charconv>
#include <stdexcept>

namespace frontier {

std::string pg_float_text(double v) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest text that reads back exactly
    std::string_view t(buf, static_cast<size_t>(r.ptr - buf));
    if (t == "inf") return "Infinity";
    if (t == "-inf") return "-Infinity";
    if (t == "nan" || t == "-nan") return "NaN";
    return std::string(t);
}

namespace {
void put32(std::string& b, uint32_t v) {
    const char bytes[4] = {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
                           static_cast<char>(v)};
    b.append(bytes, 4);
}
void set32(std::string& b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + static_cast<size_t>(i)] = static_cast<char>(v >> (24 - 8 * i));
}
void put64(std::string& b, uint64_t v) {
    put32(b, static_cast<uint32_t>(v >> 32));
    put32(b, static_cast<uint32_t>(v));
}
// Header offsets: ndim 0, null flag 4, element type 8, size 12, lower bound 16.
constexpr size_t kFlagAt = 4, kSizeAt = 12;
}  // namespace

void PgArray::element(Elem e, int32_t length) {
    if (elem_ == Elem::none) {
        elem_ = e;
        for (uint32_t v : {1u, 0u, static_cast<uint32_t>(e), 0u, 1u}) put32(buf_, v);
    } else if (elem_ != e) {
        throw std::logic_error("PgArray: elements of two types in one array");
    }
    if (length < 0) set32(buf_, kFlagAt, 1);
    set32(buf_, kSizeAt, static_cast<uint32_t>(++n_));
    put32(buf_, static_cast<uint32_t>(length));
}

void PgArray::add(int64_t v) {
    element(Elem::int8, 8);
    put64(buf_, static_cast<uint64_t>(v));
}

void PgArray::add(double v) {
    element(Elem::float8, 8);
    put64(buf_, std::bit_cast<uint64_t>(v));
}

void PgArray::add_text(std::string_view v, bool null) {
    if (null) return add_null(Elem::text);
    std::string_view t = pg_text(v);
    element(Elem::text, static_cast<int32_t>(t.size()));
    buf_.append(t);
}

}  // namespace frontier
