// Sitemaps and sitemap indexes (lib/links.hpp): zlib for gzip bodies,
// libxml2's XML parser in SAX2 mode for the document.
//
// Hostile input is bounded: decompression stops at kMaxSitemapBytes;
// attribute floods and masses of distinct names are cut short as for HTML
// (links_detail in lib/links.hpp); the
// parser runs without XML_PARSE_HUGE (depth 256, text nodes 10 MB), without
// entity substitution, DTD loading or network access, and no entity
// declarations are recorded (entityDecl is unset), so entity expansion
// attacks have nothing to expand; <loc> and <lastmod> text is capped; at
// most kMaxSitemapEntries entries are returned.

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "links.hpp"
#include "url.hpp"

namespace frontier {

namespace {

constexpr size_t kMaxSitemapBytes = size_t{64} << 20;  // decompressed XML
constexpr size_t kMaxSitemapEntries = 100000;          // the protocol allows 50,000
constexpr size_t kMaxLocBytes = 8192;
constexpr size_t kMaxLastmodBytes = 64;

bool is_gzip(std::string_view s) { return s.size() >= 2 && s[0] == '\x1f' && s[1] == '\x8b'; }

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

unsigned days_in_month(int64_t y, unsigned m) {
    static const unsigned days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : days[m - 1];
}

// Reads exactly `n` digits at `s[i]`.
bool digits(std::string_view s, size_t& i, size_t n, int& out) {
    if (i + n > s.size()) return false;
    out = 0;
    for (size_t k = 0; k < n; ++k) {
        char c = s[i + k];
        if (c < '0' || c > '9') return false;
        out = out * 10 + (c - '0');
    }
    i += n;
    return true;
}

// SAX2 state: the root decides whether this is a sitemap at all; an entry
// is a <url> or <sitemap> element, its fields are its direct children.
struct SitemapState {
    xmlParserCtxtPtr ctxt = nullptr;
    std::string_view page_url;
    int depth = 0;
    int entry_depth = -1;  // depth of the open entry, -1 when none
    enum Field { kNone, kLoc, kLastmod } field = kNone;
    bool field_too_long = false;
    std::string loc, lastmod;
    bool have_loc = false;
    std::vector<Link> links;
};

bool local_is(const xmlChar* name, const char* expected) {
    return std::strcmp(reinterpret_cast<const char*>(name), expected) == 0;
}

void on_start(void* ctx, const xmlChar* localname, const xmlChar*, const xmlChar*, int, const xmlChar**, int,
              int, const xmlChar**) {
    auto* st = static_cast<SitemapState*>(ctx);
    links_detail::bound_names(st->ctxt);
    ++st->depth;
    if (st->depth == 1) {
        if (!local_is(localname, "urlset") && !local_is(localname, "sitemapindex")) xmlStopParser(st->ctxt);
        return;
    }
    if (st->entry_depth < 0) {
        if (local_is(localname, "url") || local_is(localname, "sitemap")) {
            st->entry_depth = st->depth;
            st->loc.clear();
            st->lastmod.clear();
            st->have_loc = false;
        }
        return;
    }
    if (st->depth != st->entry_depth + 1) return;
    if (local_is(localname, "loc")) {  // the first <loc> and <lastmod> count
        if (st->have_loc) return;
        st->field = SitemapState::kLoc;
        st->loc.clear();
    } else if (local_is(localname, "lastmod")) {
        if (!st->lastmod.empty()) return;
        st->field = SitemapState::kLastmod;
        st->lastmod.clear();
    } else {
        return;
    }
    st->field_too_long = false;
}

// True when `xml` at `amp` (an '&') starts an entity or character reference.
bool is_reference(std::string_view xml, size_t amp) {
    size_t i = amp + 1;
    auto name_char = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
               c == ':' || c == '.' || c == '-' || static_cast<unsigned char>(c) >= 0x80;
    };
    size_t start = i;
    if (i < xml.size() && xml[i] == '#') {
        bool hex = ++i < xml.size() && xml[i] == 'x';
        start = i += hex;
        while (i < xml.size() && (hex ? std::isxdigit(static_cast<unsigned char>(xml[i]))
                                      : std::isdigit(static_cast<unsigned char>(xml[i]))))
            ++i;
    } else {
        while (i < xml.size() && i - start < 64 && name_char(xml[i])) ++i;
        if (i > start && (xml[start] == '.' || xml[start] == '-' || (xml[start] >= '0' && xml[start] <= '9')))
            return false;
    }
    return i > start && i < xml.size() && xml[i] == ';';
}

// Sitemaps in the wild often carry bare '&' in URLs ("?a=1&b=2"), which an
// XML parser drops with the name after it. Each '&' that starts no
// reference (outside CDATA sections) becomes "&amp;"; `xml` is returned
// unchanged, or the repaired copy in `out`.
std::string_view escape_bare_ampersands(std::string_view xml, std::string& out) {
    size_t cdata = xml.find("<![CDATA[");
    size_t copied = 0;
    for (size_t pos = xml.find('&'); pos != std::string_view::npos; pos = xml.find('&', pos)) {
        if (cdata < pos) {  // skip CDATA sections that start before this '&'
            size_t end = xml.find("]]>", cdata + 9);
            if (end == std::string_view::npos) break;
            cdata = xml.find("<![CDATA[", end + 3);
            if (pos < end) pos = end + 3;
            continue;
        }
        if (!is_reference(xml, pos)) {
            if (out.empty()) out.reserve(xml.size() + 1024);
            out.append(xml.substr(copied, pos + 1 - copied)).append("amp;");
            copied = pos + 1;
        }
        ++pos;
    }
    if (copied == 0) return xml;
    out.append(xml.substr(copied));
    return out;
}

std::string_view trim_xml_space(std::string_view s) {
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!s.empty() && space(s.front())) s.remove_prefix(1);
    while (!s.empty() && space(s.back())) s.remove_suffix(1);
    return s;
}

void emit_entry(SitemapState* st) {
    if (!st->have_loc || st->links.size() >= kMaxSitemapEntries) return;
    auto resolved = resolve_url(st->page_url, st->loc);
    if (!resolved || !links_detail::is_http_url(*resolved)) return;
    Link link;
    link.url = links_detail::strip_fragment(std::move(*resolved));
    link.discovery = "sitemap";
    link.last_modified = parse_w3c_datetime(st->lastmod);
    st->links.push_back(std::move(link));
    if (st->links.size() >= kMaxSitemapEntries) xmlStopParser(st->ctxt);
}

void on_end(void* ctx, const xmlChar*, const xmlChar*, const xmlChar*) {
    auto* st = static_cast<SitemapState*>(ctx);
    if (st->field != SitemapState::kNone && st->depth == st->entry_depth + 1) {
        std::string& text = st->field == SitemapState::kLoc ? st->loc : st->lastmod;
        std::string_view trimmed = st->field_too_long ? std::string_view() : trim_xml_space(text);
        text.assign(trimmed);
        if (st->field == SitemapState::kLoc) st->have_loc = !text.empty();
        st->field = SitemapState::kNone;
    } else if (st->depth == st->entry_depth) {
        emit_entry(st);
        st->entry_depth = -1;
    }
    --st->depth;
}

void on_error(void* ctx, xmlErrorPtr) { links_detail::bound_names(static_cast<SitemapState*>(ctx)->ctxt); }

void on_text(void* ctx, const xmlChar* text, int len) {
    auto* st = static_cast<SitemapState*>(ctx);
    links_detail::bound_names(st->ctxt);
    if (st->field == SitemapState::kNone || st->depth != st->entry_depth + 1 || st->field_too_long) return;
    std::string& out = st->field == SitemapState::kLoc ? st->loc : st->lastmod;
    size_t cap = st->field == SitemapState::kLoc ? kMaxLocBytes : kMaxLastmodBytes;
    if (out.size() + static_cast<size_t>(len) > cap) {
        st->field_too_long = true;
        return;
    }
    out.append(reinterpret_cast<const char*>(text), static_cast<size_t>(len));
}

}  // namespace

std::optional<double> parse_w3c_datetime(std::string_view text) {
    std::string_view s = trim_xml_space(text);
    size_t i = 0;
    int year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0;
    if (!digits(s, i, 4, year)) return std::nullopt;
    if (i < s.size() && (s[i++] != '-' || !digits(s, i, 2, month))) return std::nullopt;
    if (month < 1 || month > 12) return std::nullopt;
    if (i < s.size() && (s[i++] != '-' || !digits(s, i, 2, day))) return std::nullopt;
    if (day < 1 || static_cast<unsigned>(day) > days_in_month(year, static_cast<unsigned>(month)))
        return std::nullopt;
    double fraction = 0;
    int64_t offset = 0;  // seconds east of UTC
    if (i < s.size()) {
        if (s[i] != 'T' && s[i] != 't' && s[i] != ' ') return std::nullopt;
        ++i;
        if (!digits(s, i, 2, hour) || i >= s.size() || s[i++] != ':' || !digits(s, i, 2, minute))
            return std::nullopt;
        if (i < s.size() && s[i] == ':') {
            ++i;
            if (!digits(s, i, 2, second)) return std::nullopt;
            if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
                double scale = 0.1;
                size_t start = ++i;
                for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, scale /= 10)
                    fraction += (s[i] - '0') * scale;
                if (i == start) return std::nullopt;
            }
        }
        if (hour > 23 || minute > 59 || second > 60) return std::nullopt;
        if (i < s.size()) {
            if (s[i] == 'Z' || s[i] == 'z') {
                ++i;
            } else if (s[i] == '+' || s[i] == '-') {
                int sign = s[i++] == '-' ? -1 : 1, oh = 0, om = 0;
                if (!digits(s, i, 2, oh)) return std::nullopt;
                if (i < s.size() && s[i] == ':') ++i;
                if (!digits(s, i, 2, om) || oh > 23 || om > 59) return std::nullopt;
                offset = sign * (oh * 3600 + om * 60);
            } else {
                return std::nullopt;
            }
        }
        if (i != s.size()) return std::nullopt;
    }
    int64_t days = days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
    int64_t secs = days * 86400 + hour * 3600 + minute * 60 + std::min(second, 59) - offset;
    return static_cast<double>(secs) + fraction;
}

namespace {

// Growable bytes over malloc/realloc: large blocks grow by remapping, with
// no copy and no zero-filling (a 64 MiB bomb costs its pages, no more).
struct RawBuffer {
    char* data = nullptr;
    size_t capacity = 0;
    RawBuffer() = default;
    RawBuffer(const RawBuffer&) = delete;
    RawBuffer& operator=(const RawBuffer&) = delete;
    ~RawBuffer() { std::free(data); }
    bool reserve(size_t n) {
        void* p = std::realloc(data, n);
        if (p == nullptr) return false;
        data = static_cast<char*>(p);
        capacity = n;
        return true;
    }
};

// gunzip_capped into `out`; returns the number of bytes produced.
size_t inflate_into(std::string_view gz, size_t max_out, RawBuffer& out, bool* truncated) {
    if (truncated) *truncated = false;
    if (max_out == 0) return 0;
    // First guess: the trailer's ISIZE (exact for one member), capped.
    size_t guess = size_t{1} << 16;
    if (gz.size() >= 18) {
        const auto* t = reinterpret_cast<const unsigned char*>(gz.data() + gz.size() - 4);
        guess = std::max<size_t>(
            guess, (size_t{t[0]} | size_t{t[1]} << 8 | size_t{t[2]} << 16 | size_t{t[3]} << 24) + 1);
    }
    if (!out.reserve(std::min(max_out, guess))) return 0;
    z_stream zs;
    std::memset(&zs, 0, sizeof zs);
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) return 0;
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
    size_t in_left = gz.size();
    size_t produced = 0;
    auto refill = [&] {
        zs.avail_in = static_cast<uInt>(std::min<size_t>(in_left, UINT_MAX));
        in_left -= zs.avail_in;
    };
    for (;;) {
        if (zs.avail_in == 0) refill();
        if (produced == out.capacity) {
            if (out.capacity >= max_out) {
                if (truncated) *truncated = true;
                break;
            }
            if (!out.reserve(std::min(max_out, out.capacity * 2))) break;
        }
        size_t room = std::min<size_t>(out.capacity - produced, UINT_MAX);
        zs.next_out = reinterpret_cast<Bytef*>(out.data + produced);
        zs.avail_out = static_cast<uInt>(room);
        int rc = inflate(&zs, Z_NO_FLUSH);
        produced += room - zs.avail_out;
        if (rc == Z_STREAM_END) {
            // Another member may follow: gzip allows concatenation.
            if (zs.avail_in == 0) refill();
            if (zs.avail_in < 2 || zs.next_in[0] != 0x1f || zs.next_in[1] != 0x8b) break;
            inflateReset(&zs);
            continue;
        }
        if (rc != Z_OK) break;  // corrupt data, or input ended mid-stream (Z_BUF_ERROR)
    }
    inflateEnd(&zs);
    return produced;
}

}  // namespace

std::string gunzip_capped(std::string_view gz, size_t max_out, bool* truncated) {
    RawBuffer buffer;
    size_t n = inflate_into(gz, max_out, buffer, truncated);
    return std::string(buffer.data ? buffer.data : "", n);
}

std::vector<Link> extract_sitemap_links(std::string_view xml, std::string_view page_url) {
    RawBuffer inflated;
    if (is_gzip(xml)) {
        size_t n = inflate_into(xml, kMaxSitemapBytes, inflated, nullptr);
        xml = std::string_view(inflated.data, n);
    }
    xml = xml.substr(0, std::min<size_t>(kMaxSitemapBytes, INT_MAX));
    std::string defused, escaped;
    xml = links_detail::defuse_attribute_floods(xml, defused);
    xml = escape_bare_ampersands(xml, escaped);
    xml = xml.substr(0, std::min<size_t>(xml.size(), INT_MAX));
    if (xml.empty()) return {};
    links_detail::init_libxml();
    links_detail::QuietLibxmlErrors quiet;
    xmlParserCtxtPtr ctxt = xmlCreateMemoryParserCtxt(xml.data(), static_cast<int>(xml.size()));
    if (ctxt == nullptr) return {};
    xmlCtxtUseOptions(ctxt, XML_PARSE_RECOVER | XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    xmlSAXHandler sax;
    std::memset(&sax, 0, sizeof sax);
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = on_start;
    sax.endElementNs = on_end;
    sax.characters = on_text;
    sax.cdataBlock = on_text;
    sax.serror = on_error;
    SitemapState state;
    state.ctxt = ctxt;
    state.page_url = page_url;
    xmlSAXHandlerPtr own_sax = ctxt->sax;
    ctxt->sax = &sax;
    ctxt->userData = &state;
    xmlParseDocument(ctxt);
    ctxt->sax = own_sax;
    ctxt->userData = ctxt;
    xmlFreeParserCtxt(ctxt);
    return std::move(state.links);
}

}  // namespace frontier
