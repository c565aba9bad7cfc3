// Unit tests for lib/json/json.hpp: LineReader, Record, parse_rfc3339, the writer.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

#include "core/error.hpp"
#include "json/json.hpp"

using namespace frontier;
using Kind = JsonValue::Kind;

namespace {

// A temporary file holding `content`, removed on destruction.
struct TempFile {
    std::string path;
    explicit TempFile(const std::string& content) {
        std::string tmpl = (std::filesystem::temp_directory_path() / "test_json_XXXXXX").string();
        int fd = mkstemp(tmpl.data());
        REQUIRE(fd >= 0);
        size_t done = 0;
        while (done < content.size()) {
            ssize_t n = ::write(fd, content.data() + done, content.size() - done);
            REQUIRE(n > 0);
            done += size_t(n);
        }
        ::close(fd);
        path = tmpl;
    }
    ~TempFile() { std::remove(path.c_str()); }
};

std::vector<InputLine> read_paths(std::vector<std::string> paths, size_t max_line = 1 << 20) {
    LineReader reader(std::move(paths), max_line);
    std::vector<InputLine> lines;
    InputLine line;  // reused, as tools do
    while (reader.next(line)) lines.push_back(line);
    return lines;
}

std::vector<InputLine> read_text(const std::string& text, size_t max_line = 1 << 20) {
    TempFile f(text);
    return read_paths({f.path}, max_line);
}

std::string url_of(const InputLine& l) { return l.record.get_string("url").value_or("<none>"); }

std::string json_string(std::string_view s) {
    std::string out;
    append_json_string(out, s);
    return out;
}

std::string json_number(double d) {
    std::string out;
    append_json_number(out, d);
    return out;
}

}  // namespace

TEST_CASE("bare URL lines, blank lines and CRLF", "[json]") {
    auto lines = read_text("http://a.com/\r\n\n   \n  http://b.com/x y \t\r\n\r\n{\"url\":\"http://c.com/\"}\r\n");
    REQUIRE(lines.size() == 3);
    CHECK(lines[0].line_no == 1);
    CHECK(lines[0].error.empty());
    CHECK(url_of(lines[0]) == "http://a.com/");
    CHECK(lines[0].record.fields.size() == 1);
    CHECK(lines[0].record.fields[0].value.raw == "\"http://a.com/\"");
    CHECK(lines[1].line_no == 4);
    CHECK(url_of(lines[1]) == "http://b.com/x y");
    CHECK(lines[2].line_no == 6);
    CHECK(url_of(lines[2]) == "http://c.com/");
}

TEST_CASE("objects with every value kind", "[json]") {
    auto lines = read_text(
        R"({"s":"a\"b\\c\u00e9\n","i":42,"neg":-17,"f":12.5,"f0":3.0,"t":true,"fa":false,"n":null,)"
        R"( "o" : {"x":[1,2,{"y":null}]} , "a":[ ],"e":{}})"
        "\n");
    REQUIRE(lines.size() == 1);
    const InputLine& l = lines[0];
    REQUIRE(l.error.empty());
    const Record& r = l.record;
    REQUIRE(r.fields.size() == 11);
    CHECK(r.fields[0].key == "s");
    CHECK(r.find("s")->kind == Kind::string);
    CHECK(r.find("s")->s == "a\"b\\c\xC3\xA9\n");
    CHECK(r.find("s")->raw == R"("a\"b\\c\u00e9\n")");
    CHECK(r.find("i")->kind == Kind::integer);
    CHECK(r.find("i")->i == 42);
    CHECK(r.find("i")->d == 42.0);
    CHECK(r.find("neg")->i == -17);
    CHECK(r.find("f")->kind == Kind::number);
    CHECK(r.find("f")->d == 12.5);
    CHECK(r.find("f")->raw == "12.5");
    CHECK(r.find("f0")->kind == Kind::number);
    CHECK(r.find("f0")->i == 3);
    CHECK(r.find("t")->kind == Kind::boolean);
    CHECK(r.find("t")->b);
    CHECK_FALSE(r.find("fa")->b);
    CHECK(r.find("n")->kind == Kind::null);
    CHECK(r.find("n")->raw == "null");
    CHECK(r.find("o")->kind == Kind::object);
    CHECK(r.find("o")->raw == R"({"x":[1,2,{"y":null}]})");
    CHECK(r.find("a")->kind == Kind::array);
    CHECK(r.find("a")->raw == "[ ]");
    CHECK(r.find("e")->raw == "{}");
    CHECK(r.find("missing") == nullptr);
    CHECK_FALSE(r.has("missing"));
    CHECK(r.has("n"));
}

TEST_CASE("unknown keys pass through verbatim", "[json]") {
    auto lines = read_text(R"({"url":"http://a.com/","meta":{"k":[1,"\u00e9",{"z":true}],"n":1e400},"depth":2,"x":"y"})"
                           "\n");
    REQUIRE(lines.size() == 1);
    REQUIRE(lines[0].error.empty());
    JsonWriter w;
    w.begin();
    w.field("url", "http://a.com/");
    w.pass_through(lines[0].record, {"url", "depth"});
    w.end();
    CHECK(w.str() == R"({"url":"http://a.com/","meta":{"k":[1,"\u00e9",{"z":true}],"n":1e400},"x":"y"})");
}

TEST_CASE("bad JSON lines do not stop good ones", "[json]") {
    auto lines = read_text(
        "{\"url\":\"http://a.com/\"}\n"
        "{\"url\":\n"
        "{\"url\":\"http://b.com/\"} trailing\n"
        "{\"a\":1}}\n"
        "{\"a\":[1,,2]}\n"
        "{\"a\":nul}\n"
        "{\"a\":01}\n"
        "{\"a\":1,}\n"
        "{\"a\":\"x\\q\"}\n"
        "{\"a\":\"raw\ttab\"}\n"
        "\n"
        "{\"url\":\"http://c.com/\"}\n");
    REQUIRE(lines.size() == 11);
    CHECK(url_of(lines[0]) == "http://a.com/");
    for (size_t k = 1; k <= 9; ++k) {
        INFO("line " << lines[k].line_no);
        CHECK(lines[k].error == "bad-json");
        CHECK(lines[k].line_no == k + 1);
        CHECK(lines[k].record.fields.empty());
    }
    CHECK(lines[10].line_no == 12);
    CHECK(lines[10].error.empty());
    CHECK(url_of(lines[10]) == "http://c.com/");
}

TEST_CASE("a last line without newline is still a line", "[json]") {
    auto lines = read_text("http://a.com/\n{\"url\":\"http://b.com/\",\"depth\":3}");
    REQUIRE(lines.size() == 2);
    CHECK(lines[1].line_no == 2);
    CHECK(*lines[1].record.get_int("depth") == 3);

    lines = read_text("http://a.com/\n{\"url\":\"http://b.com/");
    REQUIRE(lines.size() == 2);
    CHECK(lines[1].error == "bad-json");

    CHECK(read_text("").empty());
    CHECK(read_text("\n\n  \n").empty());
}

TEST_CASE("NUL bytes and invalid UTF-8 are rejected per line", "[json]") {
    std::string text = std::string("http://a.com/\0x\n", 16) + "http://b.com/\xff\n" + "{\"u\":\"\xC3\x28\"}\n" +
                       "{\"u\":\"\xED\xA0\x80\"}\n" + "{\"u\":\"ok \xF0\x9F\x98\x80\"}\n";
    auto lines = read_text(text);
    REQUIRE(lines.size() == 5);
    CHECK(lines[0].error == "nul-byte");
    CHECK(lines[1].error == "bad-utf8");
    CHECK(lines[2].error == "bad-utf8");
    CHECK(lines[3].error == "bad-utf8");  // encoded surrogate
    CHECK(lines[4].error.empty());
    CHECK(lines[4].record.get_string("u") == "ok \xF0\x9F\x98\x80");
}

TEST_CASE("over-long lines are skipped without being stored", "[json]") {
    std::string big(2 << 20, 'x');
    auto lines = read_text("http://a.com/\n" + big + "\n{\"url\":\"http://b.com/\"}\n" + big);
    REQUIRE(lines.size() == 4);
    CHECK(url_of(lines[0]) == "http://a.com/");
    CHECK(lines[1].line_no == 2);
    CHECK(lines[1].error == "line-too-long");
    CHECK(lines[2].line_no == 3);
    CHECK(url_of(lines[2]) == "http://b.com/");
    CHECK(lines[3].line_no == 4);
    CHECK(lines[3].error == "line-too-long");

    // Limits are in bytes of line content; "\r\n" does not count.
    lines = read_text("12345678\n123456789\n12345678\r\n123456789\r\nok\n", 8);
    REQUIRE(lines.size() == 5);
    CHECK(lines[0].error.empty());
    CHECK(lines[1].error == "line-too-long");
    CHECK(lines[2].error.empty());
    CHECK(lines[3].error == "line-too-long");
    CHECK(url_of(lines[4]) == "ok");
}

TEST_CASE("deep nesting is bad-json, not a crash", "[json]") {
    auto nest = [](int n) {
        return "{\"a\":" + std::string(size_t(n), '[') + std::string(size_t(n), ']') + "}\n";
    };
    auto lines = read_text(nest(10000) + "{\"a\":" + std::string(10000, '[') + "}\n" + nest(1024) + nest(1023) +
                           "{\"url\":\"http://a.com/\"}\n");
    REQUIRE(lines.size() == 5);
    CHECK(lines[0].error == "bad-json");
    CHECK(lines[1].error == "bad-json");
    CHECK(lines[2].error == "bad-json");  // depth 1025 counting the record
    CHECK(lines[3].error.empty());        // depth 1024
    CHECK(lines[4].error.empty());
}

TEST_CASE("huge and negative numbers", "[json]") {
    auto lines = read_text(
        R"({"big":1e400,"nbig":-1e400,"tiny":1e-400,"wide":99999999999999999999,"max":9223372036854775807,)"
        R"("min":-9223372036854775808,"neg":-3.25,"e":2E3})"
        "\n");
    REQUIRE(lines.size() == 1);
    REQUIRE(lines[0].error.empty());
    const Record& r = lines[0].record;
    CHECK(r.find("big")->kind == Kind::number);
    CHECK(std::isinf(r.find("big")->d));
    CHECK(r.find("big")->raw == "1e400");
    CHECK(r.find("nbig")->d < 0);
    CHECK(r.find("tiny")->d == 0.0);
    CHECK(r.find("wide")->kind == Kind::number);
    CHECK(r.find("wide")->d == 1e20);
    CHECK(r.find("wide")->raw == "99999999999999999999");
    CHECK(r.find("max")->kind == Kind::integer);
    CHECK(r.find("max")->i == INT64_MAX);
    CHECK(r.find("min")->i == INT64_MIN);
    CHECK(r.find("neg")->d == -3.25);
    CHECK(*r.get_int("e") == 2000);
    CHECK_THROWS_AS(r.get_number("big"), FieldTypeError);
    CHECK_THROWS_AS(r.get_int("wide"), FieldTypeError);
    CHECK(*r.get_number("wide") == 1e20);
}

TEST_CASE("typed getters", "[json]") {
    Record r;
    r.set_raw("s", R"("text")");
    r.set_raw("i", "7");
    r.set_raw("f", "3.5");
    r.set_raw("f0", " 4.0 ");
    r.set_raw("b", "true");
    r.set_raw("n", "null");
    r.set_raw("o", R"({"a":1})");
    r.set_raw("t", R"("2024-05-01T00:00:00Z")");
    r.set_raw("ts", R"("1795000000.5")");
    CHECK(r.find("f0")->raw == "4.0");
    CHECK(*r.get_string("s") == "text");
    CHECK(*r.get_int("i") == 7);
    CHECK(*r.get_int("f0") == 4);
    CHECK(*r.get_number("i") == 7.0);
    CHECK(*r.get_number("f") == 3.5);
    CHECK(*r.get_bool("b"));
    CHECK(*r.get_time("i") == 7.0);
    CHECK(*r.get_time("t") == 1714521600.0);
    CHECK(*r.get_time("ts") == 1795000000.5);
    for (const char* k : {"n", "absent"}) {
        CHECK_FALSE(r.get_string(k));
        CHECK_FALSE(r.get_int(k));
        CHECK_FALSE(r.get_number(k));
        CHECK_FALSE(r.get_bool(k));
        CHECK_FALSE(r.get_time(k));
    }
    auto expect_error = [&](auto get, const char* key, const char* expected) {
        try {
            get(key);
            FAIL("no FieldTypeError for " << key);
        } catch (const FieldTypeError& e) {
            CHECK(e.key == key);
            CHECK(e.expected == expected);
        }
    };
    expect_error([&](const char* k) { return r.get_string(k); }, "i", "string");
    expect_error([&](const char* k) { return r.get_int(k); }, "f", "integer");
    expect_error([&](const char* k) { return r.get_int(k); }, "s", "integer");
    expect_error([&](const char* k) { return r.get_number(k); }, "s", "number");
    expect_error([&](const char* k) { return r.get_bool(k); }, "i", "boolean");
    expect_error([&](const char* k) { return r.get_time(k); }, "s", "time");
    expect_error([&](const char* k) { return r.get_time(k); }, "o", "time");

    // Replacing a field keeps one copy; invalid text throws.
    r.set_raw("i", "8");
    CHECK(*r.get_int("i") == 8);
    CHECK(r.fields.size() == 9);
    CHECK_THROWS_AS(r.set_raw("x", "[1,"), std::invalid_argument);
    CHECK_THROWS_AS(r.set_raw("x", "1 2"), std::invalid_argument);
    CHECK_THROWS_AS(r.set_raw("x", ""), std::invalid_argument);

    // Duplicate keys in input: the last wins.
    auto lines = read_text(R"({"a":1,"a":2})"
                           "\n");
    CHECK(*lines.at(0).record.get_int("a") == 2);
}

TEST_CASE("RFC 3339 timestamps", "[json]") {
    CHECK(parse_rfc3339("1970-01-01T00:00:00Z") == 0.0);
    CHECK(parse_rfc3339("2024-05-01T12:00:00Z") == 1714564800.0);
    CHECK(parse_rfc3339("2024-05-01t12:00:00z") == 1714564800.0);
    CHECK(parse_rfc3339("2024-05-01 12:00:00Z") == 1714564800.0);
    CHECK(parse_rfc3339("2024-05-01T12:00:00") == 1714564800.0);
    CHECK(parse_rfc3339("2024-05-01T12:00Z") == 1714564800.0);
    CHECK(parse_rfc3339("2024-05-01T12:00:00.5Z") == 1714564800.5);
    CHECK(parse_rfc3339("2024-05-01T12:00:00.250+02:00") == 1714564800.25 - 7200);
    CHECK(parse_rfc3339("2024-05-01T12:00:00-05:30") == 1714564800.0 + 5.5 * 3600);
    CHECK(parse_rfc3339("2024-05-01T12:00:00+0200") == 1714564800.0 - 7200);
    CHECK(parse_rfc3339("2024-05-01") == 1714521600.0);
    CHECK(parse_rfc3339(" 2024-05-01 ") == 1714521600.0);
    CHECK(parse_rfc3339("2024-02-29") == 1709164800.0);
    CHECK(parse_rfc3339("1969-12-31T23:59:59Z") == -1.0);
    for (const char* bad : {"", "garbage", "2024", "2024-05", "2024-5-01", "2024-13-01", "2024-00-10", "2023-02-29",
                            "2024-04-31", "2024-05-01T", "2024-05-01T24:00:00Z", "2024-05-01T12:60:00Z",
                            "2024-05-01T12:00:00.Z", "2024-05-01T12:00:00Zjunk", "2024-05-01T12:00:00+2",
                            "2024-05-01X12:00:00Z", "2024-05-01T12:00:00+24:00", "1714564800"}) {
        INFO(bad);
        CHECK_FALSE(parse_rfc3339(bad));
    }
}

TEST_CASE("valid_utf8", "[json]") {
    CHECK(valid_utf8(""));
    CHECK(valid_utf8("plain"));
    CHECK(valid_utf8("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"));
    CHECK_FALSE(valid_utf8("\xC0\xAF"));          // overlong
    CHECK_FALSE(valid_utf8("\xED\xA0\x80"));      // surrogate
    CHECK_FALSE(valid_utf8("\xF4\x90\x80\x80"));  // above U+10FFFF
    CHECK_FALSE(valid_utf8("\xE2\x82"));          // truncated
}

TEST_CASE("writer escapes strings", "[json]") {
    CHECK(json_string("") == "\"\"");
    CHECK(json_string("a\"b\\c") == R"("a\"b\\c")");
    CHECK(json_string("\n\r\t\b\f") == R"("\n\r\t\b\f")");
    CHECK(json_string(std::string("\0\x01\x1f\x7f", 4)) == "\"\\u0000\\u0001\\u001f\x7f\"");
    CHECK(json_string("caf\xC3\xA9 \xF0\x9F\x98\x80") == "\"caf\xC3\xA9 \xF0\x9F\x98\x80\"");
    CHECK(json_string("a\xff" "b") == "\"a\xEF\xBF\xBD" "b\"");
    CHECK(json_string("\xE2\x82") == "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");
    CHECK(json_string("\xED\xA0\x80") == "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");
    CHECK(json_string("\xC0\xAF") == "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");
}

TEST_CASE("writer formats numbers", "[json]") {
    CHECK(json_number(12.0) == "12");
    CHECK(json_number(-0.0) == "0");
    CHECK(json_number(12.5) == "12.5");
    CHECK(json_number(1795000012.4) == "1795000012.4");
    CHECK(json_number(0.1) == "0.1");
    CHECK(json_number(9007199254740992.0) == "9007199254740992");
    CHECK(json_number(1e20) == "1e+20");
    CHECK(json_number(NAN) == "null");
    CHECK(json_number(INFINITY) == "null");
    CHECK(json_number(-INFINITY) == "null");
    std::string s;
    append_json_int(s, INT64_MIN);
    CHECK(s == "-9223372036854775808");
}

TEST_CASE("writer builds nested objects", "[json]") {
    JsonWriter w;
    w.begin();
    w.field("url", "http://a.com/");
    w.field("n", 3);
    w.field("u", uint64_t(4));
    w.field("d", 2.5);
    w.field("b", false);
    w.field_null("z");
    w.key("o");
    w.begin_object();
    w.field("k", std::string("v"));
    w.key("arr");
    w.begin_array();
    w.value(1);
    w.value("two");
    w.begin_object();
    w.end_object();
    w.begin_array();
    w.end_array();
    w.value(true);
    w.value(0.5);
    w.value_raw("{\"r\":1}");
    w.end_array();
    w.end_object();
    w.field_raw("raw", "[1,2]");
    w.end();
    CHECK(w.str() == R"({"url":"http://a.com/","n":3,"u":4,"d":2.5,"b":false,"z":null,)"
                     R"("o":{"k":"v","arr":[1,"two",{},[],true,0.5,{"r":1}]},"raw":[1,2]})");
    w.begin();
    w.end();
    CHECK(w.str() == "{}");
    w.begin();
    w.field("k\n", "\x01");
    w.end();
    CHECK(w.str() == R"({"k\n":"\u0001"})");
}

TEST_CASE("multiple inputs number lines continuously", "[json]") {
    TempFile a("http://a.com/1\nhttp://a.com/2");  // no final newline
    TempFile b("\nhttp://b.com/1\n");
    auto lines = read_paths({a.path, b.path, a.path});
    REQUIRE(lines.size() == 5);
    CHECK(url_of(lines[1]) == "http://a.com/2");  // not merged with b's first line
    CHECK(lines[1].line_no == 2);
    CHECK(url_of(lines[2]) == "http://b.com/1");
    CHECK(lines[2].line_no == 4);
    CHECK(lines[3].line_no == 5);
    CHECK(lines[4].line_no == 6);

    LineReader reader({a.path, "/nonexistent/file"});
    InputLine line;
    CHECK(reader.next(line));
    CHECK(reader.next(line));
    CHECK_THROWS_AS(reader.next(line), IoError);
}

TEST_CASE("a reused InputLine holds only the current record", "[json]") {
    auto lines = read_text(R"({"a":1,"b":2,"c":3})"
                           "\n"
                           "http://x.com/\n"
                           R"({"a":"long string value that does not fit in SSO","b":null})"
                           "\n{bad\n"
                           R"({"a":1,"b":2,"c":3,"d":4})"
                           "\n");
    REQUIRE(lines.size() == 5);
    CHECK(lines[0].record.fields.size() == 3);
    CHECK(lines[1].record.fields.size() == 1);
    CHECK(lines[2].record.fields.size() == 2);
    CHECK(lines[2].record.find("b")->kind == Kind::null);
    CHECK(lines[3].record.fields.empty());
    CHECK(lines[4].record.fields.size() == 4);
    CHECK(*lines[4].record.get_int("d") == 4);
    CHECK(lines[4].record.find("a")->s.empty());
}

TEST_CASE("idle reflects pending input", "[json]") {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    LineReader reader({"/dev/fd/" + std::to_string(fds[0])});
    auto put = [&](std::string_view s) { REQUIRE(::write(fds[1], s.data(), s.size()) == ssize_t(s.size())); };
    InputLine line;
    put("http://a.com/\nhttp://b.com/\n");
    REQUIRE(reader.next(line));
    CHECK_FALSE(reader.idle());  // second line already buffered
    REQUIRE(reader.next(line));
    CHECK(reader.idle());
    put("http://c");
    CHECK_FALSE(reader.idle());  // data ready on the pipe
    put(".com/\n");
    REQUIRE(reader.next(line));
    CHECK(url_of(line) == "http://c.com/");
    CHECK(reader.idle());
    ::close(fds[1]);
    CHECK_FALSE(reader.idle());  // EOF: next() returns at once
    CHECK_FALSE(reader.next(line));
    ::close(fds[0]);
}
