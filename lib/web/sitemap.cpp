// Sitemaps and sitemap indexes (lib/web/links.hpp): zlib for gzip bodies,
// libxml2's XML parser in SAX2 mode for the document.
//
// Streamed: the body is inflated (or, plain, taken) kChunkBytes at a time;
// each piece goes through the two repairs below (attribute floods, bare
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
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>

#include "web/links.hpp"
#include "web/url.hpp"

namespace frontier {

namespace {

constexpr size_t kMaxSitemapBytes = size_t{64} << 20;  // decompressed XML
// As for an HTML page (lib/web/html_links.cpp): more cannot fit in fetch's
// result line; the protocol allows 50,000 entries per sitemap.
constexpr size_t kMaxSitemapEntries = 50000;
constexpr size_t kMaxSitemapLocBytes = size_t{4} << 20;  // of resolved URLs, all entries
constexpr size_t kChunkBytes = size_t{256} << 10;        // a piece of the stream
constexpr size_t kMaxReferenceName = 64;                 // name characters or digits read after '&'
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

// Whether `xml` at `amp` (an '&') starts an entity or character reference
// (a name or digits, then ';'): 1 yes, 0 no, -1 not known yet: `xml` ends
// first and more may follow (at the end of the document: 0). At most
// kMaxReferenceName name characters or digits are read.
int reference_at(std::string_view xml, size_t amp, bool at_end) {
    auto name_char = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
               c == ':' || c == '.' || c == '-' || static_cast<unsigned char>(c) >= 0x80;
    };
    const int unknown = at_end ? 0 : -1;
    size_t n = xml.size(), i = amp + 1;
    if (i >= n) return unknown;
    size_t start = i;
    if (xml[i] == '#') {
        if (++i >= n) return unknown;
        bool hex = xml[i] == 'x';
        start = i += hex;
        while (i < n && i - start < kMaxReferenceName &&
               (hex ? std::isxdigit(static_cast<unsigned char>(xml[i]))
                    : std::isdigit(static_cast<unsigned char>(xml[i]))))
            ++i;
    } else {
        while (i < n && i - start < kMaxReferenceName && name_char(xml[i])) ++i;
        if (i > start && (xml[start] == '.' || xml[start] == '-' || (xml[start] >= '0' && xml[start] <= '9')))
            return 0;
    }
    if (i >= n) return unknown;
    return i > start && xml[i] == ';' ? 1 : 0;
}

// Sitemaps in the wild often carry bare '&' in URLs ("?a=1&b=2"), which an
// XML parser drops with the name after it. Each '&' that starts no
// reference (outside CDATA sections, found as plain text) becomes "&amp;".
// Fed the document in pieces: the bytes whose treatment depends on what
// follows (from an undecided '&'; a possible start of "<![CDATA[" or, in a
// section, of "]]>") are held back for the next call, so the output is the
// same whatever the cut.
class AmpersandEscaper {
public:
    void feed(std::string_view in, bool at_end, std::string& out) {
        std::string_view s = in;
        if (!carry_.empty()) {
            buf_.assign(carry_).append(in);
            s = buf_;
        }
        constexpr std::string_view kOpen = "<![CDATA[", kClose = "]]>";
        size_t n = s.size(), i = 0, copied = 0;
        size_t open = 0;
        bool open_known = false;  // `open`: the next opener at or after i (npos: none)
        while (i < n) {
            if (in_cdata_) {
                size_t close = s.find(kClose, i);
                if (close == std::string_view::npos) {
                    i = at_end ? n : held_back(s, i, kClose);
                    break;
                }
                in_cdata_ = false;
                i = close + kClose.size();
                continue;
            }
            size_t amp = s.find('&', i);
            if (!open_known || (open != std::string_view::npos && open < i)) {
                open = s.find(kOpen, i);
                open_known = true;
            }
            if (open < amp) {
                in_cdata_ = true;
                i = open + kOpen.size();
                continue;
            }
            if (amp == std::string_view::npos) {
                i = at_end ? n : held_back(s, i, kOpen);
                break;
            }
            int ref = reference_at(s, amp, at_end);
            if (ref < 0) {
                i = amp;
                break;
            }
            if (ref == 0) {
                out.append(s.substr(copied, amp + 1 - copied)).append("amp;");
                copied = amp + 1;
            }
            i = amp + 1;
        }
        out.append(s.substr(copied, i - copied));
        std::string rest(s.substr(i));
        carry_.swap(rest);
    }

private:
    // Where the longest end of s[i..] that could begin `token` starts (s.size()
    // when none does): those bytes wait for the next piece.
    static size_t held_back(std::string_view s, size_t i, std::string_view token) {
        for (size_t k = std::min(token.size() - 1, s.size() - i); k > 0; --k)
            if (s.substr(s.size() - k) == token.substr(0, k)) return s.size() - k;
        return s.size();
    }

    std::string carry_;  // held back from the last call (under 80 bytes)
    std::string buf_;
    bool in_cdata_ = false;
};

std::string_view trim_xml_space(std::string_view s) {
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!s.empty() && space(s.front())) s.remove_prefix(1);
    while (!s.empty() && space(s.back())) s.remove_suffix(1);
    return s;
}

void emit_entry(SitemapState* st) {
    if (!st->have_loc) return;
    auto resolved = resolve_url(st->page_url, st->loc);
    if (!resolved || !links_detail::is_http_url(*resolved)) return;
    Link link;
    link.url = links_detail::strip_fragment(std::move(*resolved));
    if (st->entries >= kMaxSitemapEntries || st->loc_bytes + link.url.size() > kMaxSitemapLocBytes) {
        st->truncated = true;  // one entry too many: the rest is not read
        xmlStopParser(st->ctxt);
        return;
    }
    link.discovery = "sitemap";
    link.last_modified = parse_w3c_datetime(st->lastmod);
    ++st->entries;
    st->loc_bytes += link.url.size();
    if (!st->out->add(std::move(link))) xmlStopParser(st->ctxt);
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

// Inflates gzip data (concatenated members too) piece by piece. Corrupt or
// truncated input ends the output where the damage starts.
class GunzipReader {
public:
    explicit GunzipReader(std::string_view gz) : in_(gz) {
        std::memset(&zs_, 0, sizeof zs_);
        done_ = inflateInit2(&zs_, 16 + MAX_WBITS) != Z_OK;
        ready_ = !done_;
    }
    ~GunzipReader() {
        if (ready_) inflateEnd(&zs_);
    }
    GunzipReader(const GunzipReader&) = delete;
    GunzipReader& operator=(const GunzipReader&) = delete;

    // Up to `cap` bytes into `out`; 0 at the end.
    size_t read(char* out, size_t cap) {
        size_t produced = 0;
        while (!done_ && produced < cap) {
            if (zs_.avail_in == 0) refill();
            size_t room = std::min<size_t>(cap - produced, UINT_MAX);
            zs_.next_out = reinterpret_cast<Bytef*>(out + produced);
            zs_.avail_out = static_cast<uInt>(room);
            int rc = inflate(&zs_, Z_NO_FLUSH);
            produced += room - zs_.avail_out;
            if (rc == Z_STREAM_END) {
                // Another member may follow: gzip allows concatenation.
                if (zs_.avail_in == 0) refill();
                if (zs_.avail_in < 2 || zs_.next_in[0] != 0x1f || zs_.next_in[1] != 0x8b)
                    done_ = true;
                else
                    inflateReset(&zs_);
            } else if (rc != Z_OK) {
                done_ = true;  // corrupt data, or input ended mid-stream (Z_BUF_ERROR)
            }
        }
        return produced;
    }

private:
    void refill() {
        zs_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in_.data()));
        zs_.avail_in = static_cast<uInt>(std::min<size_t>(in_.size(), UINT_MAX));
        in_.remove_prefix(zs_.avail_in);
    }

    std::string_view in_;  // not yet handed to zlib
    z_stream zs_;
    bool ready_ = false;
    bool done_ = false;
};

// The document as libxml2 reads it: the body (inflated when gzip),
// `chunk` bytes at a time, through the two repairs, at most
// kMaxSitemapBytes of it. libxml2's parser pulls from it through read()
// (an I/O callback), so it parses exactly as it would parse the whole
// document in memory, recovery included (its push parser gives up at more
// errors), but holds only the part it is working on.
class RepairedXml {
public:
    RepairedXml(std::string_view body, size_t chunk)
        : chunk_(std::clamp<size_t>(chunk, 1, kMaxSitemapBytes)) {
        if (is_gzip(body)) {
            gz_.emplace(body);
            buf_.reset(new char[chunk_]);
        } else {
            cut_ = body.size() > kMaxSitemapBytes;
            plain_ = body.substr(0, kMaxSitemapBytes);
        }
    }

    // `len` bytes of the repaired text, fewer only at its end (libxml2's
    // parser expects a full read, as from a file: it needs its lookahead).
    size_t read(char* out, size_t len) {
        size_t done = 0;
        while (done < len) {
            if (pos_ == text_.size()) {
                if (ended_) break;
                next();
                continue;
            }
            size_t n = std::min(len - done, text_.size() - pos_);
            std::memcpy(out + done, text_.data() + pos_, n);
            pos_ += n;
            done += n;
        }
        return done;
    }
    // True when the body went on past kMaxSitemapBytes (known once read to the end).
    bool cut() const { return cut_; }

    static int read_callback(void* self, char* out, int len) {
        return static_cast<int>(
            static_cast<RepairedXml*>(self)->read(out, static_cast<size_t>(std::max(len, 0))));
    }

private:
    // Repairs the next piece of the body into text_ (possibly nothing: held back).
    void next() {
        text_.clear();
        pos_ = 0;
        std::string_view piece;
        if (gz_) {
            size_t want = std::min(chunk_, kMaxSitemapBytes - total_);
            size_t n = want ? gz_->read(buf_.get(), want) : 0;
            if (want == 0) {
                char probe;
                cut_ = gz_->read(&probe, 1) == 1;
            }
            total_ += n;
            piece = std::string_view(buf_.get(), n);
        } else {
            piece = plain_.substr(0, chunk_);
            plain_.remove_prefix(piece.size());
        }
        if (piece.empty()) {
            escaper_.feed({}, true, text_);
            ended_ = true;
            return;
        }
        splits_.clear();
        scanner_.scan(piece, splits_);
        if (!splits_.empty()) {
            defused_.assign(piece);
            for (size_t i : splits_) defused_[i] = '>';
            piece = defused_;
        }
        escaper_.feed(piece, false, text_);
    }

    size_t chunk_;
    std::optional<GunzipReader> gz_;
    std::unique_ptr<char[]> buf_;  // inflated piece
    std::string_view plain_;       // the rest of a plain body
    size_t total_ = 0;             // inflated so far
    bool cut_ = false;
    bool ended_ = false;
    links_detail::AttributeFloodScanner scanner_;
    AmpersandEscaper escaper_;
    std::vector<size_t> splits_;
    std::string defused_;
    std::string text_;  // repaired, not yet read
    size_t pos_ = 0;
};

}  // namespace

std::string gunzip_capped(std::string_view gz, size_t max_out, bool* truncated) {
    std::string out;
    GunzipReader reader(gz);
    char buf[1 << 16];
    while (out.size() < max_out) {
        size_t n = reader.read(buf, std::min(sizeof buf, max_out - out.size()));
        if (n == 0) break;
        out.append(buf, n);
    }
    char probe;
    if (truncated) *truncated = out.size() == max_out && reader.read(&probe, 1) == 1;
    return out;
}

namespace {

// extract_sitemap_links, `chunk` bytes at a time; see links_detail.
void sitemap_links(std::string_view xml, std::string_view page_url, size_t chunk, LinkOutput& out,
                   bool* truncated) {
    if (truncated) *truncated = false;
    RepairedXml input(xml, chunk);
    links_detail::init_libxml();
    links_detail::QuietLibxmlErrors quiet;
    xmlParserCtxtPtr ctxt = xmlCreateIOParserCtxt(nullptr, nullptr, &RepairedXml::read_callback, nullptr,
                                                  &input, XML_CHAR_ENCODING_NONE);
    if (ctxt == nullptr) return;
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
    state.out = &out;
    xmlSAXHandlerPtr own_sax = ctxt->sax;
    ctxt->sax = &sax;
    ctxt->userData = &state;
    xmlParseDocument(ctxt);
    ctxt->sax = own_sax;
    ctxt->userData = ctxt;
    xmlFreeParserCtxt(ctxt);
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

std::string sitemap_prepass(std::string_view xml, size_t chunk) {
    RepairedXml input(xml, chunk);
    std::string out;
    char buf[4096];
    while (size_t n = input.read(buf, sizeof buf)) out.append(buf, n);
    return out;
}

}  // namespace links_detail

}  // namespace frontier
