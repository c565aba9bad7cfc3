// HTML link extraction (lib/web/links.hpp).
//
// lib/web/html/tokenizer.hpp reads the document (converted to UTF-8 by
// lib/web/html/encoding.hpp) in one pass; this file keeps the hrefs of a, area,
// link, frame and iframe, <base> and <meta name=robots>. Raw hrefs are
// collected while streaming (a <base> may come after the links it
// governs), then resolved against the effective base, deduplicated and
// handed out one by one (a caller that wants only the first ones stops
// there). Plain hrefs (most of them) skip libcurl: see BaseUrl in
// lib/web/url.hpp. Figures: fetch(1), PERFORMANCE.

#include <cstdint>
#include <cstring>

#include "core/ascii.hpp"
#include "web/html/encoding.hpp"
#include "web/html/tokenizer.hpp"
#include "json/json.hpp"
#include "web/links.hpp"
#include "web/url.hpp"

namespace frontier {

using links_detail::strip_fragment;

namespace {

// Element kinds we read; index into kTagNames.
enum TagKind : uint8_t { kA, kArea, kLink, kFrame, kIframe };
const char* const kTagNames[] = {"a", "area", "link", "frame", "iframe"};

// Longer references are dropped: no crawler wants them (the sitemap
// protocol's limit is 2,048 characters).
constexpr size_t kMaxHrefBytes = 8192;

// Distinct (href, nofollow) pairs collected, at most: more cannot fit in
// fetch's result line (1,000,000 bytes at >= 20 per link), and the cap bounds
// a page's memory while it is read (fetch(1), LINK EXTRACTION).
constexpr size_t kMaxLinks = 50000;
constexpr size_t kMaxArenaBytes = 4u << 20;

struct HtmlState {
    // The distinct (href, nofollow) pairs, in document order: each as '0' or
    // '1' (nofollow) followed by the cleaned href; tags[i] is the element of
    // pair i. Repeats are not collected again.
    StringSet links;
    std::vector<TagKind> tags;
    std::string key;  // the pair being read
    bool have_base = false;
    std::string base;
    bool meta_nofollow = false;
    bool truncated = false;  // links past kMaxLinks or kMaxArenaBytes were dropped

    HtmlState() = default;
    HtmlState(const HtmlState&) = delete;
    HtmlState& operator=(const HtmlState&) = delete;
};

// True when the space/comma-separated token list `list` holds `token`
// (lower-case), compared case-insensitively.
bool has_token(std::string_view s, std::string_view token) {
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
    while (b < e) {  // runs without control characters, appended whole
        size_t run = b;
        while (run < e && static_cast<unsigned char>(href[run]) >= ' ') ++run;
        out.append(href.data() + b, run - b);
        if (run == e) break;
        char c = href[run];
        if (c != '\t' && c != '\n' && c != '\r') out.push_back(c);
        b = run + 1;
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

// The tags that carry links, and <base> and <meta>.
class LinkSink : public html::TagSink {
public:
    explicit LinkSink(HtmlState& st) : st_(st) {}

    bool wants_start(std::string_view name) override {
        switch (name.size()) {
            case 1: return name[0] == 'a';
            case 4: return name == "area" || name == "link" || name == "base" || name == "meta";
            case 5: return name == "frame";
            case 6: return name == "iframe";
            default: return false;
        }
    }

    bool wants_attribute(std::string_view tag, std::string_view a) override {
        if (tag == "meta") return a == "name" || a == "content";
        if (tag == "frame" || tag == "iframe") return a == "src";
        return a == "href" || a == "rel";
    }

    void start_tag(std::string_view name, const std::vector<html::Attribute>& attrs, bool) override {
        auto find = [&](std::string_view key) -> const std::string_view* {
            for (const html::Attribute& a : attrs)
                if (a.name == key) return &a.value;
            return nullptr;
        };
        TagKind tag;
        if (name == "a") {
            tag = kA;
        } else if (name == "area") {
            tag = kArea;
        } else if (name == "link") {
            tag = kLink;
        } else if (name == "frame") {
            tag = kFrame;
        } else if (name == "iframe") {
            tag = kIframe;
        } else if (name == "base") {
            if (const std::string_view* href = find("href"); href && !st_.have_base) {
                st_.have_base = true;
                append_clean(st_.base, *href);
            }
            return;
        } else {  // meta
            const std::string_view* meta_name = find("name");
            const std::string_view* content = find("content");
            if (meta_name && content && iequals(*meta_name, "robots") &&
                (has_token(*content, "nofollow") || has_token(*content, "none")))
                st_.meta_nofollow = true;
            return;
        }
        const std::string_view* href = find(tag == kFrame || tag == kIframe ? "src" : "href");
        if (href == nullptr) return;
        bool nofollow = false;
        if (tag == kA || tag == kArea || tag == kLink) {
            const std::string_view* rel = find("rel");
            nofollow = rel && has_token(*rel, "nofollow");
        }
        st_.key.assign(1, nofollow ? '1' : '0');
        append_clean(st_.key, *href);
        std::string_view cleaned = std::string_view(st_.key).substr(1);
        if (skipped_reference(cleaned) || cleaned.size() > kMaxHrefBytes) return;
        if (st_.links.find(st_.key) != StringSet::npos) return;    // a repeat
        size_t href_bytes = st_.links.bytes() - st_.links.size();  // without the '0'/'1' of each
        if (st_.links.size() >= kMaxLinks || href_bytes + cleaned.size() > kMaxArenaBytes) {
            st_.truncated = true;
            return;
        }
        st_.links.insert_new(st_.key);
        st_.tags.push_back(tag);
    }

private:
    HtmlState& st_;
};

// Resolves the collected hrefs against the effective base, in document
// order, dropping unresolvable ones and exact repeats (url, nofollow), and
// hands each link to `out` until it wants no more.
void resolve_links(const HtmlState& st, std::string_view page_url, LinkOutput& out) {
    std::string base(page_url);
    if (st.have_base) {
        auto resolved = resolve_url(page_url, st.base);  // a javascript: or data: base is ignored
        if (resolved && links_detail::is_http_url(*resolved)) base = strip_fragment(std::move(*resolved));
    }
    BaseUrl resolver(base);
    StringSet seen[2];  // [nofollow]
    // One Link, its url's buffer reused from link to link unless `out`
    // keeps it (moves it away).
    Link link;
    for (size_t i = 0; i < st.links.size(); ++i) {
        std::string_view key = st.links.at(i);
        if (!resolver.resolve(key.substr(1), link.url) || !links_detail::is_http_url(link.url)) continue;
        bool nofollow = key[0] == '1' || st.meta_nofollow;
        if (!seen[nofollow].insert(link.url)) continue;
        link.nofollow = nofollow;
        link.tag = kTagNames[st.tags[i]];
        if (!out.add(std::move(link))) return;
        link.discovery.clear();
        link.last_modified.reset();
    }
}

}  // namespace

void extract_html_links(std::string_view html, std::string_view page_url, LinkOutput& out, bool* truncated) {
    std::string converted;
    html = html::to_utf8(html, converted);
    HtmlState state;
    LinkSink sink(state);
    html::tokenize(html, sink);
    std::string().swap(converted);
    if (truncated) *truncated = state.truncated;
    resolve_links(state, page_url, out);
}

}  // namespace frontier
