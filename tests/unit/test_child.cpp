#include <catch2/catch.hpp>

#include <signal.h>
#include <unistd.h>

#include <vector>

#include "core/child.hpp"

using namespace frontier;

TEST_CASE("spawn: a child in this group, in a new group, in another child's group", "[child]") {
    std::vector<Child> kids;
    kids.push_back(spawn("sleep", {"30"}, -1, -1, true, 0));   // leads a new group
    kids.push_back(spawn("sleep", {"30"}, -1, -1, true, kids[0].pid));
    kids.push_back(spawn("sleep", {"0"}, -1, -1, true));       // this process's group
    CHECK(::getpgid(kids[0].pid) == kids[0].pid);
    CHECK(::getpgid(kids[1].pid) == kids[0].pid);
    CHECK(::getpgid(kids[2].pid) == ::getpgrp());  // not reaped yet: it still has its group
    // A signal to the new group ends both of its members, and only them.
    REQUIRE(::kill(-kids[0].pid, SIGTERM) == 0);
    wait_all(kids);
    CHECK(exit_code_of(kids[0]) == 128 + SIGTERM);
    CHECK(exit_code_of(kids[1]) == 128 + SIGTERM);
    CHECK(exit_code_of(kids[2]) == 0);
    CHECK_FALSE(reap(kids));
}
