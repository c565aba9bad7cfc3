#include "core/process_group.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace frontier {

GroupFate judge_group(const GroupRecord& r, const GroupProbe& p) {
    if (r.host != p.host) return GroupFate::elsewhere;
    if (!r.boot_id.empty() && !p.boot_id.empty() && r.boot_id != p.boot_id) return GroupFate::rebooted;
    if (p.kill_errno == ESRCH) return GroupFate::no_such_group;
    if (r.leader_start != 0 && p.leader_start && *p.leader_start != r.leader_start) return GroupFate::pid_reused;
    return GroupFate::alive;
}

std::string host_name() {
    char buf[256] = "";
    ::gethostname(buf, sizeof buf - 1);
    return buf;
}

std::string boot_id() {
    FILE* fp = std::fopen("/proc/sys/kernel/random/boot_id", "r");
    if (!fp) return "";
    char buf[64] = "";
    std::string id = std::fgets(buf, sizeof buf, fp) ? buf : "";
    std::fclose(fp);
    while (!id.empty() && (id.back() == '\n' || id.back() == ' ')) id.pop_back();
    return id;
}

std::optional<uint64_t> process_start(int64_t pid) {
    if (pid <= 0) return std::nullopt;
    FILE* fp = std::fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
    if (!fp) return std::nullopt;
    char buf[4096];
    size_t n = std::fread(buf, 1, sizeof buf - 1, fp);
    std::fclose(fp);
    buf[n] = '\0';
    const char* p = std::strrchr(buf, ')');  // the command name may hold spaces
    if (!p) return std::nullopt;
    unsigned long long start = 0;
    // Fields after the name: state (3) ... starttime (22).
    if (std::sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
                    &start) != 1)
        return std::nullopt;
    return start;
}

GroupProbe probe_group(int64_t pgid) {
    GroupProbe p;
    p.host = host_name();
    p.boot_id = boot_id();
    // pgid 0 or 1 would signal this group or every process: never probed.
    if (pgid <= 1) return p;
    p.kill_errno = ::kill(static_cast<pid_t>(-pgid), 0) == 0 ? 0 : errno;
    p.leader_start = process_start(pgid);
    return p;
}

GroupRecord this_group() {
    GroupRecord r;
    r.host = host_name();
    r.boot_id = boot_id();
    r.pgid = ::getpgrp();
    r.leader_start = process_start(r.pgid).value_or(0);
    return r;
}

}  // namespace frontier
