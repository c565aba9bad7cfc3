// Encoding of HTML documents for link extraction (lib/web/html/encoding.hpp).

#include "web/html/encoding.hpp"

#include <iconv.h>

#include <cerrno>
#include <cstring>

#include "core/ascii.hpp"
#include "web/html/tokenizer.hpp"
#include "web/html/utf8.hpp"
#include "json/json.hpp"

namespace frontier::html {

namespace {

constexpr size_t kMetaScanBytes = 4096;

bool pure_ascii(std::string_view s) {
    const unsigned char* p = reinterpret_cast<const unsigned char*>(s.data());
    size_t n = s.size(), i = 0;
    uint64_t acc = 0;
    for (; i + 64 <= n; i += 64) {  // blocks of 64 bytes: a non-ASCII page stops early
        for (size_t j = 0; j < 64; j += 8) {
            uint64_t w;
            std::memcpy(&w, p + i + j, 8);
            acc |= w;
        }
        if (acc & 0x8080808080808080ull) return false;
    }
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        std::memcpy(&w, p + i, 8);
        acc |= w;
    }
    for (; i < n; ++i) acc |= p[i];
    return (acc & 0x8080808080808080ull) == 0;
}

const char kReplacement[] = "\xEF\xBF\xBD";

// windows-1252 as the Encoding Standard decodes it (0x81, 0x8D, 0x8F, 0x90
// and 0x9D map to the C1 controls of the same value).
void windows_1252(std::string_view in, std::string& out) {
    static const uint16_t kHigh[32] = {0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
                                       0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
                                       0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                                       0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};
    out.clear();
    out.reserve(in.size() + in.size() / 8);
    for (char ch : in) {
        auto c = static_cast<unsigned char>(ch);
        if (c == 0)
            out += kReplacement;
        else if (c < 0x80)
            out.push_back(static_cast<char>(c));
        else if (c < 0xA0)
            append_utf8(out, kHigh[c - 0x80]);
        else
            append_utf8(out, c);
    }
}

// `doc` with U+0000 as U+FFFD: `doc` itself when it has none, else a copy
// in `storage`.
std::string_view replace_nul(std::string_view doc, std::string& storage) {
    if (std::memchr(doc.data(), '\0', doc.size()) == nullptr) return doc;
    storage.clear();
    storage.reserve(doc.size() + 64);
    for (char c : doc) {
        if (c == '\0')
            storage += kReplacement;
        else
            storage.push_back(c);
    }
    return storage;
}

// `in` through iconv from `from`; false when iconv does not know it.
// Undecodable bytes become U+FFFD.
bool convert(std::string_view in, const char* from, std::string& out) {
    iconv_t cd = iconv_open("UTF-8", from);
    if (cd == reinterpret_cast<iconv_t>(-1)) return false;
    out.clear();
    out.reserve(in.size() + in.size() / 2 + 16);
    char* src = const_cast<char*>(in.data());
    size_t left = in.size();
    char buf[16384];
    while (left > 0) {
        char* dst = buf;
        size_t room = sizeof buf;
        size_t rc = iconv(cd, &src, &left, &dst, &room);
        out.append(buf, dst - buf);
        if (rc != static_cast<size_t>(-1)) continue;
        if (errno == E2BIG) continue;
        out += kReplacement;  // EILSEQ or EINVAL (truncated at the end)
        if (errno == EINVAL) break;
        ++src, --left;
    }
    iconv_close(cd);
    std::string fixed;
    if (replace_nul(out, fixed).data() == fixed.data()) out.swap(fixed);
    return true;
}

// The encoding label of `content` ("text/html; charset=x"): the algorithm
// for extracting a character encoding from a meta element (WHATWG HTML
// 2.5.9, simplified: quotes around the value are honoured).
std::string charset_of_content(std::string_view content) {
    for (size_t i = 0; i + 7 <= content.size(); ++i) {
        if (!iequals(content.substr(i, 7), "charset")) continue;
        size_t j = i + 7;
        while (j < content.size() && static_cast<unsigned char>(content[j]) <= ' ') ++j;
        if (j >= content.size() || content[j] != '=') continue;
        ++j;
        while (j < content.size() && static_cast<unsigned char>(content[j]) <= ' ') ++j;
        if (j >= content.size()) return {};
        char q = content[j];
        if (q == '"' || q == '\'') {
            size_t e = content.find(q, j + 1);
            return e == std::string_view::npos ? std::string() : std::string(content.substr(j + 1, e - j - 1));
        }
        size_t e = j;
        while (e < content.size() && static_cast<unsigned char>(content[e]) > ' ' && content[e] != ';') ++e;
        return std::string(content.substr(j, e - j));
    }
    return {};
}

// The first declared encoding of the <meta> elements in `prefix`.
class MetaCharset : public TagSink {
public:
    std::string label;

    bool wants_start(std::string_view name) override { return label.empty() && name == "meta"; }
    bool wants_attribute(std::string_view, std::string_view a) override {
        return a == "charset" || a == "http-equiv" || a == "content";
    }
    void start_tag(std::string_view, const std::vector<Attribute>& attrs, bool) override {
        std::string_view charset, http_equiv, content;
        bool have_charset = false;
        for (const Attribute& a : attrs) {
            if (a.name == "charset") charset = a.value, have_charset = true;
            if (a.name == "http-equiv") http_equiv = a.value;
            if (a.name == "content") content = a.value;
        }
        if (have_charset)
            label = charset;
        else if (iequals(http_equiv, "content-type"))
            label = charset_of_content(content);
        while (!label.empty() && static_cast<unsigned char>(label.back()) <= ' ') label.pop_back();
        size_t b = 0;
        while (b < label.size() && static_cast<unsigned char>(label[b]) <= ' ') ++b;
        label.erase(0, b);
    }
};

bool is_label(std::string_view label, std::initializer_list<std::string_view> names) {
    for (std::string_view n : names)
        if (iequals(label, n)) return true;
    return false;
}

}  // namespace

std::string_view to_utf8(std::string_view doc, std::string& storage) {
    if (doc.size() >= 3 && doc.substr(0, 3) == "\xEF\xBB\xBF") return replace_nul(doc.substr(3), storage);
    if (doc.size() >= 2 && (doc.substr(0, 2) == "\xFF\xFE" || doc.substr(0, 2) == "\xFE\xFF")) {
        convert(doc.substr(2), doc[0] == '\xFF' ? "UTF-16LE" : "UTF-16BE", storage);
        return storage;
    }
    if (pure_ascii(doc)) return replace_nul(doc, storage);
    MetaCharset meta;
    tokenize(doc.substr(0, kMetaScanBytes), meta);
    const std::string& label = meta.label;
    // UTF-16 in a <meta> means UTF-8 (the bytes are ASCII-compatible);
    // Latin-1 and ASCII labels mean windows-1252.
    bool utf8 = is_label(label, {"utf-8", "utf8", "unicode-1-1-utf-8", "utf-16", "utf-16le", "utf-16be"});
    if (!utf8 && is_label(label, {"iso-8859-1", "iso8859-1", "latin1", "l1", "us-ascii", "ascii", "windows-1252",
                                  "cp1252", "x-cp1252", "iso_8859-1", "cp819", "ibm819", "iso-ir-100"})) {
        windows_1252(doc, storage);
        return storage;
    }
    if (!utf8 && !label.empty() && label.size() < 40 && label.find('/') == std::string::npos &&
        convert(doc, label.c_str(), storage))
        return storage;
    if (valid_utf8(doc)) return replace_nul(doc, storage);
    if (utf8 && convert(doc, "UTF-8", storage)) return storage;  // invalid sequences as U+FFFD
    windows_1252(doc, storage);
    return storage;
}

}  // namespace frontier::html
