// Shared libxml2 plumbing and the content-type dispatch of lib/links.hpp.
// HTML is in lib/html_links.cpp, sitemaps in lib/sitemap.cpp.

#include "links.hpp"

#include "ascii.hpp"

#include <libxml/parser.h>
#include <libxml/xmlerror.h>

#include <cstring>
#include <mutex>
#include <vector>

namespace frontier {

namespace {

void ignore_generic(void*, const char*, ...) {}
void ignore_structured(void*, xmlErrorPtr) {}

}  // namespace

namespace links_detail {

void init_libxml() {
    static std::once_flag once;
    std::call_once(once, [] { xmlInitParser(); });
}

QuietLibxmlErrors::QuietLibxmlErrors()
    : generic_(reinterpret_cast<AnyFunction>(xmlGenericError)),
      generic_ctx_(xmlGenericErrorContext),
      structured_(reinterpret_cast<AnyFunction>(xmlStructuredError)),
      structured_ctx_(xmlStructuredErrorContext) {
    xmlSetGenericErrorFunc(nullptr, ignore_generic);
    xmlSetStructuredErrorFunc(nullptr, ignore_structured);
}

QuietLibxmlErrors::~QuietLibxmlErrors() {
    xmlSetGenericErrorFunc(generic_ctx_, reinterpret_cast<xmlGenericErrorFunc>(generic_));
    xmlSetStructuredErrorFunc(structured_ctx_, reinterpret_cast<xmlStructuredErrorFunc>(structured_));
}

std::string strip_fragment(std::string url) {
    if (auto hash = url.find('#'); hash != std::string::npos) url.resize(hash);
    return url;
}

bool is_http_url(std::string_view url) {
    auto starts = [&](std::string_view prefix) {
        if (url.size() < prefix.size()) return false;
        for (size_t i = 0; i < prefix.size(); ++i)
            if ((url[i] | 0x20) != prefix[i] && url[i] != prefix[i]) return false;
        return true;
    };
    return starts("http://") || starts("https://");
}

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

bool is_name_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

constexpr int kMaxAttributes = 256;
constexpr int kMaxDistinctNames = 20000;

}  // namespace

std::string_view defuse_attribute_floods(std::string_view doc, std::string& storage) {
    std::vector<size_t> splits;
    const char* data = doc.data();
    size_t pos = 0;
    while (pos < doc.size()) {
        const void* gt = std::memchr(data + pos, '>', doc.size() - pos);
        size_t end = gt ? static_cast<size_t>(static_cast<const char*>(gt) - data) : doc.size();
        if (end - pos >= 2 * kMaxAttributes) {  // each attribute takes two bytes at least
            // Starts are counted outside quoted values (a quote right after
            // '=' opens one, the same quote closes it): a value that begins
            // with a name character is no attribute, and a '>' put inside a
            // value would not end the tag.
            int starts = 0;
            char quote = 0, last = 0;  // open quote; last non-space character outside values
            for (size_t i = pos + 1; i < end; ++i) {
                char c = data[i], prev = data[i - 1];
                if (quote) {
                    if (c == quote) quote = 0, last = c;
                    continue;
                }
                if ((c == '"' || c == '\'') && last == '=') {
                    quote = c;
                    continue;
                }
                if (is_name_start(c) && (is_space(prev) || prev == '"' || prev == '\'') &&
                    ++starts == kMaxAttributes) {
                    splits.push_back(i);
                    starts = 0;
                }
                if (!is_space(c)) last = c;
            }
        }
        pos = end + 1;
    }
    if (splits.empty()) return doc;
    storage.assign(doc);
    for (size_t i : splits) storage[i] = '>';
    return storage;
}

void bound_names(void* ctxt) {
    auto* parser = static_cast<xmlParserCtxtPtr>(ctxt);
    if (parser->dict != nullptr && xmlDictSize(parser->dict) > kMaxDistinctNames) xmlStopParser(parser);
}

}  // namespace links_detail

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && static_cast<unsigned char>(s.front()) <= ' ') s.remove_prefix(1);
    while (!s.empty() && static_cast<unsigned char>(s.back()) <= ' ') s.remove_suffix(1);
    return s;
}

bool istarts_with(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

bool iends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && iequals(s.substr(s.size() - suffix.size()), suffix);
}

// Body sniffing for a missing content type: a document that opens like HTML.
bool looks_like_html(std::string_view body) {
    if (body.substr(0, 3) == "\xEF\xBB\xBF") body.remove_prefix(3);
    body = trim(body.substr(0, 1024));
    for (std::string_view p : {"<!doctype html", "<html", "<head", "<body"})
        if (istarts_with(body, p)) return true;
    return false;
}

}  // namespace

std::vector<Link> extract_links(std::string_view body, std::string_view content_type,
                                std::string_view page_url, bool* truncated) {
    if (truncated) *truncated = false;
    std::string mime;
    for (char c : trim(content_type.substr(0, content_type.find(';')))) mime.push_back(ascii_lower(c));
    if (mime == "text/html" || mime == "application/xhtml+xml") return extract_html_links(body, page_url, truncated);

    std::string_view path = page_url.substr(0, page_url.find_first_of("?#"));
    bool xml_type = mime == "text/xml" || mime == "application/xml" || iends_with(mime, "+xml");
    bool gzip_type = mime == "application/gzip" || mime == "application/x-gzip";
    bool xml_url = iends_with(path, ".xml") || iends_with(path, ".xml.gz");
    bool gzip_body = body.size() >= 2 && body[0] == '\x1f' && body[1] == '\x8b';
    if (xml_type || gzip_type || xml_url || gzip_body) return extract_sitemap_links(body, page_url);

    if (mime.empty() && looks_like_html(body)) return extract_html_links(body, page_url, truncated);
    return {};
}

}  // namespace frontier
