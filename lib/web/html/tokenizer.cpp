// The WHATWG tokenizer states for link extraction (lib/web/html/tokenizer.hpp).
//
// Each construct is one function that follows the standard's states for it
// (section numbers of the HTML Living Standard in the comments) and leaves
// `p_` after it. Where a state only decides what text a token holds and not
// where the token ends (the comment less-than sign states, character
// references in text), it is folded into a scan for the next character that
// can end the construct (memchr). Differential tests against html5lib's
// tokenizer: tests/tools/html_diff.py (tests/e2e/test_html_differential.sh).
//
// This file holds the tag and attribute states; the private headers beside
// it hold the rest, inline so that one translation unit keeps the hot loop:
// markup.hpp (comments, DOCTYPEs, CDATA), char_ref.hpp (character references
// in attribute values), raw_text.hpp (where script, RAWTEXT and RCDATA
// content ends) and tree_rules.hpp (the tree-construction rules that switch
// the tokenizer's state, foreign content).

#include "web/html/tokenizer.hpp"
#include "web/html/char_ref.hpp"
#include "web/html/chars.hpp"
#include "web/html/markup.hpp"
#include "web/html/raw_text.hpp"
#include "web/html/tree_rules.hpp"

#include <cstring>

namespace frontier::html {

namespace {

using namespace detail;

class Tokenizer {
public:
    Tokenizer(std::string_view doc, TagSink& sink) : p_(doc.data()), end_(doc.data() + doc.size()), sink_(sink) {
        want_end_ = sink_.end_tags();
    }

    void run() {
        while (p_ < end_) {
            // 13.2.5.1 data state: text is skipped; only '<' matters.
            const char* lt = static_cast<const char*>(std::memchr(p_, '<', end_ - p_));
            if (lt == nullptr) return;
            p_ = lt + 1;
            tag_open();
            switch (raw_) {
                case Raw::kNone: break;
                case Raw::kScript: raw_end(find_script_end(p_, end_, raw_name_)); break;
                case Raw::kRawtext:
                case Raw::kRcdata: raw_end(find_rawtext_end(p_, end_, raw_name_)); break;
                case Raw::kPlaintext: return;
            }
            raw_ = Raw::kNone;
        }
    }

private:
    // What follows an attribute state. The attribute states are forced
    // inline into attributes_and_emit: as separate calls they cost link
    // extraction measurably more instructions.
    enum class Next : uint8_t { kBeforeName, kValue, kSelfClosing, kEmit, kEof };

    bool eof() const { return p_ >= end_; }

    // 13.2.5.6 tag open state, after '<'.
    void tag_open() {
        if (eof()) return;
        char c = *p_;
        if (c == '!') {
            ++p_;
            skip_markup_declaration(p_, end_, rules_.in_foreign());
        } else if (c == '/') {
            ++p_;
            // 13.2.5.7 end tag open state
            if (eof()) return;
            if (is_alpha(*p_)) {
                tag(true);
            } else if (*p_ == '>') {
                ++p_;
            } else {
                skip_bogus_comment(p_, end_);
            }
        } else if (is_alpha(c)) {
            tag(false);
        } else if (c == '?') {
            skip_bogus_comment(p_, end_);
        }
        // anything else: '<' was text; the data state goes on from here.
    }

    // The end of raw-text content: its end tag is tokenized from just after
    // its name (`found`), or the document ended.
    void raw_end(bool found) {
        if (!found) {
            p_ = end_;
            return;
        }
        name_ = raw_name_;
        attributes_and_emit(true);
    }

    // 13.2.5.8 tag name state onwards, at the first letter of the name.
    void tag(bool end_tag) {
        name_.clear();
        while (!eof()) {
            char c = *p_;
            if (is_space(c) || c == '/' || c == '>') break;
            if (name_.size() < kMaxTagName) name_.push_back(lower(c));
            ++p_;
        }
        if (eof()) return;
        attributes_and_emit(end_tag);
    }

    // From the end of a tag name (13.2.5.8's exits) to the tag's '>'
    // (13.2.5.32-40), then the tag is emitted. EOF inside a tag: no token.
    void attributes_and_emit(bool end_tag) {
        collect_ = !end_tag && sink_.wants_start(name_);
        arena_.clear();
        spans_.clear();
        font_attr_ = false;
        self_closing_ = false;
        char c = *p_++;
        Next next = c == '>' ? Next::kEmit : c == '/' ? Next::kSelfClosing : Next::kBeforeName;
        for (;;) {
            switch (next) {
                case Next::kBeforeName: next = attribute_name(); break;
                case Next::kValue: next = attribute_value(); break;
                case Next::kSelfClosing: next = self_closing_start_tag(); break;
                case Next::kEmit: return emit(end_tag);
                case Next::kEof: return;
            }
        }
    }

    [[gnu::always_inline]] void skip_spaces() {
        while (!eof() && is_space(*p_)) ++p_;
    }

    // 13.2.5.32 before attribute name state and 13.2.5.33 attribute name
    // state.
    [[gnu::always_inline]] Next attribute_name() {
        skip_spaces();
        if (eof()) return Next::kEof;
        if (*p_ == '/' || *p_ == '>') return after_attribute_name();
        begin_attribute();
        if (*p_ == '=') {  // unexpected-equals-sign-before-attribute-name
            name_byte('=');
            ++p_;
        }
        while (!eof()) {
            char c = *p_;
            if (is_space(c) || c == '/' || c == '>') break;
            if (c == '=') {
                ++p_;
                end_attribute_name();
                return Next::kValue;
            }
            name_byte(lower(c));
            ++p_;
        }
        end_attribute_name();
        return after_attribute_name();
    }

    // 13.2.5.34 after attribute name state.
    [[gnu::always_inline]] Next after_attribute_name() {
        skip_spaces();
        if (eof()) return Next::kEof;
        char c = *p_;
        if (c == '/') return ++p_, Next::kSelfClosing;
        if (c == '=') return ++p_, Next::kValue;
        if (c == '>') return ++p_, Next::kEmit;
        return Next::kBeforeName;  // a new attribute starts here
    }

    // 13.2.5.35 before attribute value state.
    [[gnu::always_inline]] Next attribute_value() {
        skip_spaces();
        if (eof()) return Next::kEof;
        char c = *p_;
        if (c == '"' || c == '\'') return quoted_value(c);
        if (c == '>') return ++p_, Next::kEmit;  // missing-attribute-value
        return unquoted_value();
    }

    // 13.2.5.36-37 attribute value (quoted) states, at the opening quote,
    // and 13.2.5.39 after attribute value (quoted) state.
    [[gnu::always_inline]] Next quoted_value(char quote) {
        ++p_;
        const char* close = static_cast<const char*>(std::memchr(p_, quote, end_ - p_));
        if (close == nullptr) return p_ = end_, Next::kEof;
        if (keep_) value(close);
        p_ = close + 1;
        if (eof()) return Next::kEof;
        char c = *p_;
        if (is_space(c)) return ++p_, Next::kBeforeName;
        if (c == '/') return ++p_, Next::kSelfClosing;
        if (c == '>') return ++p_, Next::kEmit;
        return Next::kBeforeName;  // missing-whitespace-between-attributes
    }

    // 13.2.5.38 attribute value (unquoted) state.
    [[gnu::always_inline]] Next unquoted_value() {
        const char* e = p_;
        while (e < end_ && !is_space(*e) && *e != '>') ++e;
        if (e == end_) return p_ = end_, Next::kEof;
        if (keep_) value(e);
        p_ = e;
        if (*p_ == '>') return ++p_, Next::kEmit;
        return ++p_, Next::kBeforeName;
    }

    // 13.2.5.40 self-closing start tag state.
    [[gnu::always_inline]] Next self_closing_start_tag() {
        if (eof()) return Next::kEof;
        if (*p_ != '>') return Next::kBeforeName;
        ++p_;
        self_closing_ = true;
        return Next::kEmit;
    }

    // Attribute bookkeeping for the tags the sink wants; for the others only
    // font's color/face/size matter (foreign content).
    void begin_attribute() {
        attr_start_ = arena_.size();
        keep_ = false;
        naming_ = collect_ || (rules_.in_foreign() && name_ == "font");
    }

    [[gnu::always_inline]] void name_byte(char c) {
        if (naming_) arena_.push_back(c);
    }

    // Leaving the attribute name state: a repeated name is dropped (the
    // first wins); the sink says which names it keeps.
    void end_attribute_name() {
        if (!naming_) return;
        std::string_view name(arena_.data() + attr_start_, arena_.size() - attr_start_);
        if (name == "color" || name == "face" || name == "size") font_attr_ = true;
        bool keep = collect_ && spans_.size() < kMaxKeptAttributes;
        if (keep)
            for (const Span& s : spans_)
                if (std::string_view(arena_.data() + s.name, s.name_length) == name) {
                    keep = false;
                    break;
                }
        if (keep) keep = sink_.wants_attribute(name_, name);
        if (!keep) {
            arena_.resize(attr_start_);
            return;
        }
        keep_ = true;
        spans_.push_back(Span{static_cast<uint32_t>(attr_start_), static_cast<uint32_t>(name.size()),
                              static_cast<uint32_t>(arena_.size()), 0});
    }

    // The value [p_, stop) of a kept attribute, character references
    // decoded (char_ref.hpp). A reference never reaches `stop` (a quote, a
    // space or '>').
    void value(const char* stop) {
        Span& s = spans_.back();
        while (p_ < stop) {
            const char* amp = static_cast<const char*>(std::memchr(p_, '&', stop - p_));
            if (amp == nullptr) {
                arena_.append(p_, stop);
                break;
            }
            arena_.append(p_, amp);
            p_ = amp + 1;
            character_reference(p_, stop, arena_);
        }
        s.value_length = static_cast<uint32_t>(arena_.size() - s.value);
    }

    void emit(bool end_tag) {
        if (end_tag) {
            if (want_end_) sink_.end_tag(name_);
            rules_.end_tag(name_);
            return;
        }
        if (collect_) {
            attributes_.clear();
            for (const Span& s : spans_)
                attributes_.push_back(Attribute{std::string_view(arena_.data() + s.name, s.name_length),
                                                std::string_view(arena_.data() + s.value, s.value_length)});
            sink_.start_tag(name_, attributes_, self_closing_);
        }
        raw_ = rules_.start_tag(name_, self_closing_, font_attr_);
        if (raw_ != Raw::kNone) raw_name_ = name_;
    }

    struct Span {
        uint32_t name, name_length, value, value_length;
    };
    static constexpr size_t kMaxKeptAttributes = 256;

    const char* p_;
    const char* end_;
    TagSink& sink_;
    bool want_end_ = false;
    std::string name_;
    bool collect_ = false, naming_ = false, keep_ = false, font_attr_ = false, self_closing_ = false;
    size_t attr_start_ = 0;
    std::string arena_;
    std::vector<Span> spans_;
    std::vector<Attribute> attributes_;
    TreeRules rules_;
    Raw raw_ = Raw::kNone;
    std::string raw_name_;
};

}  // namespace

void tokenize(std::string_view doc, TagSink& sink) {
    if (doc.empty()) return;
    Tokenizer(doc, sink).run();
}

}  // namespace frontier::html
