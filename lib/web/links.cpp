// Shared libxml2 plumbing and the content-type dispatch of lib/links.hpp.
// HTML is in lib/web/html_links.cpp, sitemaps in lib/sitemap.cpp.

#include "web/links.hpp"

#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <mutex>
#include <vector>

#include "core/ascii.hpp"
#include "core/ondemand.hpp"

namespace frontier {

namespace {

void ignore_generic(void*, const char*, ...) {}
void ignore_structured(void*, xmlErrorPtr) {}

}  // namespace

namespace links_detail {

void init_libxml() {
    static std::once_flag once;
    std::call_once(once, [] { xml_api().xmlInitParser(); });
}

QuietLibxmlErrors::QuietLibxmlErrors()
    : generic_(reinterpret_cast<AnyFunction>(*xml_api().__xmlGenericError())),
      generic_ctx_(*xml_api().__xmlGenericErrorContext()),
      structured_(reinterpret_cast<AnyFunction>(*xml_api().__xmlStructuredError())),
      structured_ctx_(*xml_api().__xmlStructuredErrorContext()) {
    xml_api().xmlSetGenericErrorFunc(nullptr, ignore_generic);
    xml_api().xmlSetStructuredErrorFunc(nullptr, ignore_structured);
}

QuietLibxmlErrors::~QuietLibxmlErrors() {
    xml_api().xmlSetGenericErrorFunc(generic_ctx_, reinterpret_cast<xmlGenericErrorFunc>(generic_));
    xml_api().xmlSetStructuredErrorFunc(structured_ctx_, reinterpret_cast<xmlStructuredErrorFunc>(structured_));
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

// Segments between two '>' are scanned from their second byte (the first is
// only the byte before it); a segment shorter than 2 * kMaxAttributes holds
// no split (each attribute takes two bytes at least), so one that starts and
// ends in the same piece is skipped whole. Starts are counted outside quoted
// values (a quote right after '=' opens one, the same quote closes it): a
// value that begins with a name character is no attribute, and a '>' put
// inside a value would not end the tag.
void AttributeFloodScanner::scan(std::string_view piece, std::vector<size_t>& splits) {
    const char* data = piece.data();
    size_t pos = 0, n = piece.size();
    while (pos < n) {
        const void* gt = std::memchr(data + pos, '>', n - pos);
        size_t end = gt ? static_cast<size_t>(static_cast<const char*>(gt) - data) : n;
        if (!(fresh_ && gt && end - pos < 2 * kMaxAttributes)) {
            for (size_t i = pos; i < end; ++i) {
                char c = data[i];
                if (fresh_) {
                    fresh_ = false;
                } else if (quote_) {
                    if (c == quote_) quote_ = 0, last_ = c;
                } else if ((c == '"' || c == '\'') && last_ == '=') {
                    quote_ = c;
                } else {
                    if (is_name_start(c) && (is_space(prev_) || prev_ == '"' || prev_ == '\'') &&
                        ++starts_ == kMaxAttributes) {
                        splits.push_back(i);
                        starts_ = 0;
                    }
                    if (!is_space(c)) last_ = c;
                }
                prev_ = c;
            }
        }
        if (!gt) break;
        fresh_ = true;  // the next segment starts after this '>'
        quote_ = last_ = 0;
        starts_ = 0;
        pos = end + 1;
    }
}

std::string_view defuse_attribute_floods(std::string_view doc, std::string& storage) {
    std::vector<size_t> splits;
    AttributeFloodScanner().scan(doc, splits);
    if (splits.empty()) return doc;
    storage.assign(doc);
    for (size_t i : splits) storage[i] = '>';
    return storage;
}

void bound_names(void* ctxt) {
    auto* parser = static_cast<xmlParserCtxtPtr>(ctxt);
    if (parser->dict != nullptr && xml_api().xmlDictSize(parser->dict) > kMaxDistinctNames)
        xml_api().xmlStopParser(parser);
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

namespace {

// XXH3 rather than std::hash: a page's hrefs and URLs are hashed two or
// three times each, and XXH3 is the faster on strings of their length.
uint64_t string_hash(std::string_view s) { return XXH3_64bits(s.data(), s.size()); }

}  // namespace

size_t StringSet::slot_of(std::string_view s, uint64_t hash) const {
    size_t mask = slots_.size() - 1;
    uint64_t tag = hash & 0xFFFFFFFFu;
    for (size_t i = static_cast<size_t>(hash >> 32) & mask;; i = (i + 1) & mask) {
        uint64_t slot = slots_[i];
        if (slot == 0) return i;
        if ((slot >> 32) == tag && at((slot & 0xFFFFFFFFu) - 1) == s) return i;
    }
}

size_t StringSet::find(std::string_view s) const {
    if (slots_.empty()) return npos;
    uint64_t slot = slots_[slot_of(s, string_hash(s))];
    return slot == 0 ? npos : static_cast<size_t>(slot & 0xFFFFFFFFu) - 1;
}

size_t StringSet::insert_new(std::string_view s) {
    if ((ends_.size() + 1) * 4 > slots_.size() * 3) {  // keep the table at most 3/4 full
        std::vector<uint64_t> old = std::move(slots_);
        slots_.assign(std::max<size_t>(64, old.size() * 2), 0);
        for (uint64_t slot : old) {
            if (slot == 0) continue;
            std::string_view t = at((slot & 0xFFFFFFFFu) - 1);
            slots_[slot_of(t, string_hash(t))] = slot;
        }
    }
    uint64_t hash = string_hash(s);
    size_t i = slot_of(s, hash);
    text_.append(s);
    ends_.push_back(static_cast<uint32_t>(text_.size()));
    slots_[i] = (hash & 0xFFFFFFFFu) << 32 | ends_.size();
    return ends_.size() - 1;
}

std::vector<Link> extract_html_links(std::string_view html, std::string_view page_url, bool* truncated) {
    LinkVector c;
    extract_html_links(html, page_url, c, truncated);
    return std::move(c.links);
}

std::vector<Link> extract_sitemap_links(std::string_view xml, std::string_view page_url, bool* truncated) {
    LinkVector c;
    extract_sitemap_links(xml, page_url, c, truncated);
    return std::move(c.links);
}

std::vector<Link> extract_links(std::string_view body, std::string_view content_type,
                                std::string_view page_url, bool* truncated) {
    LinkVector c;
    extract_links(body, content_type, page_url, c, truncated);
    return std::move(c.links);
}

void extract_links(std::string_view body, std::string_view content_type, std::string_view page_url,
                   LinkOutput& out, bool* truncated) {
    if (truncated) *truncated = false;
    std::string mime;
    for (char c : trim(content_type.substr(0, content_type.find(';')))) mime.push_back(ascii_lower(c));
    if (mime == "text/html" || mime == "application/xhtml+xml")
        return extract_html_links(body, page_url, out, truncated);

    std::string_view path = page_url.substr(0, page_url.find_first_of("?#"));
    bool xml_type = mime == "text/xml" || mime == "application/xml" || iends_with(mime, "+xml");
    bool gzip_type = mime == "application/gzip" || mime == "application/x-gzip";
    bool xml_url = iends_with(path, ".xml") || iends_with(path, ".xml.gz");
    bool gzip_body = body.size() >= 2 && body[0] == '\x1f' && body[1] == '\x8b';
    if (xml_type || gzip_type || xml_url || gzip_body)
        return extract_sitemap_links(body, page_url, out, truncated);

    if (mime.empty() && looks_like_html(body)) extract_html_links(body, page_url, out, truncated);
}

}  // namespace frontier
