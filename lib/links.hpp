// Outlinks from fetched bodies: HTML through lib/html/ (a WHATWG-state
// tokenizer, one pass, no tree), XML sitemaps and sitemap indexes (gzipped
// or not) through libxml2. Pure functions of their input; thread-safe
// (libxml2 is initialised once).
#pragma once

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
// links. The encoding is chosen by lib/html/encoding.hpp (the HTTP charset
// is not used). Time is linear in the document's size; memory beyond the
// document is bounded: at most 50,000 distinct hrefs (4 MiB of them) are
// collected, and `*truncated` (when given) tells whether more were dropped.
std::vector<Link> extract_html_links(std::string_view html, std::string_view page_url, bool* truncated = nullptr);

// <loc> entries of a sitemap (<urlset>) or sitemap index (<sitemapindex>),
// with <lastmod>; `xml` may be gzip-compressed (detected by magic bytes).
//
// Details: element local names are matched (any namespace prefix); <loc>
// and <lastmod> must be direct children of <url>/<sitemap>; <loc> is
// resolved against `page_url`, fragment dropped, http(s) only; <lastmod>
// is read by parse_w3c_datetime (unreadable -> no last_modified). Any other
// root element gives no links. Bounded: at most 64 MiB of (decompressed)
// XML and 100,000 entries are read; no DTD loading, entity substitution or
// network access; recoverable XML errors (a bare '&') are tolerated.
// Thread-safe; never throws on hostile input.
std::vector<Link> extract_sitemap_links(std::string_view xml, std::string_view page_url);

// Picks by content type and sniffing: text/html or application/xhtml+xml ->
// HTML; XML (or .xml/.xml.gz URL, or gzip body) whose root is urlset or
// sitemapindex -> sitemap; anything else -> no links.
// In detail: XML is text/xml, application/xml or any +xml type (RSS, Atom:
// root not a sitemap, so no links); application/gzip and x-gzip count as
// XML; an empty content type with a body that opens like HTML ("<!doctype
// html", "<html", "<head", "<body") is HTML. Parameters (charset) ignored.
// `*truncated` as for extract_html_links (HTML only; sitemaps stop at
// 100,000 entries).
std::vector<Link> extract_links(std::string_view body, std::string_view content_type, std::string_view page_url,
                                bool* truncated = nullptr);

// W3C Datetime (the sitemap <lastmod> format): "2024", "2024-05",
// "2024-05-01", "2024-05-01T12:00+02:00", "2024-05-01T12:00:00Z",
// "2024-05-01T12:00:00.5-05:00" to epoch seconds. A missing zone means UTC;
// a space for 'T' and "+0200" are tolerated. nullopt when not a valid date.
std::optional<double> parse_w3c_datetime(std::string_view text);

// Decompressed gzip data (concatenated members too), at most `max_out`
// bytes: output past the cap is not produced, so a gzip bomb costs
// `max_out` bytes of memory. Corrupt or truncated input yields what
// decompressed before the damage; `*truncated` (if given) tells whether
// the output was cut at the cap.
std::string gunzip_capped(std::string_view gz, size_t max_out, bool* truncated = nullptr);

// Internals shared by lib/links.cpp, lib/html_links.cpp and lib/sitemap.cpp.
namespace links_detail {

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
// a tag with N distinct attribute names costs N^2 (500k of them: hours).
// In any run of text without '>', every 256th possible attribute start (a
// name character after a space or quote) is overwritten with '>', ending
// such a tag; inside text, quoted values, comments or scripts this changes
// one character and no link. Returns `doc`, or the repaired copy stored in
// `storage`; linear, and copies only when it repairs.
std::string_view defuse_attribute_floods(std::string_view doc, std::string& storage);

// libxml2 2.9 interns tag, attribute and entity names in a dictionary whose
// lookups slow down sharply past ~10^5 distinct names (400k names: 9 s).
// Documents use a few hundred; past 20,000 this stops the parser (the links
// found so far are kept). Call it from SAX callbacks. `ctxt` is an
// xmlParserCtxtPtr (void* keeps libxml2 out of this header).
void bound_names(void* ctxt);

}  // namespace links_detail

}  // namespace frontier
