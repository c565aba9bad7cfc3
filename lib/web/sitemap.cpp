// Sitemaps and sitemap indexes (lib/web/links.hpp): libxml2's XML parser in
// SAX2 mode reads the document that sitemap_input.cpp inflates and repairs.
//
// Streamed: the body is inflated (or, plain, taken) kChunkBytes at a time;
// each piece goes through the two repairs (sitemap_input.hpp: attribute floods, bare
// '&') and is read by the parser through an I/O callback, so a sitemap
// costs a few pieces of memory plus its links, whatever its size. The
// repairs give the same bytes whatever the cut between pieces: what depends
// on bytes not yet read (an '&' near the end, a CDATA opener or closer cut
// in two) waits for the next piece. Parsing, and inflating, stop as soon as
// the entry cap is reached.
//
// Hostile input is bounded: at most kMaxSitemapBytes of (decompressed) XML
// are read; attribute floods and masses of distinct names are cut short as
// for HTML (links_detail in lib/web/links.hpp); the parser runs without
// XML_PARSE_HUGE (depth 256, text nodes 10 MB), without entity
// substitution, DTD loading or network access, and no entity declarations
// are recorded (entityDecl is unset), so entity expansion attacks have
// nothing to expand; <loc> and <lastmod> text is capped; at most
// kMaxSitemapEntries entries (kMaxSitemapLocBytes of URLs) are returned.

#include <libxml/parser.h>
#include <libxml/parserInternals.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>

#include "core/ondemand.hpp"
#include "web/links.hpp"
#include "web/sitemap_input.hpp"
#include "web/url.hpp"

namespace frontier {

namespace {

using sitemap_detail::RepairedXml;

// As for an HTML page (lib/web/html_links.cpp): more cannot fit in fetch's
// result line; the protocol allows 50,000 entries per sitemap.
constexpr size_t kMaxSitemapEntries = 50000;
constexpr size_t kMaxSitemapLocBytes = size_t{4} << 20;  // of resolved URLs, all entries
constexpr size_t kChunkBytes = size_t{256} << 10;        // a piece of the stream
constexpr size_t kMaxLocBytes = 8192;
constexpr size_t kMaxLastmodBytes = 64;

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
    std::optional<BaseUrl> base;  // page_url parsed, at the first entry
    int depth = 0;
    int entry_depth = -1;  // depth of the open entry, -1 when none
    enum Field { kNone, kLoc, kLastmod } field = kNone;
    bool field_too_long = false;
    std::string loc, lastmod;
    bool have_loc = false;
    LinkOutput* out = nullptr;
    size_t entries = 0;      // handed to out
    size_t loc_bytes = 0;    // of their URLs
    bool truncated = false;  // an entry past the caps was dropped
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
        if (!local_is(localname, "urlset") && !local_is(localname, "sitemapindex")) xml_api().xmlStopParser(st->ctxt);
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

std::string_view trim_xml_space(std::string_view s) {
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!s.empty() && space(s.front())) s.remove_prefix(1);
    while (!s.empty() && space(s.back())) s.remove_suffix(1);
    return s;
}

void emit_entry(SitemapState* st) {
    if (!st->have_loc) return;
    if (!st->base) st->base.emplace(st->page_url);
    Link link;
    if (!st->base->resolve(st->loc, link.url) || !links_detail::is_http_url(link.url)) return;
    if (st->entries >= kMaxSitemapEntries || st->loc_bytes + link.url.size() > kMaxSitemapLocBytes) {
        st->truncated = true;  // one entry too many: the rest is not read
        xml_api().xmlStopParser(st->ctxt);
        return;
    }
    link.discovery = "sitemap";
    link.last_modified = parse_w3c_datetime(st->lastmod);
    ++st->entries;
    st->loc_bytes += link.url.size();
    if (!st->out->add(std::move(link))) xml_api().xmlStopParser(st->ctxt);
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

// extract_sitemap_links, `chunk` bytes at a time; see links_detail.
void sitemap_links(std::string_view xml, std::string_view page_url, size_t chunk, LinkOutput& out,
                   bool* truncated) {
    if (truncated) *truncated = false;
    RepairedXml input(xml, chunk);
    links_detail::init_libxml();
    links_detail::QuietLibxmlErrors quiet;
    xmlParserCtxtPtr ctxt = xml_api().xmlCreateIOParserCtxt(nullptr, nullptr, &RepairedXml::read_callback, nullptr,
                                                  &input, XML_CHAR_ENCODING_NONE);
    if (ctxt == nullptr) return;
    xml_api().xmlCtxtUseOptions(ctxt, XML_PARSE_RECOVER | XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
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
    state.out = &out;
    xmlSAXHandlerPtr own_sax = ctxt->sax;
    ctxt->sax = &sax;
    ctxt->userData = &state;
    xml_api().xmlParseDocument(ctxt);
    ctxt->sax = own_sax;
    ctxt->userData = ctxt;
    xml_api().xmlFreeParserCtxt(ctxt);
    if (truncated) *truncated = state.truncated || input.cut();
}

}  // namespace

void extract_sitemap_links(std::string_view xml, std::string_view page_url, LinkOutput& out,
                           bool* truncated) {
    sitemap_links(xml, page_url, kChunkBytes, out, truncated);
}

namespace links_detail {

std::vector<Link> extract_sitemap_links_chunked(std::string_view xml, std::string_view page_url, size_t chunk,
                                                bool* truncated) {
    LinkVector c;
    sitemap_links(xml, page_url, chunk, c, truncated);
    return std::move(c.links);
}

}  // namespace links_detail

}  // namespace frontier
