// Unit tests for lib/core/process_group.hpp: when a lease holder (a process
// group on a host) is provably gone, from the record and the probes alone.
#include <catch2/catch.hpp>

#include <cerrno>
#include <sys/wait.h>
#include <unistd.h>

#include "core/process_group.hpp"

using namespace frontier;

namespace {

GroupRecord recorded() { return GroupRecord{"crawler1", "boot-a", 4242, 900}; }

// This host, same boot, the group exists, its leader is the recorded one.
GroupProbe alive_probe() { return GroupProbe{"crawler1", "boot-a", 0, 900}; }

}  // namespace

TEST_CASE("process group: the decision table", "[process_group]") {
    GroupRecord r = recorded();
    SECTION("alive: the group exists, its leader started when recorded") {
        CHECK(judge_group(r, alive_probe()) == GroupFate::alive);
    }
    SECTION("alive: the leader exited, other members remain (no /proc/PGID)") {
        GroupProbe p = alive_probe();
        p.leader_start.reset();
        CHECK(judge_group(r, p) == GroupFate::alive);
    }
    SECTION("another host: never judged here, whatever the probes say") {
        GroupProbe p = alive_probe();
        p.host = "crawler2";
        p.kill_errno = ESRCH;
        p.boot_id = "boot-b";
        CHECK(judge_group(r, p) == GroupFate::elsewhere);
        CHECK_FALSE(provably_gone(judge_group(r, p)));
    }
    SECTION("another boot: gone (the machine rebooted), even if the pgid is in use again") {
        GroupProbe p = alive_probe();
        p.boot_id = "boot-b";
        CHECK(judge_group(r, p) == GroupFate::rebooted);
        CHECK(provably_gone(judge_group(r, p)));
    }
    SECTION("ESRCH: no process in the group, gone") {
        GroupProbe p = alive_probe();
        p.kill_errno = ESRCH;
        p.leader_start.reset();
        CHECK(judge_group(r, p) == GroupFate::no_such_group);
        CHECK(provably_gone(judge_group(r, p)));
    }
    SECTION("only zombies left (exited, not yet reaped): gone") {
        GroupProbe p = alive_probe();
        p.only_zombies = true;
        CHECK(judge_group(r, p) == GroupFate::no_such_group);
        CHECK(provably_gone(judge_group(r, p)));
    }
    SECTION("EPERM: a group of another user exists, alive") {
        GroupProbe p = alive_probe();
        p.kill_errno = EPERM;
        CHECK(judge_group(r, p) == GroupFate::alive);
        CHECK_FALSE(provably_gone(judge_group(r, p)));
    }
    SECTION("the pid was reused: process PGID started at another time, gone") {
        GroupProbe p = alive_probe();
        p.leader_start = 12345;
        CHECK(judge_group(r, p) == GroupFate::pid_reused);
        CHECK(provably_gone(judge_group(r, p)));
    }
    SECTION("an unknown start time (0) is not compared") {
        r.leader_start = 0;
        GroupProbe p = alive_probe();
        p.leader_start = 12345;
        CHECK(judge_group(r, p) == GroupFate::alive);
    }
    SECTION("an unknown boot id on either side is not compared") {
        GroupProbe p = alive_probe();
        p.boot_id = "";
        CHECK(judge_group(r, p) == GroupFate::alive);
        r.boot_id = "";
        p.boot_id = "boot-b";
        CHECK(judge_group(r, p) == GroupFate::alive);
    }
}

TEST_CASE("process group: this process's group is alive when probed", "[process_group]") {
    GroupRecord me = this_group();
    CHECK(me.pgid == getpgrp());
    CHECK(!me.host.empty());
    CHECK(judge_group(me, probe_group(me.pgid)) == GroupFate::alive);
    // pgid 0 and 1 are never probed (they would mean this group, every process).
    GroupRecord zero = me;
    zero.pgid = 0;
    CHECK_FALSE(provably_gone(judge_group(zero, probe_group(0))));
}

TEST_CASE("process group: a group whose only process has exited unreaped is gone", "[process_group]") {
    pid_t kid = fork();
    REQUIRE(kid >= 0);
    if (kid == 0) {
        setpgid(0, 0);
        _exit(0);
    }
    setpgid(kid, kid);  // either side may win the race; both ask for the same
    GroupRecord r = this_group();
    r.pgid = kid;
    r.leader_start = process_start(kid).value_or(0);
    // Not reaped yet: kill(-kid, 0) still finds the zombie.
    for (int i = 0; i < 200 && !probe_group(kid).only_zombies; ++i) usleep(10'000);
    GroupProbe p = probe_group(kid);
    CHECK(p.kill_errno == 0);
    CHECK(p.only_zombies);
    CHECK(judge_group(r, p) == GroupFate::no_such_group);
    int status = 0;
    waitpid(kid, &status, 0);
}
