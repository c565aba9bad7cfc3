// A directory under /tmp for one test case, removed with everything in it
// when the case ends.
#pragma once

#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <string>

struct TempDir {
    std::string path;
    TempDir() {
        char tmpl[] = "/tmp/frontier-test-XXXXXX";
        REQUIRE(mkdtemp(tmpl) != nullptr);
        path = tmpl;
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};
