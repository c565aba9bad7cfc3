// libFuzzer target: the robots.txt parser and matcher (lib/web/robots.cpp).
// The first line of the input is a path to match, the rest the robots.txt
// body. Invariants: no crash; the stored form (serialize / deserialize)
// matches exactly as the parsed rules do; "/robots.txt" is always allowed.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "web/robots.hpp"

using namespace frontier;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    std::string_view path = "/", body = text;
    if (auto nl = text.find('\n'); nl != std::string_view::npos && nl < 256) {
        path = text.substr(0, nl);
        body = text.substr(nl + 1);
    }
    for (std::string_view ua : {"frontier", "Googlebot", ""}) {
        RobotsRules rules = RobotsRules::parse(body, ua);
        RobotsRules stored = RobotsRules::deserialize(rules.serialize());
        for (std::string_view p : {path, std::string_view("/"), std::string_view("/a/b?c=1"),
                                   std::string_view("/%7Ea"), std::string_view("/robots.txt")}) {
            bool a = rules.allowed(p), b = stored.allowed(p);
            if (a != b) abort();
        }
        if (!rules.allowed("/robots.txt")) abort();
        if (stored.crawl_delay().has_value() != rules.crawl_delay().has_value()) abort();
    }
    (void)RobotsRules::deserialize(body);  // a damaged stored form must not crash either
    return 0;
}
