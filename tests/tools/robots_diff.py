#!/usr/bin/python3
"""Differential test of lib/web/robots.cpp (through bin/robots-check) against
protego (python3-protego, Scrapy's robots.txt parser) and against the
expectations of google/robotstxt's robots_test.cc.

Usage: robots_diff.py --robots-check PATH [--verbose]

Every case is a robots.txt body (bytes), a user-agent and paths. For every
path the frontier's answer (parsed rules, and the same rules after
serialize()/deserialize(), as frontier-done stores them) is compared with
protego's (Protego.parse(body.decode("utf-8", "ignore")).can_fetch(...), as
Scrapy decodes a body) and, for cases taken from robots_test.cc, with
Google's expected answer.

Differences are keys (case, path, against) -> reviewed verdict in REVIEWED
below. Exit status 1 when a difference is not listed there, when a listed
one no longer occurs (the list must stay exact), or when the stored rules
answer differently from the parsed ones ("X" from robots-check).
"""
import argparse
import subprocess
import sys

from protego import Protego

UA = "FooBot"

# ----------------------------------------------------------------- cases
# (name, body, agent, [(path, google_expectation or None)])
CASES = []


def case(name, body, paths, agent=UA, google=False):
    if isinstance(body, str):
        body = body.encode("utf-8")
    rows = []
    for p in paths:
        if isinstance(p, tuple):
            rows.append(p if google else (p[0], None))
        else:
            rows.append((p, None))
    CASES.append((name, body, agent, rows))


def g(name, body, paths, agent=UA):
    """A case of google/robotstxt robots_test.cc; paths are (path, expected)."""
    case("google:" + name, body, paths, agent, google=True)


T, F = True, False

# --- google/robotstxt robots_test.cc (commit 22b355f), transcribed.
g("SystemTest", "user-agent: FooBot\ndisallow: /\n", [("/", F)])
g("SystemTest-empty", "", [("/", T)])
g("LineSyntax_Line-correct", "user-agent: FooBot\ndisallow: /\n", [("/x/y", F)])
g("LineSyntax_Line-incorrect", "foo: FooBot\nbar: /\n", [("/x/y", T)])
g("LineSyntax_Line-no-colon", "user-agent FooBot\ndisallow /\n", [("/x/y", F)])
GROUPS = ("allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\nallow: /x/\nuser-agent: BarBot\n"
          "disallow: /\nallow: /y/\n\n\nallow: /w/\nuser-agent: BazBot\n\nuser-agent: FooBot\n"
          "allow: /z/\ndisallow: /\n")
g("LineSyntax_Groups-FooBot", GROUPS, [("/x/b", T), ("/z/d", T), ("/y/c", F), ("/foo/bar/", F)])
g("LineSyntax_Groups-BarBot", GROUPS, [("/y/c", T), ("/w/a", T), ("/z/d", F), ("/foo/bar/", F)], "BarBot")
g("LineSyntax_Groups-BazBot", GROUPS, [("/z/d", T), ("/foo/bar/", F)], "BazBot")
g("Groups_OtherRules-sitemap", "User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n",
  [("/", F)], "BarBot")
g("Groups_OtherRules-sitemap-other", "User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n",
  [("/", F)])
g("Groups_OtherRules-unknown", "User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n",
  [("/", F)])
g("Groups_OtherRules-unknown-other", "User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n",
  [("/", F)], "BarBot")
for n, b in (("upper", "USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n"),
             ("lower", "user-agent: FooBot\nallow: /x/\ndisallow: /\n"),
             ("camel", "uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n")):
    g("REPLineNamesCaseInsensitive-" + n, b, [("/x/y", T), ("/a/b", F)])
for n, b in (("upper", "User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n"),
             ("lower", "User-Agent: foo bar\nAllow: /x/\nDisallow: /\n"),
             ("camel", "User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n")):
    g("UserAgentValueCaseInsensitive-%s-Foo" % n, b, [("/x/y", T), ("/a/b", F)], "Foo")
    g("UserAgentValueCaseInsensitive-%s-foo" % n, b, [("/x/y", T), ("/a/b", F)], "foo")
g("AcceptUserAgentUpToFirstSpace", "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n",
  [("/x/y", T)], "Foo")
g("GlobalGroups_Secondary-global-FooBot", "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n", [("/x/y", F)])
g("GlobalGroups_Secondary-global-BarBot", "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n", [("/x/y", T)],
  "BarBot")
g("GlobalGroups_Secondary-only-specific", "user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\n"
  "user-agent: BazBot\ndisallow: /\n", [("/x/y", T)], "QuxBot")
g("AllowDisallow_Value_CaseSensitive-lower", "user-agent: FooBot\ndisallow: /x/\n", [("/x/y", F)])
g("AllowDisallow_Value_CaseSensitive-upper", "user-agent: FooBot\ndisallow: /X/\n", [("/x/y", T)])
g("LongestMatch-1", "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n", [("/x/page.html", F)])
g("LongestMatch-2", "user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", [("/x/page.html", T), ("/x/", F)])
g("LongestMatch-3-empty", "user-agent: FooBot\ndisallow: \nallow: \n", [("/x/page.html", T)])
g("LongestMatch-4-tie", "user-agent: FooBot\ndisallow: /\nallow: /\n", [("/x/page.html", T)])
g("LongestMatch-5", "user-agent: FooBot\ndisallow: /x\nallow: /x/\n", [("/x", F), ("/x/", T)])
g("LongestMatch-6-tie", "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n", [("/x/page.html", T)])
g("LongestMatch-7", "user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", [("/page.html", F), ("/page", T)])
g("LongestMatch-8", "user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", [("/x/page.html", T), ("/x/y.html", F)])
g("LongestMatch-9", "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n", [("/x/page", T), ("/y/page", F)])
g("Encoding-1", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n",
  [("/foo/bar?qux=taz&baz=http://foo.bar?tar&par", T)])
g("Encoding-2", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/\u30c4\n",
  [("/foo/bar/%E3%83%84", T), ("/foo/bar/\u30c4", F)])
g("Encoding-3", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n",
  [("/foo/bar/%E3%83%84", T), ("/foo/bar/\u30c4", F)])
g("Encoding-4", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n",
  [("/foo/bar/baz", F), ("/foo/bar/%62%61%7A", T)])
g("SpecialCharacters-1", "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n",
  [("/foo/bar/quz", F), ("/foo/quz", T), ("/foo//quz", T), ("/foo/bax/quz", T)])
g("SpecialCharacters-2", "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n",
  [("/foo/bar", F), ("/foo/bar/qux", T), ("/foo/bar/", T), ("/foo/bar/baz", T)])
g("SpecialCharacters-3", "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n",
  [("/foo/bar", T), ("/foo/quz", F)])
g("IndexHTMLisDirectory", "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n",
  [("/allowed-slash/", T), ("/allowed-slash/index.htm", F), ("/allowed-slash/index.html", T), ("/anyother-url", F)],
  "foobot")
_MAX_LINE = 2083 * 8
_long = "/x/" + "a" * (_MAX_LINE - 3 - len("disallow: ") + 1 - 3)
g("LineTooLong-1", "user-agent: FooBot\ndisallow: " + _long + "/qux\n", [("/fux", T), (_long + "/fux", F)])
_la = "/x/" + "a" * (_MAX_LINE - 3 - len("allow: ") + 1 - 3)
_lb = "/x/" + "b" * (_MAX_LINE - 3 - len("allow: ") + 1 - 3)
g("LineTooLong-2", "user-agent: FooBot\ndisallow: /\nallow: " + _la + "/qux\nallow: " + _lb + "/qux\n",
  [("/", F), (_la + "/qux", T), (_lb + "/fux", T)])
DOC = [
    ("/fish", [("/bar", F), ("/fish", T), ("/fish.html", T), ("/fish/salmon.html", T), ("/fishheads", T),
               ("/fishheads/yummy.html", T), ("/fish.html?id=anything", T), ("/Fish.asp", F), ("/catfish", F),
               ("/?id=fish", F)]),
    ("/fish*", [("/bar", F), ("/fish", T), ("/fish.html", T), ("/fish/salmon.html", T), ("/fishheads", T),
                ("/fishheads/yummy.html", T), ("/fish.html?id=anything", T), ("/Fish.bar", F), ("/catfish", F),
                ("/?id=fish", F)]),
    ("/fish/", [("/bar", F), ("/fish/", T), ("/fish/salmon", T), ("/fish/?salmon", T), ("/fish/salmon.html", T),
                ("/fish/?id=anything", T), ("/fish", F), ("/fish.html", F), ("/Fish/Salmon.html", F)]),
    ("/*.php", [("/bar", F), ("/filename.php", T), ("/folder/filename.php", T), ("/folder/filename.php?parameters", T),
                ("//folder/any.php.file.html", T), ("/filename.php/", T), ("/index?f=filename.php/", T),
                ("/php/", F), ("/index?php", F), ("/windows.PHP", F)]),
    ("/*.php$", [("/bar", F), ("/filename.php", T), ("/folder/filename.php", T), ("/filename.php?parameters", F),
                 ("/filename.php/", F), ("/filename.php5", F), ("/php/", F), ("/filename?php", F), ("/aaaphpaaa", F),
                 ("//windows.PHP", F)]),
    ("/fish*.php", [("/bar", F), ("/fish.php", T), ("/fishheads/catfish.php?parameters", T), ("/Fish.PHP", F)]),
]
for pat, rows in DOC:
    g("DocumentationChecks-allow-" + pat, "user-agent: FooBot\ndisallow: /\nallow: %s\n" % pat, rows)
g("DocumentationChecks-order-1", "user-agent: FooBot\nallow: /p\ndisallow: /\n", [("/page", T)])
g("DocumentationChecks-order-2", "user-agent: FooBot\nallow: /folder\ndisallow: /folder\n", [("/folder/page", T)])
g("DocumentationChecks-order-3", "user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n", [("/page.htm", F)])
g("DocumentationChecks-order-4", "user-agent: FooBot\nallow: /$\ndisallow: /\n", [("/", T), ("/page.html", F)])
# Line ends (ID_LinesNumbersAreCountedCorrectly) and the BOM (ID_UTF8ByteOrderMarkIsSkipped),
# turned into allow/disallow questions.
for n, b in (("unix", "User-Agent: foo\nAllow: /some/path\nUser-Agent: FooBot\n\n\nDisallow: /\n"),
             ("dos", "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: FooBot\r\n\r\n\r\nDisallow: /\r\n"),
             ("mac", "User-Agent: foo\rAllow: /some/path\rUser-Agent: FooBot\r\r\rDisallow: /\r"),
             ("no-final-newline", "User-Agent: foo\nAllow: /some/path\nUser-Agent: FooBot\n\n\nDisallow: /"),
             ("mixed", "User-Agent: foo\nAllow: /some/path\r\nUser-Agent: FooBot\n\r\n\nDisallow: /")):
    g("LineEnds-" + n, b, [("/x", F), ("/some/path", F)])
    g("LineEnds-%s-foo" % n, b, [("/x", T), ("/some/path", T)], "foo")
g("BOM-full", b"\xef\xbb\xbfUser-Agent: FooBot\nDisallow: /x\n", [("/x", F), ("/y", T)])
case("BOM-partial-2", b"\xef\xbbUser-Agent: FooBot\nDisallow: /x\n", ["/x", "/y"])  # Google skips it too
case("BOM-partial-1", b"\xefUser-Agent: FooBot\nDisallow: /x\n", ["/x", "/y"])
g("BOM-broken", b"\xef\x11\xbfUser-Agent: FooBot\nDisallow: /x\n", [("/x", T)])
g("BOM-middle", b"User-Agent: FooBot\n\xef\xbb\xbfDisallow: /x\n", [("/x", T)])

# --- more edge cases (no Google expectation).
# Google's typo list and its key matching (robots.cc KeyIsDisallow: a key that
# starts with "disallow" or a typo of it) rather than robots_test.cc.
g("typos(robots.cc)", "User-agent: FooBot\nDissallow: /a\nDissalow: /b\nDisalow: /c\nDiasllow: /d\nDisallaw: /e\n"
  "Disallow: /f\nDisalloww: /g\n", [("/a", F), ("/b", F), ("/c", F), ("/d", F), ("/e", F), ("/f", F), ("/g", F),
                                     ("/h", T)])
case("typos-agent", "useragent: FooBot\nDisallow: /a\n\nuser agent: BarBot\nDisallow: /b\n", ["/a", "/b"])
case("no-colon-multiword", "User-agent: *\nDisallow /a b\nDisallow /c\n", ["/a", "/a%20b", "/c"])
case("crlf-mix", "User-agent: *\r\n\rDisallow: /a\r\rDisallow: /b\n\r\nAllow: /b/c", ["/a", "/b", "/b/c"])
case("form-feed-line", "User-agent: *\x0cDisallow: /a\nDisallow: /b\x0bDisallow: /c\n", ["/a", "/b", "/c"])
case("nel-line", "User-agent: *\nDisallow: /a\u0085Disallow: /b\n", ["/a", "/b", "/a\u0085Disallow:%20/b"])
case("agent-version", "User-agent: FooBot/1.0\nDisallow: /a\n", ["/a"])
case("agent-prefix", "User-agent: Foo\nDisallow: /a\n", ["/a"])
case("agent-longer", "User-agent: FooBotX\nDisallow: /a\n", ["/a"])
case("agent-star-token", "User-agent: Foo*\nDisallow: /a\n", ["/a"])
case("agent-most-specific", "User-agent: *\nDisallow: /star\nUser-agent: foobot\nDisallow: /foo\n"
     "User-agent: FOOBOT\nDisallow: /merged\n", ["/star", "/foo", "/merged"])
case("agent-list", "User-agent: a\nUser-agent: FooBot\nUser-agent: b\nDisallow: /a\n", ["/a"])
case("agent-crawl-delay-between", "User-agent: a\nCrawl-delay: 5\nUser-agent: FooBot\nDisallow: /a\n", ["/a"])
case("agent-empty-disallow-ends-group", "User-agent: a\nDisallow:\nUser-agent: FooBot\nDisallow: /a\n"
     "User-agent: *\nDisallow: /\n", ["/a", "/b"])
case("rules-before-agent", "Disallow: /a\nUser-agent: *\nDisallow: /b\n", ["/a", "/b"])
case("star-group-merged", "User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n", ["/a", "/b", "/c"])
case("star-with-text", "User-agent: * # all\nDisallow: /a\n", ["/a"])
case("star-not-alone", "User-agent: *bot\nDisallow: /a\n", ["/a"])
case("tie-allow-wins", "User-agent: *\nDisallow: /a\nAllow: /a\n", ["/a", "/ab"])
case("tie-wildcards", "User-agent: *\nDisallow: /*.b\nAllow: /a.*\n", ["/a.b", "/x.b", "/a.c"])
case("tie-dollar", "User-agent: *\nAllow: /a$\nDisallow: /a*\n", ["/a", "/ab"])
case("longest-raw-length", "User-agent: *\nDisallow: /a%2fb\nAllow: /a/b\n", ["/a/b", "/a%2fb", "/a%2Fb"])
case("star-runs", "User-agent: *\nDisallow: /a**b\nAllow: /a**b*c$\n", ["/ab", "/axb", "/axbyc", "/axbyc?"])
case("star-only", "User-agent: *\nDisallow: *\nAllow: /$\n", ["/", "/a", "/?q"])
case("dollar-mid", "User-agent: *\nDisallow: /a$b\nDisallow: /c$$\n", ["/a", "/a$b", "/a%24b", "/ab", "/c", "/c$"])
case("dollar-only", "User-agent: *\nDisallow: $\nDisallow: /x\n", ["/", "/x", "/y"])
case("no-slash", "User-agent: *\nDisallow: private\nDisallow: *.gif$\n", ["/private", "/privatex", "/a.gif", "/a.gif?x"])
case("query", "User-agent: *\nDisallow: /*?\nAllow: /*?page=\n", ["/a", "/a?", "/a?b=1", "/a?page=2"])
case("query-dollar", "User-agent: *\nDisallow: /a?$\n", ["/a?", "/a?x", "/a"])
case("fragment", "User-agent: *\nDisallow: /a#b\n", ["/a", "/a#c", "/ab"])
case("percent-unreserved", "User-agent: *\nDisallow: /%7Euser\nDisallow: /b%2D\n", ["/~user", "/%7euser", "/b-", "/b%2d"])
case("percent-reserved", "User-agent: *\nDisallow: /a%2Fb\nDisallow: /c%3Fd\n", ["/a/b", "/a%2Fb", "/a%2fb", "/c?d", "/c%3Fd"])
case("percent-case", "User-agent: *\nDisallow: /%e3%83%84\n", ["/%E3%83%84", "/%e3%83%84", "/\u30c4"])
case("percent-stray", "User-agent: *\nDisallow: /100%\nDisallow: /x%zz\n", ["/100%", "/100%25", "/x%zz", "/x%25zz"])
case("percent-star", "User-agent: *\nDisallow: /a%2A\nDisallow: /b*c\n", ["/a*", "/a%2A", "/a", "/bxc", "/b*c", "/b%2Ac"])
case("space-in-path", "User-agent: *\nDisallow: /a b\nDisallow: /c%20d\n", ["/a b", "/a%20b", "/c d", "/c%20d"])
case("utf8-raw", "User-agent: *\nDisallow: /caf\u00e9\n", ["/caf%C3%A9", "/caf\u00e9", "/cafe"])
case("latin1-raw", b"User-agent: *\nDisallow: /caf\xe9\n", ["/caf%E9", "/caf%C3%A9", "/caf"])
case("index-html-allow", "User-agent: *\nDisallow: /\nAllow: /d/index.html\nAllow: /e/index.htm\n",
     ["/d/", "/d/index.html", "/d/index.htm", "/e/", "/e/index.htm"])
case("robots-txt-always", "User-agent: *\nDisallow: /\n", ["/robots.txt", "/robots.txt?x", "/robots.txtx", "/a"])
case("whitespace", "  User-agent :   FooBot  \n\tDisallow\t:\t/a\t\n", ["/a"])
case("comment-only-value", "User-agent: *\nDisallow: # nothing\nDisallow: /b # c\n", ["/", "/b"])
case("colon-in-value", "User-agent: *\nDisallow: /a:b\n", ["/a:b", "/a"])
case("empty-allow", "User-agent: *\nDisallow: /\nAllow:\n", ["/", "/a"])
case("sitemap-between-agents", "User-agent: FooBot\nSitemap: http://x/s.xml\nUser-agent: b\nDisallow: /a\n", ["/a"])
case("host-directive", "User-agent: FooBot\nHost: example.com\nUser-agent: b\nDisallow: /a\n", ["/a"])
case("nul-bytes", b"User-agent: *\nDisallow: /a\x00b\nDisallow: /c\n", ["/a", "/c"])
case("html-instead", "<html><body>User-agent: *<br>Disallow: /</body></html>\n", ["/", "/a"])
_long_rule = "/" + "z" * 20000
case("line-over-16664", "User-agent: *\nDisallow: " + _long_rule + "\nDisallow: /after\n",
     [_long_rule, _long_rule[:16000], "/after"])
case("long-agent-line", "User-agent: " + "x" * 20000 + "\nUser-agent: FooBot\nDisallow: /a\n", ["/a"])
case("many-groups-last-wins", "".join("User-agent: bot%d\nDisallow: /%d\n\n" % (i, i) for i in range(200))
     + "User-agent: FooBot\nDisallow: /last\n", ["/last", "/1"])


# ----------------------------------------------------------------- reviewed
# (case, path, against) -> verdict. `against` is "protego" or "google".
# Each verdict names who is right by RFC 9309 (or that the RFC leaves it open).
REVIEWED = {}


def reviewed(verdict, *keys):
    for k in keys:
        REVIEWED[k] = verdict


P, G = "protego", "google"
# User-agent matching. RFC 9309 2.2.1: the product token is matched
# case-insensitively against the user-agent line's value; the frontier (like
# Google) reads the value's leading [A-Za-z_-] run ("FooBot/1.0" -> FooBot,
# "FOO BAR" -> FOO). protego instead looks for the line's whole lower-cased
# value (with '*' removed) as a substring of the crawler's name.
reviewed("protego wrong (RFC 2.2.1): 'Foo' is not the token FooBot; protego matches substrings",
         ("agent-prefix", "/a", P))
reviewed("protego wrong (RFC 2.2.1): no wildcards in user-agent values; protego drops the '*' and matches 'foo'",
         ("agent-star-token", "/a", P))
reviewed("protego wrong (RFC 2.2.1 / Google): 'FooBot/1.0' names the product token FooBot",
         ("agent-version", "/a", P))
reviewed("protego wrong (RFC 2.2.1: '*' alone is the global group; '*bot' is no token); Google agrees with the frontier",
         ("star-not-alone", "/a", P))
reviewed("protego wrong (Google GoogleOnly_AcceptUserAgentUpToFirstSpace: 'Foo Bar' is the group of Foo)",
         ("google:AcceptUserAgentUpToFirstSpace", "/x/y", P))
for kind in ("upper", "lower", "camel"):
    for agent in ("Foo", "foo"):
        reviewed("protego wrong (Google ID_UserAgentValueCaseInsensitive: 'FOO BAR' is the group of foo)",
                 ("google:UserAgentValueCaseInsensitive-%s-%s" % (kind, agent), "/a/b", P))
# Groups. RFC 2.2.4: records that are not part of the protocol MUST NOT
# interfere with the parsing of the ones that are; Google's
# ID_LineSyntax_Groups_OtherRules: a Sitemap or unknown line between two
# user-agent lines does not end the group. protego ends the group on any
# line that is not a user-agent line.
reviewed("protego wrong (RFC 2.2.4, Google ID_LineSyntax_Groups_OtherRules)",
         ("google:Groups_OtherRules-sitemap", "/", P), ("google:Groups_OtherRules-unknown", "/", P),
         ("sitemap-between-agents", "/a", P), ("host-directive", "/a", P))
# Line ends. RFC 2.2 grammar: EOL = %x0A / %x0D / %x0D.0A. protego splits with
# str.splitlines(), which also breaks at \v, \f and U+0085.
reviewed("protego wrong (RFC 2.2: only CR, LF and CRLF end a line; protego's splitlines() also splits at \\f, \\v)",
         ("form-feed-line", "/a", P), ("form-feed-line", "/b", P), ("form-feed-line", "/c", P))
reviewed("protego wrong (RFC 2.2: U+0085 NEL is no line end)", ("nel-line", "/a", P), ("nel-line", "/b", P))
# Byte order mark.
reviewed("protego wrong (Google ID_UTF8ByteOrderMarkIsSkipped; the RFC says nothing): with Scrapy's "
         "decode('utf-8', 'ignore') the BOM stays as U+FEFF and spoils the first line",
         ("google:BOM-full", "/x", P))
# Syntax leniency.
reviewed("protego wrong (Google ID_LineSyntax_Line accepts 'disallow /', case-insensitively as every key): "
         "protego accepts a colon-less line only when its key is lower-case",
         ("no-colon-multiword", "/c", P))
reviewed("Google-only leniency (robots.cc matches keys by prefix: 'Disalloww' is a disallow); RFC 2.2.2 "
         "names the keys exactly; the frontier (and protego) accept only the key and Google's listed typos",
         ("google:typos(robots.cc)", "/g", G))
# Special paths.
reviewed("protego wrong (RFC 2.2.2: 'The /robots.txt URI is implicitly allowed')",
         ("robots-txt-always", "/robots.txt", P), ("robots-txt-always", "/robots.txt?x", P))
# index.html.
reviewed("Google-only extension (GoogleOnly_IndexHTMLisDirectory; protego copies it): 'Allow: /d/index.html' "
         "also allows /d/. Not in RFC 9309: the frontier allows only what the rule matches",
         ("google:IndexHTMLisDirectory", "/allowed-slash/", P), ("google:IndexHTMLisDirectory", "/allowed-slash/", G),
         ("index-html-allow", "/d/", P))
# Line length.
reviewed("Google-only limit (GoogleOnly_LineTooLong: lines are cut at 16,664 bytes and the cut rule used). "
         "RFC 9309 sets no line length; the frontier reads the whole line (within the 500 KiB it parses)",
         ("google:LineTooLong-1", "/x/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(16656)", G),
         ("google:LineTooLong-2", "/x/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb...(16659)", G))
# Percent-encoding. RFC 2.2.2: octets outside US-ASCII and reserved ones MUST
# be percent-encoded before comparison; its table maps /foo/bar/%62%61%7A to
# the path to match /foo/bar/baz. The frontier normalises rule and path alike
# (%XX of unreserved decoded, other %XX upper-cased, raw octets encoded).
reviewed("Google's test passes an unencoded URL to a library that expects an encoded one; RFC 2.2.2 "
         "compares percent-encoded forms, so raw ツ = %E3%83%84 (the frontier's URLs are encoded anyway)",
         ("google:Encoding-2", "/foo/bar/\u30c4", G), ("google:Encoding-3", "/foo/bar/\u30c4", G))
reviewed("RFC 2.2.2 table (/foo/bar/%62%61%7A matches /foo/bar/baz) against Google's older ID_Encoding "
         "expectation; the frontier follows the RFC",
         ("google:Encoding-4", "/foo/bar/baz", G))
reviewed("open in the RFC (the file MUST be UTF-8; this one is not): the frontier matches the raw octet as %E9; "
         "protego's decode('utf-8', 'ignore') drops it and reads 'Disallow: /caf', a broader rule",
         ("latin1-raw", "/caf", P), ("latin1-raw", "/caf%C3%A9", P))
reviewed("open in the RFC (a stray '%' is no valid escape): the frontier reads it as %25 in rules and paths "
         "alike, so /x%zz and /x%25zz are one path; protego compares them as written",
         ("percent-stray", "/x%25zz", P))
# Empty query.
reviewed("frontier right (RFC 2.2.2 matches the path and query as in the URI): '/a?' has an (empty) query; "
         "protego's urlparse drops the bare '?' (the frontier's canonical URLs drop it too)",
         ("query", "/a?", P), ("star-runs", "/axbyc?", P))
reviewed("frontier right (RFC 2.2.3: only '*' and a final '$' are special, '?' is literal): '/a?$' is the path "
         "'/a?' only; protego parses the pattern as a URL and reads '/a$'",
         ("query-dollar", "/a", P))


# ----------------------------------------------------------------- running
def frontier_answers(checker, cases):
    script = bytearray()
    for name, body, agent, rows in cases:
        script += b"R %d\n" % len(body) + body + b"\n"
        script += b"A " + agent.encode() + b"\n"
        for path, _ in rows:
            script += b"P " + path.encode("utf-8") + b"\n"
    out = subprocess.run([checker], input=bytes(script), capture_output=True, check=True).stdout.decode()
    return out.split()


def protego_answer(body, agent, path):
    text = body.decode("utf-8", "ignore")
    return Protego.parse(text).can_fetch("http://example.com" + path, agent)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--robots-check", required=True)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    answers = iter(frontier_answers(args.robots_check, CASES))
    found = {}
    errors = []
    checks = 0
    for name, body, agent, rows in CASES:
        for path, google in rows:
            a = next(answers)
            if a == "X":
                errors.append(f"{name} {path[:60]!r}: parsed and stored rules disagree")
                continue
            ours = a == "1"
            theirs = protego_answer(body, agent, path)
            checks += 1
            short = path if len(path) <= 80 else path[:40] + "...(%d)" % len(path)
            if ours != theirs:
                found[(name, short, "protego")] = (ours, theirs)
            if google is not None and ours != google:
                found[(name, short, "google")] = (ours, google)
    for key, (ours, theirs) in sorted(found.items()):
        verdict = REVIEWED.get(key)
        line = f"{key[0]} {key[1]!r}: frontier {'allow' if ours else 'disallow'}, {key[2]} {'allow' if theirs else 'disallow'}"
        if verdict is None:
            errors.append("NEW difference: " + line)
        elif args.verbose:
            print(f"reviewed: {line}\n    {verdict}")
    for key in sorted(set(REVIEWED) - set(found)):
        errors.append(f"reviewed difference no longer occurs (update REVIEWED): {key}")
    print(f"robots: {len(CASES)} cases, {checks} paths, {len(found)} differences "
          f"({len(found) - len([k for k in found if k not in REVIEWED])} reviewed)")
    if errors:
        print("\n".join(errors))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
