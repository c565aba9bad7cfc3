// The WHATWG tokenizer states for link extraction (lib/web/html/tokenizer.hpp).
//
// Each construct is one function that follows the standard's states for it
// (section numbers of the HTML Living Standard in the comments) and leaves
// `p_` after it. Where a state only decides what text a token holds and not
// where the token ends (the comment less-than sign states, character
// references in text), it is folded into a scan for the next character that
// can end the construct (memchr). Differential tests against html5lib's
// tokenizer: tests/tools/html_diff.py (tests/e2e/test_html_differential.sh).

#include "web/html/tokenizer.hpp"
#include "web/html/utf8.hpp"

#include <algorithm>
#include <cstring>

namespace frontier::html {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alnum(char c) { return is_alpha(c) || is_digit(c); }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }

struct Entity {
    std::string_view name;  // with its ';' when it has one
    std::string_view value;
};

constexpr Entity kEntities[] = {
#include "web/html/entities.inc"
};

// Longest name of a reference without ';' (the legacy ones: "middot").
constexpr size_t kMaxLegacyName = [] {
    size_t m = 0;
    for (const Entity& e : kEntities)
        if (e.name.back() != ';') m = std::max(m, e.name.size());
    return m;
}();

// Longest name with its ';' ("CounterClockwiseContourIntegral;").
constexpr size_t kMaxName = [] {
    size_t m = 0;
    for (const Entity& e : kEntities) m = std::max(m, e.name.size());
    return m;
}();

const Entity* find_entity(std::string_view name) {
    const Entity* end = kEntities + std::size(kEntities);
    const Entity* it =
        std::lower_bound(kEntities, end, name, [](const Entity& e, std::string_view n) { return e.name < n; });
    return it != end && it->name == name ? it : nullptr;
}

// 13.2.5.80 numeric character reference end state: the replacements.
uint32_t numeric_reference(uint32_t v, bool overflow) {
    // 0x80-0x9F as windows-1252 (0 where the code point stays).
    static const uint16_t kC1[32] = {0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
                                     0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0,      0x017D, 0,
                                     0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                                     0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};
    if (overflow || v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0xFFFD;
    if (v >= 0x80 && v <= 0x9F && kC1[v - 0x80] != 0) return kC1[v - 0x80];
    return v;
}

// Element names the tokenizer treats specially (13.2.6.4.7, 13.2.6.5).
enum class Raw { kNone, kScript, kRawtext, kRcdata, kPlaintext };

Raw raw_kind(std::string_view n) {
    if (n == "script") return Raw::kScript;
    if (n == "style" || n == "xmp" || n == "iframe" || n == "noembed" || n == "noframes") return Raw::kRawtext;
    if (n == "title" || n == "textarea") return Raw::kRcdata;
    if (n == "plaintext") return Raw::kPlaintext;
    return Raw::kNone;  // noscript: the scripting flag is off (a crawler runs no scripts)
}

// 13.2.6.5: start tags that end foreign content (font only with color,
// face or size).
bool breaks_out(std::string_view n) {
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

constexpr size_t kMaxForeignDepth = 256;

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
                case Raw::kScript: script_data(); break;
                case Raw::kRawtext:
                case Raw::kRcdata: rawtext(); break;
                case Raw::kPlaintext: return;
            }
            raw_ = Raw::kNone;
        }
    }

private:
    bool eof() const { return p_ >= end_; }

    // 13.2.5.6 tag open state, after '<'.
    void tag_open() {
        if (eof()) return;
        char c = *p_;
        if (c == '!') {
            ++p_;
            markup_declaration_open();
        } else if (c == '/') {
            ++p_;
            // 13.2.5.7 end tag open state
            if (eof()) return;
            if (is_alpha(*p_)) {
                tag(true);
            } else if (*p_ == '>') {
                ++p_;
            } else {
                bogus_comment();
            }
        } else if (is_alpha(c)) {
            tag(false);
        } else if (c == '?') {
            bogus_comment();
        }
        // anything else: '<' was text; the data state goes on from here.
    }

    // 13.2.5.41 bogus comment state: to the next '>'.
    void bogus_comment() {
        const char* gt = static_cast<const char*>(std::memchr(p_, '>', end_ - p_));
        p_ = gt ? gt + 1 : end_;
    }

    bool next_is(std::string_view s, bool ignore_case) const {
        if (static_cast<size_t>(end_ - p_) < s.size()) return false;
        for (size_t i = 0; i < s.size(); ++i)
            if ((ignore_case ? lower(p_[i]) : p_[i]) != s[i]) return false;
        return true;
    }

    // 13.2.5.42 markup declaration open state, after "<!".
    void markup_declaration_open() {
        if (next_is("--", false)) {
            p_ += 2;
            comment();
        } else if (next_is("doctype", true)) {
            // 13.2.5.53-68: every DOCTYPE state ends the token at '>', in
            // quoted identifiers too (abrupt-doctype-*-identifier).
            p_ += 7;
            bogus_comment();
        } else if (next_is("[CDATA[", false) && !foreign_.empty()) {
            // 13.2.5.69 CDATA section state, in foreign content only.
            p_ += 7;
            for (;;) {
                const char* b = static_cast<const char*>(std::memchr(p_, ']', end_ - p_));
                if (b == nullptr || end_ - b < 3) {
                    p_ = end_;
                    return;
                }
                if (b[1] == ']' && b[2] == '>') {
                    p_ = b + 3;
                    return;
                }
                p_ = b + 1;
            }
        } else {
            bogus_comment();
        }
    }

    // 13.2.5.43-52 comment states, after "<!--". Only the comment end
    // states decide where it ends ("-->", "--!>", and "<!-->", "<!--->"
    // at its start); the less-than-sign states lead into them the same way.
    void comment() {
        if (eof()) return;
        if (*p_ == '>') {  // comment start state: abrupt closing
            ++p_;
            return;
        }
        if (*p_ == '-') {  // comment start dash state
            ++p_;
            if (eof()) return;
            if (*p_ == '>') {
                ++p_;
                return;
            }
            if (*p_ == '-') {
                ++p_;
                if (comment_end()) return;
            }
        }
        for (;;) {  // comment state
            const char* dash = static_cast<const char*>(std::memchr(p_, '-', end_ - p_));
            if (dash == nullptr) {
                p_ = end_;
                return;
            }
            p_ = dash + 1;
            // comment end dash state
            if (eof()) return;
            if (*p_ != '-') continue;
            ++p_;
            if (comment_end()) return;
        }
    }

    // Comment end state (after "--"); true when the comment ended (or EOF).
    bool comment_end() {
        for (;;) {
            if (eof()) return true;
            char c = *p_;
            if (c == '>') {
                ++p_;
                return true;
            }
            if (c == '-') {
                ++p_;
                continue;
            }
            if (c == '!') {  // comment end bang state
                ++p_;
                if (eof()) return true;
                if (*p_ == '>') {
                    ++p_;
                    return true;
                }
                if (*p_ == '-') {  // back to comment end dash
                    ++p_;
                    if (eof()) return true;
                    if (*p_ == '-') {
                        ++p_;
                        continue;
                    }
                }
                return false;
            }
            return false;  // reconsume in the comment state
        }
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
        if (c == '>') return emit(end_tag);
        if (c == '/') goto self_closing;
    before_attribute_name:  // 13.2.5.32
        while (!eof() && is_space(*p_)) ++p_;
        if (eof()) return;
        if (*p_ == '/' || *p_ == '>') goto after_attribute_name;
        begin_attribute();
        if (*p_ == '=') {  // unexpected-equals-sign-before-attribute-name
            name_byte('=');
            ++p_;
        }
        // 13.2.5.33 attribute name state
        while (!eof()) {
            c = *p_;
            if (is_space(c) || c == '/' || c == '>') break;
            if (c == '=') {
                ++p_;
                end_attribute_name();
                goto before_attribute_value;
            }
            name_byte(lower(c));
            ++p_;
        }
        end_attribute_name();
    after_attribute_name:  // 13.2.5.34
        while (!eof() && is_space(*p_)) ++p_;
        if (eof()) return;
        c = *p_;
        if (c == '/') {
            ++p_;
            goto self_closing;
        }
        if (c == '=') {
            ++p_;
            goto before_attribute_value;
        }
        if (c == '>') {
            ++p_;
            return emit(end_tag);
        }
        goto before_attribute_name;  // a new attribute starts here
    before_attribute_value:  // 13.2.5.35
        while (!eof() && is_space(*p_)) ++p_;
        if (eof()) return;
        c = *p_;
        if (c == '"' || c == '\'') {
            // 13.2.5.36-37 attribute value (quoted) states
            ++p_;
            const char* close = static_cast<const char*>(std::memchr(p_, c, end_ - p_));
            if (close == nullptr) return p_ = end_, void();
            if (keep_) value(close);
            p_ = close + 1;
            // 13.2.5.39 after attribute value (quoted) state
            if (eof()) return;
            c = *p_;
            if (is_space(c)) {
                ++p_;
                goto before_attribute_name;
            }
            if (c == '/') {
                ++p_;
                goto self_closing;
            }
            if (c == '>') {
                ++p_;
                return emit(end_tag);
            }
            goto before_attribute_name;  // missing-whitespace-between-attributes
        }
        if (c == '>') {  // missing-attribute-value
            ++p_;
            return emit(end_tag);
        }
        {
            // 13.2.5.38 attribute value (unquoted) state
            const char* e = p_;
            while (e < end_ && !is_space(*e) && *e != '>') ++e;
            if (e == end_) return p_ = end_, void();
            if (keep_) value(e);
            p_ = e;
            if (*p_ == '>') {
                ++p_;
                return emit(end_tag);
            }
            ++p_;
            goto before_attribute_name;
        }
    self_closing:  // 13.2.5.40 self-closing start tag state
        if (eof()) return;
        if (*p_ == '>') {
            ++p_;
            self_closing_ = true;
            return emit(end_tag);
        }
        goto before_attribute_name;
    }

    // Attribute bookkeeping for the tags the sink wants; for the others only
    // font's color/face/size matter (foreign content).
    void begin_attribute() {
        attr_start_ = arena_.size();
        keep_ = false;
        naming_ = collect_ || (!foreign_.empty() && name_ == "font");
    }

    void name_byte(char c) {
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
    // decoded (13.2.5.72-80 with an attribute as the return state). A
    // reference never reaches `stop` (a quote, a space or '>').
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
            character_reference(stop);
        }
        s.value_length = static_cast<uint32_t>(arena_.size() - s.value);
    }

    // 13.2.5.72 character reference state, after '&'.
    void character_reference(const char* stop) {
        if (p_ >= stop) return arena_.push_back('&');
        if (*p_ == '#') {
            // 13.2.5.75-80 numeric character reference states
            const char* q = p_ + 1;
            bool hex = q < stop && (*q == 'x' || *q == 'X');
            if (hex) ++q;
            const char* digits = q;
            uint32_t v = 0;
            bool overflow = false;
            while (q < stop && (hex ? is_hex(*q) : is_digit(*q))) {
                uint32_t d = is_digit(*q) ? *q - '0' : (lower(*q) - 'a' + 10);
                v = v * (hex ? 16 : 10) + d;
                if (v > 0x10FFFF) overflow = true, v = 0x110000;
                ++q;
            }
            if (q == digits) return arena_.push_back('&');  // absence-of-digits: "&#" stays text
            p_ = q;
            if (p_ < stop && *p_ == ';') ++p_;
            append_utf8(arena_, numeric_reference(v, overflow));
            return;
        }
        if (!is_alnum(*p_)) return arena_.push_back('&');
        // 13.2.5.73 named character reference state: the longest name.
        const char* q = p_;
        while (q < stop && is_alnum(*q) && static_cast<size_t>(q - p_) < kMaxName) ++q;
        size_t run = q - p_;
        if (q < stop && *q == ';' && run + 1 <= kMaxName) {
            char buf[64];
            std::memcpy(buf, p_, run);
            buf[run] = ';';
            if (const Entity* e = find_entity(std::string_view(buf, run + 1))) {
                arena_.append(e->value);
                p_ = q + 1;
                return;
            }
        }
        for (size_t k = std::min(run, kMaxLegacyName); k >= 2; --k) {
            const Entity* e = find_entity(std::string_view(p_, k));
            if (e == nullptr) continue;
            // In an attribute, "&amp=" and "&ampx" stay as written.
            if (p_ + k < stop && (p_[k] == '=' || is_alnum(p_[k]))) break;
            arena_.append(e->value);
            p_ += k;
            return;
        }
        arena_.push_back('&');  // no reference: the name stays text
    }

    void emit(bool end_tag) {
        if (end_tag) {
            if (want_end_) sink_.end_tag(name_);
            end_tag_rules();
            return;
        }
        if (collect_) {
            attributes_.clear();
            for (const Span& s : spans_)
                attributes_.push_back(Attribute{std::string_view(arena_.data() + s.name, s.name_length),
                                                std::string_view(arena_.data() + s.value, s.value_length)});
            sink_.start_tag(name_, attributes_, self_closing_);
        }
        start_tag_rules();
    }

    // 13.2.6: the tree-construction rules that decide the tokenizer's state.
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

    void push_foreign(bool svg) {
        if (foreign_.size() >= kMaxForeignDepth || name_.size() > sizeof(Foreign::name)) return;
        Foreign f;
        std::memcpy(f.name, name_.data(), name_.size());
        f.length = static_cast<uint8_t>(name_.size());
        f.svg = svg;
        foreign_.push_back(f);
    }

    void start_tag_rules() {
        if (!foreign_.empty() && !at_html_point(name_)) {
            if (breaks_out(name_) || (name_ == "font" && font_attr_)) {
                pop_to_integration_point();
            } else {
                // In the namespace of the current node, whatever its name
                // (13.2.6.5: "<math><svg>" is a MathML element).
                if (!self_closing_) push_foreign(foreign_.back().svg);
                return;
            }
        }
        if (name_ == "svg" || name_ == "math") {
            if (!self_closing_) push_foreign(name_ == "svg");
            return;
        }
        raw_ = raw_kind(name_);
        if (raw_ != Raw::kNone) raw_name_ = name_;
    }

    void end_tag_rules() {
        if (foreign_.empty()) return;
        if (name_ == "br" || name_ == "p") return pop_to_integration_point();
        for (size_t i = foreign_.size(); i-- > 0;)
            if (foreign_[i].view() == name_) {
                foreign_.resize(i);
                return;
            }
    }

    // Moves `q` past the letters there: whether they spell `word` (ASCII
    // case-insensitively; `word` is lower-case and not empty).
    bool letters_spell(const char*& q, std::string_view word) const {
        size_t i = 0;
        bool same = true;
        while (q < end_ && is_alpha(*q)) {
            if (i >= word.size() || lower(*q) != word[i]) same = false;
            ++i, ++q;
        }
        return same && i == word.size();
    }

    // After "</" in a raw-text state: an appropriate end tag (13.2.5.11-13
    // and the like) is the raw element's name followed by a space, '/' or
    // '>'; it is then tokenized as an end tag. Otherwise `p_` is left after
    // the letters read (they were text) and false returned.
    bool appropriate_end_tag() {
        const char* q = p_;
        bool same = letters_spell(q, raw_name_);
        if (same && q < end_ && (is_space(*q) || *q == '/' || *q == '>')) {
            name_ = raw_name_;
            p_ = q;
            attributes_and_emit(true);
            return true;
        }
        p_ = q;
        return false;
    }

    // 13.2.5.2-3 RCDATA and RAWTEXT (and their end tag states): to the
    // appropriate end tag.
    void rawtext() {
        for (;;) {
            const char* lt = static_cast<const char*>(std::memchr(p_, '<', end_ - p_));
            if (lt == nullptr || end_ - lt < 2) {
                p_ = end_;
                return;
            }
            p_ = lt + 1;
            if (*p_ != '/') continue;
            ++p_;
            if (appropriate_end_tag()) return;
        }
    }

    // Reads letters for the script data double escape states (13.2.5.27,
    // 13.2.5.31): whether they spell "script", followed by a space, '/' or
    // '>', which is consumed.
    bool script_word() {
        const char* q = p_;
        bool same = letters_spell(q, "script");
        p_ = q;
        if (q < end_ && (is_space(*q) || *q == '/' || *q == '>')) {
            ++p_;
            return same;
        }
        return false;
    }

    // Advances to the next '-' or '<' (consumed); 0 at EOF.
    char next_dash_or_lt() {
        while (p_ < end_) {
            char c = *p_++;
            if (c == '-' || c == '<') return c;
        }
        return 0;
    }

    // 13.2.5.4 and 13.2.5.15-31: script data and its escaped and double
    // escaped states, to the appropriate end tag.
    void script_data() {
        enum {
            kData, kLessThan, kEscapeStart, kEscapeStartDash,
            kEscaped, kEscapedDash, kEscapedDashDash, kEscapedLessThan,
            kDouble, kDoubleDash, kDoubleDashDash, kDoubleLessThan
        } s = kData;
        for (;;) {
            if (s == kData) {
                const char* lt = static_cast<const char*>(std::memchr(p_, '<', end_ - p_));
                if (lt == nullptr) return p_ = end_, void();
                p_ = lt + 1;
                s = kLessThan;
                continue;
            }
            if (s == kEscaped || s == kDouble) {
                char c = next_dash_or_lt();
                if (c == 0) return;
                s = s == kEscaped ? (c == '-' ? kEscapedDash : kEscapedLessThan)
                                  : (c == '-' ? kDoubleDash : kDoubleLessThan);
                continue;
            }
            if (eof()) return;
            char c = *p_;
            switch (s) {
                case kLessThan:
                    if (c == '/') {
                        ++p_;
                        if (appropriate_end_tag()) return;
                        s = kData;
                    } else if (c == '!') {
                        ++p_;
                        s = kEscapeStart;
                    } else {
                        s = kData;
                    }
                    break;
                case kEscapeStart:
                case kEscapeStartDash:
                    if (c == '-') {
                        ++p_;
                        s = s == kEscapeStart ? kEscapeStartDash : kEscapedDashDash;
                    } else {
                        s = kData;
                    }
                    break;
                case kEscapedDash:
                case kEscapedDashDash:
                case kDoubleDash:
                case kDoubleDashDash: {
                    ++p_;
                    bool escaped = s == kEscapedDash || s == kEscapedDashDash;
                    bool dash_dash = s == kEscapedDashDash || s == kDoubleDashDash;
                    if (c == '-')
                        s = escaped ? kEscapedDashDash : kDoubleDashDash;
                    else if (c == '<')
                        s = escaped ? kEscapedLessThan : kDoubleLessThan;
                    else if (c == '>' && dash_dash)
                        s = kData;
                    else
                        s = escaped ? kEscaped : kDouble;
                    break;
                }
                case kEscapedLessThan:
                    if (c == '/') {
                        ++p_;
                        if (appropriate_end_tag()) return;
                        s = kEscaped;
                    } else if (is_alpha(c)) {
                        s = script_word() ? kDouble : kEscaped;  // double escape start state
                    } else {
                        s = kEscaped;
                    }
                    break;
                case kDoubleLessThan:
                    if (c == '/') {
                        ++p_;
                        s = script_word() ? kEscaped : kDouble;  // double escape end state
                    } else {
                        s = kDouble;
                    }
                    break;
                default: return;
            }
        }
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
    std::vector<Foreign> foreign_;
    Raw raw_ = Raw::kNone;
    std::string raw_name_;
};

}  // namespace

void tokenize(std::string_view doc, TagSink& sink) {
    if (doc.empty()) return;
    Tokenizer(doc, sink).run();
}

}  // namespace frontier::html
