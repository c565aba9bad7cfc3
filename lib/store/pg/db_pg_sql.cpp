// pg_translate (lib/store/pg/db_pg.hpp): the store's SQLite SQL in PostgreSQL's
// dialect, the one place where the two differ. A small scanner, not a
// parser: it knows literals, quoted identifiers, parameters, identifiers and
// parentheses, which is all the store's statements need.
#include <algorithm>
#include <string>
#include <vector>

#include "store/pg/db_pg.hpp"

namespace frontier {

namespace {

bool ident_char(char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
}

// The index just past the parenthesis matching sql[open] ('('), and whether
// a comma occurs at its top level.
size_t match_paren(std::string_view sql, size_t open, bool& top_comma) {
    int depth = 0;
    top_comma = false;
    for (size_t i = open; i < sql.size(); ++i) {
        char ch = sql[i];
        if (ch == '\'') {
            for (++i; i < sql.size() && sql[i] != '\''; ++i) {
            }
        } else if (ch == '(') {
            ++depth;
        } else if (ch == ')') {
            if (--depth == 0) return i + 1;
        } else if (ch == ',' && depth == 1) {
            top_comma = true;
        }
    }
    return sql.size();
}

std::string lower(std::string_view s) {
    std::string r(s);
    for (char& ch : r)
        if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
    return r;
}

}  // namespace

std::string pg_translate(std::string_view sql, std::vector<bool>& used) {
    std::string out;
    out.reserve(sql.size() + 16);
    int max_param = 0;
    // Function calls rewritten with a closing suffix: the text to add when
    // the matching parenthesis is reached (by its offset in `sql`).
    std::vector<std::pair<size_t, std::string>> closers;
    bool after_limit = false;
    for (size_t i = 0; i < sql.size();) {
        for (auto it = closers.begin(); it != closers.end();)
            if (it->first == i) {
                out += it->second;
                it = closers.erase(it);
            } else {
                ++it;
            }
        char ch = sql[i];
        if (ch == '\'' || ch == '"') {  // literal or quoted identifier, copied
            size_t j = sql.find(ch, i + 1);
            j = j == std::string_view::npos ? sql.size() : j + 1;
            out.append(sql.substr(i, j - i));
            i = j;
            after_limit = false;
            continue;
        }
        if (ch == '?') {
            size_t j = i + 1;
            int n = 0;
            while (j < sql.size() && sql[j] >= '0' && sql[j] <= '9') n = n * 10 + (sql[j++] - '0');
            if (j == i + 1 || n < 1) n = max_param + 1;
            max_param = std::max(max_param, n);
            if (used.size() < static_cast<size_t>(n)) used.resize(static_cast<size_t>(n));
            used[n - 1] = true;
            std::string p = "$" + std::to_string(n);
            // LIMIT with a negative count means no limit in SQLite.
            out += after_limit ? "nullif(greatest(" + p + "::bigint, -1), -1)" : p;
            i = j;
            after_limit = false;
            continue;
        }
        if (ident_char(ch) && (i == 0 || !ident_char(sql[i - 1]))) {
            size_t j = i;
            while (j < sql.size() && ident_char(sql[j])) ++j;
            std::string_view word = sql.substr(i, j - i);
            std::string w = lower(word);
            size_t k = j;
            while (k < sql.size() && sql[k] == ' ') ++k;
            bool call = k < sql.size() && sql[k] == '(';
            after_limit = false;
            if (call && (w == "max" || w == "min")) {
                bool comma = false;
                match_paren(sql, k, comma);
                out += comma ? (w == "max" ? "greatest" : "least") : std::string(word);
            } else if (call && w == "total") {
                bool comma = false;
                size_t end = match_paren(sql, k, comma);
                out += "coalesce(sum";
                closers.emplace_back(end, ", 0)");
            } else if (w == "interval") {
                out += "\"interval\"";
            } else if (w == "real") {
                out += "double precision";
            } else {
                out.append(word);
                after_limit = w == "limit";
            }
            i = j;
            continue;
        }
        if (ch != ' ' && ch != '\n' && ch != '\t') after_limit = false;
        out += ch;
        ++i;
    }
    for (auto& [pos, text] : closers) out += text;
    used.resize(static_cast<size_t>(max_param));
    return out;
}

}  // namespace frontier
