// The document a sitemap's XML parser reads (private to lib/web/sitemap.cpp
// and sitemap_input.cpp): the body inflated when gzip, piece by piece, with
// two repairs (attribute floods cut as for HTML, bare '&' escaped), at most
// kMaxSitemapBytes of it.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "web/links.hpp"

namespace frontier::sitemap_detail {

constexpr size_t kMaxSitemapBytes = size_t{64} << 20;  // decompressed XML
constexpr size_t kMaxReferenceName = 64;               // name characters or digits read after '&'

inline bool is_gzip(std::string_view s) { return s.size() >= 2 && s[0] == '\x1f' && s[1] == '\x8b'; }

// Inflates gzip data (concatenated members too) piece by piece. Corrupt or
// truncated input ends the output where the damage starts.
class GunzipReader {
public:
    explicit GunzipReader(std::string_view gz);
    ~GunzipReader();
    GunzipReader(const GunzipReader&) = delete;
    GunzipReader& operator=(const GunzipReader&) = delete;

    // Up to `cap` bytes into `out`; 0 at the end.
    size_t read(char* out, size_t cap);

private:
    void refill();

    std::string_view in_;  // not yet handed to zlib
    z_stream zs_;
    bool ready_ = false;
    bool done_ = false;
};

// Sitemaps in the wild often carry bare '&' in URLs ("?a=1&b=2"), which an
// XML parser drops with the name after it. Each '&' that starts no
// reference (outside CDATA sections, found as plain text) becomes "&amp;".
// Fed the document in pieces: the bytes whose treatment depends on what
// follows (from an undecided '&'; a possible start of "<![CDATA[" or, in a
// section, of "]]>") are held back for the next call, so the output is the
// same whatever the cut.
class AmpersandEscaper {
public:
    void feed(std::string_view in, bool at_end, std::string& out);

private:
    // Where the longest end of s[i..] that could begin `token` starts (s.size()
    // when none does): those bytes wait for the next piece.
    static size_t held_back(std::string_view s, size_t i, std::string_view token);

    std::string carry_;  // held back from the last call (under 80 bytes)
    std::string buf_;
    bool in_cdata_ = false;
};

// The document as libxml2 reads it: the body (inflated when gzip),
// `chunk` bytes at a time, through the two repairs, at most
// kMaxSitemapBytes of it. libxml2's parser pulls from it through read()
// (an I/O callback), so it parses exactly as it would parse the whole
// document in memory, recovery included (its push parser gives up at more
// errors), but holds only the part it is working on.
class RepairedXml {
public:
    RepairedXml(std::string_view body, size_t chunk);

    // `len` bytes of the repaired text, fewer only at its end (libxml2's
    // parser expects a full read, as from a file: it needs its lookahead).
    size_t read(char* out, size_t len);
    // True when the body went on past kMaxSitemapBytes (known once read to the end).
    bool cut() const { return cut_; }

    static int read_callback(void* self, char* out, int len);

private:
    // Repairs the next piece of the body into text_ (possibly nothing: held back).
    void next();

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

}  // namespace frontier::sitemap_detail
