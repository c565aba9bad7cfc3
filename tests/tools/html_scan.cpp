// Test driver for the HTML code (lib/web/html/, lib/web/html_links.cpp), used by the
// differential tests against html5lib (tests/tools/html_diff.py):
//
//   html-scan tokens FILE          every start tag with all its attributes,
//                                  and every end tag, as JSON lines:
//                                  ["S", name, self_closing, [[attr, value], ...]]
//                                  ["E", name]
//                                  FILE is UTF-8; U+0000 is read as U+FFFD.
//   html-scan links PAGE FILE...   for each FILE a line ["F", FILE], then one
//                                  [url, tag, nofollow] per link that
//                                  extract_html_links finds with page URL PAGE
//   html-scan time FILE...         extract_html_links over all FILEs, 5 times;
//                                  prints MB/s of the fastest pass
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "web/html/encoding.hpp"
#include "web/html/tokenizer.hpp"
#include "json/json.hpp"
#include "web/links.hpp"

using namespace frontier;

namespace {

std::string slurp(const char* path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::cerr << "html-scan: cannot read " << path << "\n";
        std::exit(2);
    }
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

class Dump : public html::TagSink {
public:
    std::string out;
    bool wants_start(std::string_view) override { return true; }
    bool wants_attribute(std::string_view, std::string_view) override { return true; }
    void start_tag(std::string_view name, const std::vector<html::Attribute>& attrs, bool self_closing) override {
        out += "[\"S\",";
        append_json_string(out, name);
        out += self_closing ? ",true,[" : ",false,[";
        for (size_t i = 0; i < attrs.size(); ++i) {
            out += i ? ",[" : "[";
            append_json_string(out, attrs[i].name);
            out += ',';
            append_json_string(out, attrs[i].value);
            out += ']';
        }
        out += "]]\n";
    }
    bool end_tags() override { return true; }
    void end_tag(std::string_view name) override {
        out += "[\"E\",";
        append_json_string(out, name);
        out += "]\n";
    }
};

}  // namespace

int main(int argc, char** argv) {
    std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "tokens" && argc == 3) {
        std::string doc = slurp(argv[2]), fixed;
        std::string_view text = doc;
        if (doc.find('\0') != std::string::npos) {
            for (char c : doc) fixed += c ? std::string(1, c) : std::string("\xEF\xBF\xBD");
            text = fixed;
        }
        Dump d;
        html::tokenize(text, d);
        std::fwrite(d.out.data(), 1, d.out.size(), stdout);
        return 0;
    }
    if (mode == "links" && argc >= 4) {
        std::string out;
        for (int i = 3; i < argc; ++i) {
            std::string doc = slurp(argv[i]);
            out += "[\"F\",";
            append_json_string(out, argv[i]);
            out += "]\n";
            for (const Link& l : extract_html_links(doc, argv[2])) {
                out += '[';
                append_json_string(out, l.url);
                out += ',';
                append_json_string(out, l.tag);
                out += l.nofollow ? ",true]\n" : ",false]\n";
            }
        }
        std::fwrite(out.data(), 1, out.size(), stdout);
        return 0;
    }
    if (mode == "time" && argc >= 3) {
        std::vector<std::string> docs;
        size_t bytes = 0;
        for (int i = 2; i < argc; ++i) bytes += docs.emplace_back(slurp(argv[i])).size();
        double best = 1e9;
        size_t links = 0;
        for (int pass = 0; pass < 5; ++pass) {
            auto t0 = std::chrono::steady_clock::now();
            links = 0;
            for (const std::string& d : docs) links += extract_html_links(d, "http://example.com/a/b.html").size();
            best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        std::printf("%zu files, %.1f MB, %zu links, %.3f s, %.0f MB/s\n", docs.size(), bytes / 1e6, links, best,
                    bytes / 1e6 / best);
        return 0;
    }
    std::cerr << "usage: html-scan tokens FILE | links PAGE FILE... | time FILE...\n";
    return 2;
}
