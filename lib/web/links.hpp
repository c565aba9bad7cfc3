// Outlinks from fetched bodies: HTML through lib/web/html/ (a WHATWG-state
// tokenizer, one pass, no tree), XML sitemaps and sitemap indexes (gzipped
// or not) through libxml2. Pure functions of their input; thread-safe
// (libxml2 is initialised once).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace frontier {

struct Link {
    std::string url;                      // absolute (resolved against <base> / the page URL)
    bool nofollow = false;                // rel="nofollow" on the element
    std::string tag;                      // "a", "link", "frame", "iframe", "area"; empty for sitemaps
    std::string discovery;                // "sitemap" for sitemap entries, else empty (= link)
    std::optional<double> last_modified;  // sitemap <lastmod>, epoch seconds
};

// Receives the links of a document one at a time, in document order, as
// they are resolved: a caller that keeps only some (fetch fills one result
// line) never holds them all.
class LinkOutput {
public:
    virtual ~LinkOutput() = default;
    // False: stop; the links after this one are not wanted (not read).
    virtual bool add(Link&& link) = 0;
};

// A LinkOutput that keeps every link (the vector forms of the extractors).
class LinkVector : public LinkOutput {
public:
    std::vector<Link> links;
    bool add(Link&& link) override {
        links.push_back(std::move(link));
        return true;
    }
};

// Links of an HTML document from a, link, frame, iframe and area elements;
// <base href> honoured; relative links resolved against `page_url`;
// javascript:, mailto:, data: and fragment-only links skipped. Never throws
// on hostile input; returns what could be read.
//
// Details (fetch(1), LINK EXTRACTION): only http and https results are
// kept, without fragment; exact repeats (same url and nofollow) are
// dropped, document order kept; hrefs over 8 KiB are dropped; <meta
// name=robots content=nofollow|none> marks every link nofollow; links in
// comments, script, style, title, textarea and other raw text are not
// links. The encoding is chosen by lib/web/html/encoding.hpp (the HTTP charset
// is not used). Time is linear in the document's size; memory beyond the
// document is bounded: at most 50,000 distinct hrefs (4 MiB of them) are
// collected, and `*truncated` (when given) tells whether more were dropped.
// The forms with a LinkOutput hand each link over as it is resolved
// instead of returning them all.
std::vector<Link> extract_html_links(std::string_view html, std::string_view page_url, bool* truncated = nullptr);
void extract_html_links(std::string_view html, std::string_view page_url, LinkOutput& out,
                        bool* truncated = nullptr);

// <loc> entries of a sitemap (<urlset>) or sitemap index (<sitemapindex>),
// with <lastmod>; `xml` may be gzip-compressed (detected by magic bytes).
//
// Details: element local names are matched (any namespace prefix); <loc>
// and <lastmod> must be direct children of <url>/<sitemap>; <loc> is
// resolved against `page_url`, fragment dropped, http(s) only; <lastmod>
// is read by parse_w3c_datetime (unreadable -> no last_modified). Any other
// root element gives no links. Streamed: the XML is inflated, repaired (a
// bare '&' escaped, attribute floods cut) and read by libxml2's parser
// 256 KiB at a time, so memory is a few such pieces plus the links,
// whatever the document's size. Bounded: at most
// 64 MiB of (decompressed) XML and 50,000 entries (4 MiB of URLs) are
// read, as for an HTML page; `*truncated` (when given) tells whether
// entries past these caps were dropped. No DTD loading, entity
// substitution or network access; recoverable XML errors (a bare '&') are
// tolerated. Thread-safe; never throws on hostile input.
std::vector<Link> extract_sitemap_links(std::string_view xml, std::string_view page_url,
                                        bool* truncated = nullptr);
void extract_sitemap_links(std::string_view xml, std::string_view page_url, LinkOutput& out,
                           bool* truncated = nullptr);

// Picks by content type and sniffing: text/html or application/xhtml+xml ->
// HTML; XML (or .xml/.xml.gz URL, or gzip body) whose root is urlset or
// sitemapindex -> sitemap; anything else -> no links.
// In detail: XML is text/xml, application/xml or any +xml type (RSS, Atom:
// root not a sitemap, so no links); application/gzip and x-gzip count as
// XML; an empty content type with a body that opens like HTML ("<!doctype
// html", "<html", "<head", "<body") is HTML. Parameters (charset) ignored.
// `*truncated` as for extract_html_links and extract_sitemap_links.
std::vector<Link> extract_links(std::string_view body, std::string_view content_type, std::string_view page_url,
                                bool* truncated = nullptr);
void extract_links(std::string_view body, std::string_view content_type, std::string_view page_url,
                   LinkOutput& out, bool* truncated = nullptr);

// W3C Datetime (the sitemap <lastmod> format): "2024", "2024-05",
// "2024-05-01", "2024-05-01T12:00+02:00", "2024-05-01T12:00:00Z",
// "2024-05-01T12:00:00.5-05:00" to epoch seconds. A missing zone means UTC;
// a space for 'T' and "+0200" are tolerated. nullopt when not a valid date.
std::optional<double> parse_w3c_datetime(std::string_view text);

// Decompressed gzip data (concatenated members too), at most `max_out`
// bytes: output past the cap is not produced, so a gzip bomb costs
// `max_out` bytes of memory. Corrupt or truncated input yields what
// decompressed before the damage; `*truncated` (if given) tells whether
// more output was left past the cap.
std::string gunzip_capped(std::string_view gz, size_t max_out, bool* truncated = nullptr);

// An exact set of byte strings, compact: their bytes back to back and an
// open-addressing table of 8-byte slots, no allocation per string (a page's
// 50,000 links cost their text and under 1 MB more). Not thread-safe.
class StringSet {
public:
    static constexpr size_t npos = static_cast<size_t>(-1);
    // The index of `s` (0, 1, 2, ... in insertion order), or npos.
    size_t find(std::string_view s) const;
    // Adds `s`, which find() did not find; returns its index.
    size_t insert_new(std::string_view s);
    // Adds `s` unless present; true when it was added.
    bool insert(std::string_view s) {
        if (find(s) != npos) return false;
        insert_new(s);
        return true;
    }
    std::string_view at(size_t i) const {
        size_t start = i == 0 ? 0 : ends_[i - 1];
        return std::string_view(text_).substr(start, ends_[i] - start);
    }
    size_t size() const { return ends_.size(); }
    size_t bytes() const { return text_.size(); }  // of the strings

private:
    size_t slot_of(std::string_view s, uint64_t hash) const;
    std::string text_;
    std::vector<uint32_t> ends_;   // end of string i in text_
    std::vector<uint64_t> slots_;  // 0: empty; else hash << 32 | (index + 1)
};

// Internals shared by lib/web/links.cpp, lib/web/html_links.cpp and lib/sitemap.cpp.
namespace links_detail {

// extract_sitemap_links fed `chunk` bytes (at least 1) at a time instead of
// 256 KiB: tests check that any cut gives the links of one whole piece.
std::vector<Link> extract_sitemap_links_chunked(std::string_view xml, std::string_view page_url, size_t chunk,
                                                bool* truncated = nullptr);

// The text extract_sitemap_links hands to the XML parser (the document,
// inflated and capped, after defuse_attribute_floods and the escaping of
// bare '&'), fed `chunk` bytes at a time (tests).
std::string sitemap_prepass(std::string_view xml, size_t chunk);

// Initialises libxml2 once per process (thread-safe).
void init_libxml();

// While alive, libxml2 errors raised on this thread go nowhere (libxml2
// 2.9 keeps its error handlers per thread); the previous handlers come
// back on destruction.
class QuietLibxmlErrors {
public:
    QuietLibxmlErrors();
    ~QuietLibxmlErrors();
    QuietLibxmlErrors(const QuietLibxmlErrors&) = delete;
    QuietLibxmlErrors& operator=(const QuietLibxmlErrors&) = delete;

private:
    using AnyFunction = void (*)();
    AnyFunction generic_;
    void* generic_ctx_;
    AnyFunction structured_;
    void* structured_ctx_;
};

// `url` without its fragment.
std::string strip_fragment(std::string url);

// True when `url` starts with "http://" or "https://" (any case).
bool is_http_url(std::string_view url);

// libxml2 2.9 checks each attribute of a tag against all earlier ones, so
// a tag with N distinct attribute names costs N^2 time.
// In any run of text without '>', every 256th possible attribute start (a
// name character after a space or quote) is overwritten with '>', ending
// such a tag; inside text, quoted values, comments or scripts this changes
// one character and no link. Returns `doc`, or the repaired copy stored in
// `storage`; linear, and copies only when it repairs.
std::string_view defuse_attribute_floods(std::string_view doc, std::string& storage);

// defuse_attribute_floods over a document read in pieces (lib/web/sitemap.cpp
// streams): scan() each piece in order; it appends the offsets (into that
// piece) of the bytes to overwrite with '>', exactly those the whole
// document would get, whatever the cut between pieces. Linear; constant
// state between pieces.
class AttributeFloodScanner {
public:
    void scan(std::string_view piece, std::vector<size_t>& splits);

private:
    bool fresh_ = true;  // the next byte is the first of a segment (after a '>')
    char prev_ = 0;      // the byte before the next one
    char quote_ = 0;     // open quote of a value
    char last_ = 0;      // last non-space byte outside values
    int starts_ = 0;     // attribute starts in this segment since the last split
};

// libxml2 2.9 interns tag, attribute and entity names in a dictionary whose
// lookups slow down sharply as distinct names grow.
// Documents use a few hundred; past 20,000 this stops the parser (the links
// found so far are kept). Call it from SAX callbacks. `ctxt` is an
// xmlParserCtxtPtr (void* keeps libxml2 out of this header).
void bound_names(void* ctxt);

}  // namespace links_detail

}  // namespace frontier
