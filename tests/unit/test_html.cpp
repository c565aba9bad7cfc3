// The WHATWG-state tokenizer (lib/web/html/tokenizer.cpp) and the encoding
// rules (lib/web/html/encoding.cpp), through extract_html_links and directly.
// The differential test against html5lib is tests/e2e/test_html_differential.sh.

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "web/html/encoding.hpp"
#include "web/html/tokenizer.hpp"
#include "web/links.hpp"

using frontier::extract_html_links;
namespace html = frontier::html;

namespace {

const char* const kPage = "http://example.com/dir/page.html";

// The paths of the links found, in order ("/x" for http://example.com/x).
std::vector<std::string> paths(std::string_view doc) {
    std::vector<std::string> out;
    for (const auto& l : extract_html_links(doc, kPage)) {
        std::string u = l.url;
        out.push_back(u.rfind("http://example.com", 0) == 0 ? u.substr(18) : u);
    }
    return out;
}

using V = std::vector<std::string>;

// Every start tag as "name attr=value attr=value", and "/name" for end tags.
class Collect : public html::TagSink {
public:
    std::vector<std::string> tokens;
    bool wants_start(std::string_view) override { return true; }
    bool wants_attribute(std::string_view, std::string_view) override { return true; }
    void start_tag(std::string_view name, const std::vector<html::Attribute>& attrs, bool self_closing) override {
        std::string t(name);
        for (const auto& a : attrs) t += " " + std::string(a.name) + "=" + std::string(a.value);
        if (self_closing) t += " /";
        tokens.push_back(t);
    }
    bool end_tags() override { return true; }
    void end_tag(std::string_view name) override { tokens.push_back("/" + std::string(name)); }
};

V tokens(std::string_view doc) {
    Collect c;
    html::tokenize(doc, c);
    return c.tokens;
}

}  // namespace

TEST_CASE("tags and attributes in the tokenizer's states", "[html]") {
    CHECK(tokens("<A HREF=x Title='t' data-x=\"q\">") == V{"a href=x title=t data-x=q"});
    CHECK(tokens("<a href=/z>") == V{"a href=/z"});                       // unquoted, starting with '/'
    CHECK(tokens("<a href=/1 HREF=/2>") == V{"a href=/1"});               // the first of a repeated name wins
    CHECK(tokens("<a =x href>") == V{"a =x= href="});                      // '=' before a name starts one
    CHECK(tokens("<a href=\"x\"title=y>") == V{"a href=x title=y"});       // no space between attributes
    CHECK(tokens("<br/><img src=a />") == V{"br /", "img src=a /"});
    CHECK(tokens("<a href=x/>") == V{"a href=x/"});                        // '/' belongs to an unquoted value
    CHECK(tokens("<a b<c=\"d\" e\"f=g>") == V{"a b<c=d e\"f=g"});
    CHECK(tokens("</p foo=\"a>b\"><i>") == V{"/p", "i"});                  // end tag attributes are read, not kept
    CHECK(tokens("<a href=x").empty());                                     // EOF in a tag: no token
    CHECK(tokens("<a href='x").empty());
    CHECK(tokens("< a><1><a>").size() == 1);                                // '<' not followed by a letter is text
    CHECK(tokens("</>x</ 1><i>") == V{"i"});                                // bogus comment to the next '>'
}

TEST_CASE("character references in attribute values", "[html]") {
    auto value = [](std::string_view v) {
        auto t = tokens("<a href=\"" + std::string(v) + "\">");
        REQUIRE(t.size() == 1);
        return t[0].substr(7);
    };
    CHECK(value("a&amp;b") == "a&b");
    CHECK(value("a&ampb") == "a&ampb");         // legacy name followed by a letter: as written
    CHECK(value("a&amp=b") == "a&amp=b");       // ... or by '='
    CHECK(value("a&amp b") == "a& b");          // legacy name without ';': decoded
    CHECK(value("&lt&gt;&quot;") == "<>\"");
    CHECK(value("&notin;&notit;") == "\xE2\x88\x89&notit;");  // "&not" then a letter: as written
    CHECK(value("&not;it &not it") == "\xC2\xACit \xC2\xAC it");
    CHECK(value("&CounterClockwiseContourIntegral;") == "\xE2\x88\xB3");
    CHECK(value("&nosuch;&") == "&nosuch;&");
    CHECK(value("&#65;&#x42;&#X43&#100") == "ABCd");
    CHECK(value("&#0;&#x110000;&#xD800;") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
    CHECK(value("&#128;&#x9F;") == "\xE2\x82\xAC\xC5\xB8");  // windows-1252 remapping
    CHECK(value("&#;&#x;&#xZ") == "&#;&#x;&#xZ");
    CHECK(value("&#99999999999999999999;") == "\xEF\xBF\xBD");
    // Unquoted, and in a single-quoted value.
    CHECK(tokens("<a href=x&amp;y>") == V{"a href=x&y"});
    CHECK(tokens("<a href='&quot;'>") == V{"a href=\""});
}

TEST_CASE("comments, DOCTYPE and CDATA", "[html]") {
    CHECK(paths("<!--> <a href=/1>") == V{"/1"});
    CHECK(paths("<!---> <a href=/2>") == V{"/2"});
    CHECK(paths("<!-- x --!> <a href=/3>") == V{"/3"});
    CHECK(paths("<!-- -- > <a href=/no> ---> <a href=/4>") == V{"/4"});
    CHECK(paths("<!-- <!--> <a href=/5>") == V{"/5"});  // "<!--" inside supplies the "--" of the end
    CHECK(paths("<!-- never closed <a href=/no>").empty());
    CHECK(paths("<!DOCTYPE html PUBLIC \"a>b\"><a href=/6>") == V{"/6"});  // '>' in an identifier ends it
    CHECK(paths("<!x <a href=/no>y> <a href=/7>") == V{"/7"});
    CHECK(paths("<?php <a href=/no> ?><a href=/8>") == V{"/8"});
    // CDATA only in foreign content; elsewhere a bogus comment to the next '>'.
    CHECK(paths("<![CDATA[ <a href=/no> ]]><a href=/9>") == V{"/9"});
    CHECK(paths("<svg><![CDATA[ <a href=/no> > ]]><a href=/10></svg>") == V{"/10"});
}

TEST_CASE("raw text elements and script escapes", "[html]") {
    CHECK(paths("<style><a href=/no></style ><a href=/1>") == V{"/1"});
    CHECK(paths("<title><a href=/no></TITLE><a href=/2>") == V{"/2"});
    CHECK(paths("<textarea><a href=/no></textareax></textarea/><a href=/3>") == V{"/3"});
    CHECK(paths("<xmp><a href=/no></xmp><iframe src=/4><a href=/no></iframe><a href=/5>") == V{"/4", "/5"});
    CHECK(paths("<noembed><a href=/no></noembed><noframes><a href=/no></noframes><a href=/6>") == V{"/6"});
    CHECK(paths("<noscript><a href=/7></noscript>") == V{"/7"});  // scripting off: markup
    CHECK(paths("<plaintext><a href=/no></plaintext><a href=/no>").empty());
    CHECK(paths("<script>a<b</scriptx></script><a href=/8>") == V{"/8"});
    CHECK(paths("<script type=x>if (a</b) {}</script foo='>'><a href=/9>") == V{"/9"});
    // Escaped: "<!--" then "<script>" (double escaped): the first "</script>"
    // only ends the double escape; the second ends the script.
    CHECK(paths("<script><!--<script></script><a href=/no></script><a href=/10>") == V{"/10"});
    CHECK(paths("<script><!-- --></script><a href=/11>") == V{"/11"});
    CHECK(paths("<script><!--<script>--></script><a href=/12>") == V{"/12"});  // "-->" leaves both escapes
    CHECK(paths("<script><!--<script -->").empty());
    CHECK(paths("<script>never closed <a href=/no>").empty());
}

TEST_CASE("foreign content: svg and math", "[html]") {
    CHECK(paths("<svg><style><a href=/1></style></svg>") == V{"/1"});  // not raw text in svg
    CHECK(paths("<svg><p><style><a href=/no></style><a href=/2>") == V{"/2"});  // p breaks out
    CHECK(paths("<svg><font color=red><style><a href=/no></style><a href=/3>") == V{"/3"});
    CHECK(paths("<svg><font><style><a href=/4></style></svg>") == V{"/4"});  // font without color: stays
    CHECK(paths("<svg><foreignObject><style><a href=/no></style></foreignObject><a href=/5></svg>") == V{"/5"});
    CHECK(paths("<svg></svg><style><a href=/no></style><a href=/6>") == V{"/6"});
    CHECK(paths("<svg/><style><a href=/no></style><a href=/7>") == V{"/7"});  // self-closing: no foreign content
    CHECK(paths("<math><mi><style><a href=/no></style></mi><a href=/8></math>") == V{"/8"});
}

TEST_CASE("encodings: BOM, meta, UTF-8, windows-1252", "[html]") {
    CHECK(paths("<a href=\"/\x80\">") == V{"/%e2%82%ac"});  // undeclared, not UTF-8: windows-1252
    CHECK(paths("\xEF\xBB\xBF<a href=\"/\xC3\xA9\">") == V{"/%c3%a9"});
    std::string utf16le("\xFF\xFE", 2);
    for (char c : std::string("<a href=\"/x")) utf16le += c, utf16le += '\0';
    utf16le += std::string("\xE9\0", 2);  // U+00E9
    for (char c : std::string("\">")) utf16le += c, utf16le += '\0';
    CHECK(paths(utf16le) == V{"/x%c3%a9"});
    CHECK(paths("<meta charset=\"shift_jis\"><a href=\"/\x83\x65\x83\x58\x83\x67\">") ==
          V{"/%e3%83%86%e3%82%b9%e3%83%88"});
    CHECK(paths("<meta http-equiv=Content-Type content='text/html; charset=koi8-r'><a href=\"/\xC1\">") ==
          V{"/%d0%b0"});
    // A declared utf-8 with invalid bytes: U+FFFD for them.
    CHECK(paths("<meta charset=utf-8><a href=\"/a\xC3(\">") == V{"/a%ef%bf%bd("});
    // A meta past the first 4 KiB does not count; valid UTF-8 is UTF-8.
    CHECK(paths("<a href=\"/\xC3\xA9\">" + std::string(5000, ' ') + "<meta charset=koi8-r>") == V{"/%c3%a9"});
    // An unknown label: the undeclared rules.
    CHECK(paths("<meta charset=no-such-thing><a href=\"/\xC3\xA9\">") == V{"/%c3%a9"});
    std::string storage;
    CHECK(html::to_utf8("plain ascii", storage).data() != storage.data());  // no copy
    CHECK(html::to_utf8(std::string_view("a\0b", 3), storage) == "a\xEF\xBF\xBD" "b");
}

TEST_CASE("links past 50,000 distinct ones are not collected", "[html]") {
    std::string many;
    for (int i = 0; i < 60000; ++i) many += "<a href=/p" + std::to_string(i) + ">";
    bool truncated = false;
    auto links = extract_html_links(many, kPage, &truncated);
    CHECK(links.size() == 50000);
    CHECK(truncated);
    CHECK(links.back().url == "http://example.com/p49999");
    // Repeats do not count: one link 200,000 times, then a second one.
    std::string repeats;
    for (int i = 0; i < 200000; ++i) repeats += "<a href=/same>";
    repeats += "<a href=/other><a href=/same rel=nofollow>";
    links = extract_html_links(repeats, kPage, &truncated);
    REQUIRE(links.size() == 3);
    CHECK(links[1].url == "http://example.com/other");
    CHECK(links[2].nofollow);
    CHECK(!truncated);
}
