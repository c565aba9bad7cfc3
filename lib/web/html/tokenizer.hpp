// A streaming HTML tokenizer for link extraction: the states of the WHATWG
// HTML tokenizer (HTML Living Standard, 13.2.5) for tags, attributes,
// character references in attribute values, comments, DOCTYPEs, CDATA and
// the raw-text elements, with the few tree-construction rules that change
// what the tokenizer sees (13.2.6: which start tags switch it to script
// data, RAWTEXT, RCDATA or PLAINTEXT, and foreign content). No tree is built
// and text is skipped, so a document costs one pass over its bytes.
//
// The input is UTF-8 (lib/web/html/encoding.hpp converts other encodings, and
// reads U+0000 as U+FFFD, as the standard's input stream does). Unlike that
// stream, CR and CR LF are not turned into LF: attribute values keep their
// CRs (URL parsing and token lists drop them anyway).
// What is reported, and how it differs from a browser, is in fetch(1),
// LINK EXTRACTION.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace frontier::html {

struct Attribute {
    std::string_view name;   // ASCII lower-cased
    std::string_view value;  // character references decoded
};

// What the caller wants to hear of. Names are ASCII lower-case.
class TagSink {
public:
    virtual ~TagSink() = default;
    // Whether start_tag should be called for start tags named `name`.
    virtual bool wants_start(std::string_view name) = 0;
    // Whether attribute `attr` of a wanted tag is kept (the first of a
    // repeated name wins, as in the standard).
    virtual bool wants_attribute(std::string_view tag, std::string_view attr) = 0;
    // A wanted start tag; the views live until the call returns. Attributes
    // in document order; `self_closing` is the token's flag.
    virtual void start_tag(std::string_view name, const std::vector<Attribute>& attributes,
                           bool self_closing) = 0;
    // Every end tag (names only), when end_tags() is true.
    virtual bool end_tags() { return false; }
    virtual void end_tag(std::string_view) {}
};

// Tokenizes `doc` (UTF-8) to its end and reports to `sink`. Time and memory
// are linear in the input; never throws on hostile input (std::bad_alloc
// aside).
void tokenize(std::string_view doc, TagSink& sink);

// Tag names longer than this are reported cut to it (no element we look
// for has a longer name).
constexpr size_t kMaxTagName = 64;

}  // namespace frontier::html
