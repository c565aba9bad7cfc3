#include "store/pg/pg_text.hpp"

#include <charconv>

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

void PgArray::add_text(std::string_view v, bool null) {
    if (null) return element("NULL");
    text_ += n_++ ? ',' : '{';
    text_ += '"';
    for (char c : pg_text(v)) {
        if (c == '"' || c == '\\') text_ += '\\';
        text_ += c;
    }
    text_ += '"';
}

}  // namespace frontier
