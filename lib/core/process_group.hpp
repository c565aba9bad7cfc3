// Who holds a lease (frontier(7), LEASES): a process group on a host, and
// whether it provably no longer exists. The holder is the process group,
// not the process: in `frontier-lease -n 100 > batch.jsonl; fetch <
// batch.jsonl | frontier-done` the lease process is gone at once while
// later commands of the same script (its group) still fetch the leases.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace frontier {

// A process group as recorded with its leases.
struct GroupRecord {
    std::string host;           // gethostname()
    std::string boot_id;        // /proc/sys/kernel/random/boot_id ("" unknown)
    int64_t pgid = 0;
    uint64_t leader_start = 0;  // start of process pgid, clock ticks since boot (0 unknown)
};

// What this host sees now of a recorded group (probe_group).
struct GroupProbe {
    std::string host;
    std::string boot_id;
    int kill_errno = 0;                   // of kill(-pgid, 0): 0 (it exists), ESRCH, EPERM, ...
    std::optional<uint64_t> leader_start; // of the process with pid pgid, if there is one
    // Every process left in the group has exited and waits to be reaped
    // (state Z in /proc): one killed while an exit handler ran a child, in a
    // container whose init does not reap. Nothing there can fetch.
    bool only_zombies = false;
};

enum class GroupFate {
    elsewhere,      // recorded on another host: not ours to judge
    rebooted,       // this host booted since: gone
    no_such_group,  // kill(-pgid, 0) says ESRCH, or only zombies are left: gone
    pid_reused,     // process pgid is another process than the group's leader: gone
    alive,          // exists (or may: EPERM, a group of another user), or cannot be told
};

// The decision, from the record and the probes alone (pure). A group is
// gone only when that is proven: the host rebooted, no process is in the
// group (or only exited ones not yet reaped), or its leader's pid belongs to a later process (Linux does not hand
// out a pid still used as a process group id, so the old group is gone).
GroupFate judge_group(const GroupRecord& r, const GroupProbe& p);
inline bool provably_gone(GroupFate f) {
    return f == GroupFate::rebooted || f == GroupFate::no_such_group || f == GroupFate::pid_reused;
}

// This host's name, its boot id ("" when unknown), a process's start time
// (/proc/PID/stat field 22; nullopt when there is no such process).
std::string host_name();
std::string boot_id();
std::optional<uint64_t> process_start(int64_t pid);

// The probes of a recorded group, made now on this host.
GroupProbe probe_group(int64_t pgid);
// This process's group, as it is recorded.
GroupRecord this_group();

}  // namespace frontier
