// Outlinks from fetched bodies: HTML through libxml2's HTML parser in SAX
// mode, XML sitemaps and sitemap indexes (gzipped or not) through libxml2.
// Pure functions of their input; thread-safe (libxml2 is initialised once).
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
std::vector<Link> extract_html_links(std::string_view html, std::string_view page_url);

// <loc> entries of a sitemap (<urlset>) or sitemap index (<sitemapindex>),
// with <lastmod>; `xml` may be gzip-compressed (detected by magic bytes).
std::vector<Link> extract_sitemap_links(std::string_view xml, std::string_view page_url);

// Picks by content type and sniffing: text/html or application/xhtml+xml ->
// HTML; XML (or .xml/.xml.gz URL, or gzip body) whose root is urlset or
// sitemapindex -> sitemap; anything else -> no links.
std::vector<Link> extract_links(std::string_view body, std::string_view content_type, std::string_view page_url);

}  // namespace frontier
