// HTML link extraction (lib/links.hpp).
//
// libxml2's HTML parser runs in SAX mode: no tree is built. Raw hrefs are
// collected while streaming (a <base> may come after the links it
// governs), then resolved once per distinct href against the effective
// base and deduplicated. Hostile input is bounded (see
// defuse_attribute_floods, bound_open_elements and bound_names): time
// stays linear in the input.
//
// Measured: the Python 3.11 docs (Debian python3.11-doc, 530 files, 50.7 MB,
// 170,017 a/link hrefs of which 59,481 fragment-only), extract_html_links
// per file with its docs.python.org URL, one core, g++ -O2, CPU time, best
// of 3: 0.60-0.63 s = 80-84 MB/s including resolution (libxml2 SAX alone:
// ~95 MB/s), 110,519 hrefs collected, 25,712 links returned after per-page
// deduplication. ANCHORS.md: libxml2 SAX 52 MB/s, gumbo 11 MB/s. Plain
// relative hrefs (most of them) skip libcurl: see BaseResolver.

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>

#include <climits>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "ascii.hpp"
#include "json.hpp"
#include "links.hpp"
#include "url.hpp"

namespace frontier {

using links_detail::strip_fragment;

namespace {

// Element kinds we read; index into kTagNames.
enum TagKind : uint8_t { kA, kArea, kLink, kFrame, kIframe };
const char* const kTagNames[] = {"a", "area", "link", "frame", "iframe"};

// Longer references are dropped: no crawler wants them (the sitemap
// protocol's limit is 2,048 characters).
constexpr size_t kMaxHrefBytes = 8192;

struct RawLink {
    uint32_t offset;  // into HtmlState::arena
    uint32_t length;
    bool nofollow;
    TagKind tag;
};

struct HtmlState {
    htmlParserCtxtPtr ctxt = nullptr;
    std::string arena;  // cleaned hrefs, back to back
    std::vector<RawLink> raw;
    bool have_base = false;
    std::string base;
    bool meta_nofollow = false;
};

// True when the space/comma-separated token list `list` holds `token`
// (lower-case), compared case-insensitively.
bool has_token(const char* list, std::string_view token) {
    std::string_view s(list);
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ',' || static_cast<unsigned char>(s[i]) <= ' ')) ++i;
        size_t j = i;
        while (j < s.size() && s[j] != ',' && static_cast<unsigned char>(s[j]) > ' ') ++j;
        if (j > i && iequals(s.substr(i, j - i), token)) return true;
        i = j;
    }
    return false;
}

// Appends `href` to `out` the way the URL parser sees it: leading and
// trailing C0 controls and spaces stripped, tabs and newlines removed.
void append_clean(std::string& out, std::string_view href) {
    size_t b = 0, e = href.size();
    while (b < e && static_cast<unsigned char>(href[b]) <= ' ') ++b;
    while (e > b && static_cast<unsigned char>(href[e - 1]) <= ' ') --e;
    for (size_t i = b; i < e; ++i) {
        char c = href[i];
        if (c != '\t' && c != '\n' && c != '\r') out.push_back(c);
    }
}

// References that never name a fetchable document: empty, fragment-only,
// and the javascript:, vbscript:, mailto:, tel:, data: and about: schemes.
bool skipped_reference(std::string_view r) {
    if (r.empty() || r[0] == '#') return true;
    size_t i = 0;
    while (i < r.size() && i < 11 &&
           ((r[i] >= 'a' && r[i] <= 'z') || (r[i] >= 'A' && r[i] <= 'Z') ||
            (i > 0 && ((r[i] >= '0' && r[i] <= '9') || r[i] == '+' || r[i] == '-' || r[i] == '.'))))
        ++i;
    if (i == 0 || i >= r.size() || r[i] != ':') return false;
    std::string_view scheme = r.substr(0, i);
    for (std::string_view s : {"javascript", "vbscript", "mailto", "tel", "data", "about"})
        if (iequals(scheme, s)) return true;
    return false;
}

const char* attr(const xmlChar** atts, const char* name) {
    if (atts == nullptr) return nullptr;
    for (size_t i = 0; atts[i] != nullptr; i += 2)
        if (std::strcmp(reinterpret_cast<const char*>(atts[i]), name) == 0)
            return atts[i + 1] ? reinterpret_cast<const char*>(atts[i + 1]) : "";
    return nullptr;
}

// A NUL byte ends libxml2 2.9's parse: each becomes U+FFFD, as in browsers.
std::string_view replace_nul_bytes(std::string_view html, std::string& repaired) {
    if (std::memchr(html.data(), '\0', html.size()) == nullptr) return html;
    std::string out;
    out.reserve(html.size() + 64);
    for (char c : html) {
        if (c == '\0')
            out += "\xEF\xBF\xBD";
        else
            out.push_back(c);
    }
    repaired.swap(out);
    return repaired;
}

// libxml2 2.9 looks an end tag up in the whole stack of open elements, so
// N unmatched end tags under D open elements cost N x D: hostile nesting
// (100k <div> then 1M </x>) would take hours. Past kMaxOpenElements the
// middle of the stack is forgotten (end tags for those elements are then
// ignored as unmatched), which bounds that cost and changes nothing for link
// extraction. Only entries below the top are moved, so the parser's view of
// the current element stays consistent.
constexpr int kMaxOpenElements = 128;
constexpr int kKeepOuterElements = 16;
constexpr int kKeepInnerElements = 64;

void bound_open_elements(htmlParserCtxtPtr ctxt) {
    if (ctxt->nameNr <= kMaxOpenElements) return;
    const xmlChar** tab = ctxt->nameTab;
    std::memmove(tab + kKeepOuterElements, tab + ctxt->nameNr - kKeepInnerElements,
                 kKeepInnerElements * sizeof *tab);
    for (int i = kKeepOuterElements + kKeepInnerElements; i < ctxt->nameNr; ++i) tab[i] = nullptr;
    ctxt->nameNr = kKeepOuterElements + kKeepInnerElements;
}

// links_detail::bound_names runs from every callback a new name can reach:
// start tags, text (entities) and errors (unknown end tags).
void on_text(void* ctx, const xmlChar*, int) {
    links_detail::bound_names(static_cast<HtmlState*>(ctx)->ctxt);
}

void on_error(void* ctx, xmlErrorPtr) { links_detail::bound_names(static_cast<HtmlState*>(ctx)->ctxt); }

void on_start_element(void* ctx, const xmlChar* xname, const xmlChar** atts) {
    auto* st = static_cast<HtmlState*>(ctx);
    bound_open_elements(st->ctxt);
    links_detail::bound_names(st->ctxt);
    const char* name = reinterpret_cast<const char*>(xname);  // lower-cased by libxml2
    TagKind tag;
    const char* url_attr = "href";
    switch (name[0]) {
        case 'a':
            if (name[1] == '\0')
                tag = kA;
            else if (std::strcmp(name, "area") == 0)
                tag = kArea;
            else
                return;
            break;
        case 'l':
            if (std::strcmp(name, "link") != 0) return;
            tag = kLink;
            break;
        case 'f':
            if (std::strcmp(name, "frame") != 0) return;
            tag = kFrame, url_attr = "src";
            break;
        case 'i':
            if (std::strcmp(name, "iframe") != 0) return;
            tag = kIframe, url_attr = "src";
            break;
        case 'b':
            if (!st->have_base && std::strcmp(name, "base") == 0) {
                if (const char* href = attr(atts, "href")) {
                    st->have_base = true;
                    append_clean(st->base, href);
                }
            }
            return;
        case 'm':
            if (std::strcmp(name, "meta") == 0) {
                const char* meta_name = attr(atts, "name");
                const char* content = attr(atts, "content");
                if (meta_name && content && iequals(meta_name, "robots") &&
                    (has_token(content, "nofollow") || has_token(content, "none")))
                    st->meta_nofollow = true;
            }
            return;
        default:
            return;
    }
    const char* href = attr(atts, url_attr);
    if (href == nullptr) return;
    size_t offset = st->arena.size();
    append_clean(st->arena, href);
    std::string_view cleaned(st->arena.data() + offset, st->arena.size() - offset);
    if (skipped_reference(cleaned) || cleaned.size() > kMaxHrefBytes || st->arena.size() > UINT32_MAX) {
        st->arena.resize(offset);
        return;
    }
    bool nofollow = false;
    if (tag == kA || tag == kArea || tag == kLink) {
        const char* rel = attr(atts, "rel");
        nofollow = rel && has_token(rel, "nofollow");
    }
    st->raw.push_back(
        RawLink{static_cast<uint32_t>(offset), static_cast<uint32_t>(cleaned.size()), nofollow, tag});
}

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// A reference that RFC 3986 resolution turns into plain concatenation: a
// path (relative, or absolute but not "//"), an optional query, only
// characters that need no encoding, no "." or ".." segments, no ':' in a
// relative path's first segment.
bool is_plain_reference(std::string_view r) {
    if (r.empty() || r[0] == '?' || r.substr(0, 2) == "//") return false;
    bool in_query = false, first_segment = r[0] != '/';
    size_t segment_start = 0;
    for (size_t i = 0; i <= r.size(); ++i) {
        char c = i < r.size() ? r[i] : '\0';
        if (!in_query && (c == '/' || c == '?' || c == '\0')) {
            std::string_view segment = r.substr(segment_start, i - segment_start);
            if (segment == "." || segment == "..") return false;
            if (c == '/') first_segment = false;
            if (c == '?') in_query = true;
            segment_start = i + 1;
            continue;
        }
        if (c == '\0') break;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) continue;
        if (c == '%') {
            if (i + 2 >= r.size() || !is_hex(r[i + 1]) || !is_hex(r[i + 2])) return false;
            continue;
        }
        if (c == ':' && first_segment && !in_query) return false;
        if (!std::strchr("-._~/!$&'()*+,;=:@?", c)) return false;
    }
    return true;
}

// resolve_url against one base, with a fast path: the base's directory and
// origin are learnt from resolve_url itself once, then plain references
// (is_plain_reference) are concatenated to them. Fragments are dropped.
class BaseResolver {
public:
    explicit BaseResolver(std::string base) : base_(std::move(base)) {
        if (auto dir = resolve_url(base_, "x"); dir && dir->size() > 1 && dir->back() == 'x') {
            dir->pop_back();
            directory_ = std::move(*dir);
        }
        if (auto root = resolve_url(base_, "/x"); root && root->size() > 2 && root->ends_with("/x")) {
            root->resize(root->size() - 2);
            origin_ = std::move(*root);
        }
    }

    // The absolute URL of `ref` (without fragment), or "" when unresolvable.
    std::string resolve(std::string_view ref) const {
        ref = ref.substr(0, ref.find('#'));
        if (is_plain_reference(ref)) {
            const std::string& prefix = ref[0] == '/' ? origin_ : directory_;
            if (!prefix.empty()) {
                std::string out;
                out.reserve(prefix.size() + ref.size());
                out.append(prefix).append(ref);
                return out;
            }
        }
        auto resolved = resolve_url(base_, ref);
        return resolved ? strip_fragment(std::move(*resolved)) : std::string();
    }

private:
    std::string base_;
    std::string directory_;  // "https://h/a/" for base "https://h/a/b?q"; "" when unknown
    std::string origin_;     // "https://h"
};

// Resolves the collected hrefs against the effective base, in document
// order, dropping unresolvable ones and exact repeats (url, nofollow).
std::vector<Link> resolve_links(const HtmlState& st, std::string_view page_url) {
    std::string base(page_url);
    if (st.have_base) {
        auto resolved = resolve_url(page_url, st.base);  // a javascript: or data: base is ignored
        if (resolved && links_detail::is_http_url(*resolved)) base = strip_fragment(std::move(*resolved));
    }
    BaseResolver resolver(std::move(base));
    std::vector<Link> out;
    out.reserve(st.raw.size());
    // Distinct raw href -> resolved URL ("" when unresolvable); node-based,
    // so views of the mapped strings stay valid.
    std::unordered_map<std::string_view, std::string> resolved_by_href;
    std::unordered_set<std::string_view> seen[2];  // [nofollow]
    resolved_by_href.reserve(st.raw.size());
    for (const RawLink& r : st.raw) {
        std::string_view href(st.arena.data() + r.offset, r.length);
        auto [it, fresh] = resolved_by_href.try_emplace(href);
        if (fresh) {
            it->second = resolver.resolve(href);
            if (!links_detail::is_http_url(it->second)) it->second.clear();
        }
        const std::string& url = it->second;
        bool nofollow = r.nofollow || st.meta_nofollow;
        if (url.empty() || !seen[nofollow].insert(url).second) continue;
        Link link;
        link.url = url;
        link.nofollow = nofollow;
        link.tag = kTagNames[r.tag];
        out.push_back(std::move(link));
    }
    return out;
}

}  // namespace

std::vector<Link> extract_html_links(std::string_view html, std::string_view page_url) {
    std::string repaired;
    html = links_detail::defuse_attribute_floods(html, repaired);
    html = replace_nul_bytes(html, repaired);
    if (html.empty()) return {};
    links_detail::init_libxml();
    links_detail::QuietLibxmlErrors quiet;
    int size = html.size() > INT_MAX ? INT_MAX : static_cast<int>(html.size());
    htmlParserCtxtPtr ctxt = htmlCreateMemoryParserCtxt(html.data(), size);
    if (ctxt == nullptr) return {};
    htmlCtxtUseOptions(ctxt, HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                                 HTML_PARSE_NONET | HTML_PARSE_NOIMPLIED | HTML_PARSE_NODEFDTD);
    // Undeclared, libxml2 takes the first non-ASCII byte for ISO-8859-1.
    // A document that is valid UTF-8 is UTF-8; a <meta charset> still wins.
    if (valid_utf8(html)) xmlSwitchEncoding(ctxt, XML_CHAR_ENCODING_UTF8);
    htmlSAXHandler sax;
    std::memset(&sax, 0, sizeof sax);
    sax.initialized = XML_SAX2_MAGIC;  // so that serror is used
    sax.startElement = on_start_element;
    sax.characters = on_text;
    sax.serror = on_error;
    HtmlState state;
    state.ctxt = ctxt;
    htmlSAXHandlerPtr own_sax = ctxt->sax;
    ctxt->sax = &sax;
    ctxt->userData = &state;
    htmlParseDocument(ctxt);
    ctxt->sax = own_sax;
    ctxt->userData = ctxt;
    htmlFreeParserCtxt(ctxt);
    return resolve_links(state, page_url);
}

}  // namespace frontier
