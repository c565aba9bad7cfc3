// The few tree-construction rules (13.2.6) that decide the tokenizer's
// state, private to lib/web/html/tokenizer.cpp: which start tags switch it
// to script data, RAWTEXT, RCDATA or PLAINTEXT, and the stack of open
// foreign (svg, MathML) elements, in which CDATA sections exist and raw-text
// elements do not.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string_view>
#include <vector>

namespace frontier::html::detail {

// Element names the tokenizer treats specially (13.2.6.4.7, 13.2.6.5).
enum class Raw { kNone, kScript, kRawtext, kRcdata, kPlaintext };

inline Raw raw_kind(std::string_view n) {
    if (n == "script") return Raw::kScript;
    if (n == "style" || n == "xmp" || n == "iframe" || n == "noembed" || n == "noframes") return Raw::kRawtext;
    if (n == "title" || n == "textarea") return Raw::kRcdata;
    if (n == "plaintext") return Raw::kPlaintext;
    return Raw::kNone;  // noscript: the scripting flag is off (a crawler runs no scripts)
}

// 13.2.6.5: start tags that end foreign content (font only with color,
// face or size).
inline bool breaks_out(std::string_view n) {
    static const std::string_view kNames[] = {
        "b",  "big", "blockquote", "body", "br",   "center", "code",  "dd",   "div",   "dl",     "dt",
        "em", "embed", "h1",       "h2",   "h3",   "h4",     "h5",    "h6",   "head",  "hr",     "i",
        "img", "li", "listing",    "menu", "meta", "nobr",   "ol",    "p",    "pre",   "ruby",   "s",
        "small", "span", "strong", "strike", "sub", "sup",   "table", "tt",   "u",     "ul",     "var"};
    return std::find(std::begin(kNames), std::end(kNames), n) != std::end(kNames);
}

// An open element of foreign content (svg or MathML); HTML elements are
// not tracked.
struct Foreign {
    char name[16];
    uint8_t length;
    bool svg;
    std::string_view view() const { return {name, length}; }
};

class TreeRules {
public:
    // Whether foreign content is open (CDATA sections, font's attributes).
    bool in_foreign() const { return !foreign_.empty(); }

    // A start tag; `font_attr`: it has a color, face or size attribute.
    // Returns the raw-text kind of the content that follows it.
    Raw start_tag(std::string_view name, bool self_closing, bool font_attr) {
        if (!foreign_.empty() && !at_html_point(name)) {
            if (breaks_out(name) || (name == "font" && font_attr)) {
                pop_to_integration_point();
            } else {
                // In the namespace of the current node, whatever its name
                // (13.2.6.5: "<math><svg>" is a MathML element).
                if (!self_closing) push_foreign(name, foreign_.back().svg);
                return Raw::kNone;
            }
        }
        if (name == "svg" || name == "math") {
            if (!self_closing) push_foreign(name, name == "svg");
            return Raw::kNone;
        }
        return raw_kind(name);
    }

    void end_tag(std::string_view name) {
        if (foreign_.empty()) return;
        if (name == "br" || name == "p") return pop_to_integration_point();
        for (size_t i = foreign_.size(); i-- > 0;)
            if (foreign_[i].view() == name) {
                foreign_.resize(i);
                return;
            }
    }

private:
    static constexpr size_t kMaxForeignDepth = 256;

    // An HTML integration point (svg foreignObject, desc, title) or a MathML
    // text integration point (mi, mo, mn, ms, mtext).
    static bool is_integration_point(const Foreign& f) {
        std::string_view n = f.view();
        if (f.svg) return n == "foreignobject" || n == "desc" || n == "title";
        return n == "mi" || n == "mo" || n == "mn" || n == "ms" || n == "mtext";
    }

    // Whether the start tag `next` is read by the HTML rules although
    // foreign content is open: at an integration point (at a MathML one,
    // but for mglyph and malignmark), or an svg inside annotation-xml.
    bool at_html_point(std::string_view next) const {
        const Foreign& top = foreign_.back();
        if (!top.svg && top.view() == "annotation-xml") return next == "svg";
        if (!is_integration_point(top)) return false;
        return top.svg || (next != "mglyph" && next != "malignmark");
    }

    void pop_to_integration_point() {
        while (!foreign_.empty() && !is_integration_point(foreign_.back())) foreign_.pop_back();
    }

    void push_foreign(std::string_view name, bool svg) {
        if (foreign_.size() >= kMaxForeignDepth || name.size() > sizeof(Foreign::name)) return;
        Foreign f;
        std::memcpy(f.name, name.data(), name.size());
        f.length = static_cast<uint8_t>(name.size());
        f.svg = svg;
        foreign_.push_back(f);
    }

    std::vector<Foreign> foreign_;
};

}  // namespace frontier::html::detail
