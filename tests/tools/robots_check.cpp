// Test driver for lib/web/robots.cpp, used by the differential test against
// protego (tests/tools/robots_diff.py). Reads commands on standard input:
//
//   R <N>\n<N bytes>   a robots.txt body (any bytes)
//   A <agent>\n        parse the last body for this user-agent
//   P <path>\n         is the path (and query) allowed? prints "1" or "0"
//   S\n                prints the stored (serialized) form of the rules and
//                      a line "." after it
//
// Each P answer is what frontier-lease decides: the rules go through
// serialize() / deserialize() as frontier-done stores them; if that answer
// differs from the freshly parsed rules' the line is "X" (a bug either way).
#include <cstdio>
#include <iostream>
#include <string>

#include "web/robots.hpp"

using namespace frontier;

int main() {
    std::ios::sync_with_stdio(false);
    std::string body, line;
    RobotsRules parsed, stored;
    while (std::getline(std::cin, line)) {
        if (line.size() < 1) continue;
        char cmd = line[0];
        std::string arg = line.size() > 2 ? line.substr(2) : std::string();
        if (cmd == 'R') {
            std::size_t n = std::stoul(arg);
            body.assign(n, '\0');
            std::cin.read(body.data(), static_cast<std::streamsize>(n));
        } else if (cmd == 'A') {
            parsed = RobotsRules::parse(body, arg);
            stored = RobotsRules::deserialize(parsed.serialize());
        } else if (cmd == 'P') {
            bool a = parsed.allowed(arg), b = stored.allowed(arg);
            std::cout << (a != b ? "X" : a ? "1" : "0") << '\n';
        } else if (cmd == 'S') {
            std::cout << parsed.serialize() << ".\n";
        } else {
            std::cerr << "robots-check: bad command: " << line << '\n';
            return 2;
        }
        std::cout.flush();
    }
    return 0;
}
