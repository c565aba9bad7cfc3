#include "core/process_group.hpp"

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace frontier {

GroupFate judge_group(const GroupRecord& r, const GroupProbe& p) {
    if (r.host != p.host) return GroupFate::elsewhere;
    if (!r.boot_id.empty() && !p.boot_id.empty() && r.boot_id != p.boot_id) return GroupFate::rebooted;
    if (p.kill_errno == ESRCH || (p.kill_errno == 0 && p.only_zombies)) return GroupFate::no_such_group;
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

namespace {

// /proc/PID/stat after the command name (which may hold spaces): "S ppid
// pgrp ...", or "" when there is no such process.
std::string stat_fields(const std::string& pid) {
    FILE* fp = std::fopen(("/proc/" + pid + "/stat").c_str(), "r");
    if (!fp) return "";
    char buf[4096];
    size_t n = std::fread(buf, 1, sizeof buf - 1, fp);
    std::fclose(fp);
    buf[n] = '\0';
    const char* p = std::strrchr(buf, ')');
    return p && p[1] == ' ' ? std::string(p + 2) : "";
}

// True when a zombie's other threads still run (its leader thread exited
// first): then it is not gone.
bool threads_left(const char* pid) {
    FILE* fp = std::fopen((std::string("/proc/") + pid + "/status").c_str(), "r");
    if (!fp) return false;
    char line[256];
    long threads = 0;
    while (std::fgets(line, sizeof line, fp))
        if (std::sscanf(line, "Threads: %ld", &threads) == 1) break;
    std::fclose(fp);
    return threads > 1;
}

// True when process `pid` (its /proc name) is in group `pgid` and can
// still run: not a zombie (state Z or X), or one whose other threads run.
bool runs_in_group(const char* pid, int64_t pgid) {
    char state = 0;
    long long group = 0;
    std::string f = stat_fields(pid);
    return std::sscanf(f.c_str(), "%c %*d %lld", &state, &group) == 2 && group == pgid &&
           ((state != 'Z' && state != 'X') || threads_left(pid));
}

// True when no process of group `pgid` can still run.
bool only_zombies_in(int64_t pgid) {
    DIR* d = ::opendir("/proc");
    if (!d) return false;
    bool live = false;
    while (struct dirent* e = ::readdir(d)) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
        if (runs_in_group(e->d_name, pgid)) {
            live = true;
            break;
        }
    }
    ::closedir(d);
    return !live;
}

}  // namespace

std::optional<uint64_t> process_start(int64_t pid) {
    if (pid <= 0) return std::nullopt;
    std::string f = stat_fields(std::to_string(pid));
    if (f.empty()) return std::nullopt;
    unsigned long long start = 0;
    // Fields after the name: state (3) ... starttime (22).
    if (std::sscanf(f.c_str(), "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
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
    // A running leader answers at once; /proc is scanned only when the
    // leader is gone or a zombie, as after a pipeline ended.
    p.only_zombies = p.kill_errno == 0 && !runs_in_group(std::to_string(pgid).c_str(), pgid) && only_zombies_in(pgid);
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
