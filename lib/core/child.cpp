// Child processes of a tool (lib/core/child.hpp).
#include "core/child.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <ctime>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/output.hpp"

extern char** environ;

namespace frontier {

// The path of a sibling tool: the directory of this executable when it is
// there (an installed or built tree), else the bare name (looked up on PATH).
std::string tool_path(const std::string& name) {
    char self[PATH_MAX];
    ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        std::string dir(self);
        dir.resize(dir.rfind('/') + 1);
        if (::access((dir + name).c_str(), X_OK) == 0) return dir + name;
    }
    return name;
}

Child spawn(const std::string& name, const std::vector<std::string>& args, int in, int out, bool no_stderr,
            pid_t group) {
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    if (group >= 0) {
        posix_spawnattr_setpgroup(&attr, group);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (in >= 0) posix_spawn_file_actions_adddup2(&fa, in, 0);
    if (out >= 0) posix_spawn_file_actions_adddup2(&fa, out, 1);
    if (no_stderr) posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    std::string path = tool_path(name);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(name.c_str()));
    for (auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    Child c;
    c.name = name;
    int rc = posix_spawnp(&c.pid, path.c_str(), &fa, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) throw IoError("cannot run " + path + ": " + std::strerror(rc));
    return c;
}

bool reap(std::vector<Child>& kids) {
    bool running = false;
    for (auto& c : kids) {
        if (c.done) continue;
        pid_t r = ::waitpid(c.pid, &c.status, WNOHANG);
        if (r == c.pid) c.done = true;
        else running = true;
    }
    return running;
}

void wait_all(std::vector<Child>& kids, const std::function<void()>& tick) {
    if (!tick) {  // nothing to do meanwhile: block, so that an ending is seen at once
        for (auto& c : kids)
            while (!c.done)
                if (pid_t r = ::waitpid(c.pid, &c.status, 0); r == c.pid || (r < 0 && errno != EINTR)) c.done = true;
        return;
    }
    double last_tick = monotonic_seconds();
    while (reap(kids)) {
        if (tick && monotonic_seconds() - last_tick >= 1) {
            tick();
            last_tick = monotonic_seconds();
        }
        // Not sleep_for: it returns at once after a stop signal.
        struct timespec ts{0, 10'000'000};
        ::nanosleep(&ts, nullptr);
    }
}

int exit_code_of(const Child& c) {
    if (WIFEXITED(c.status)) return WEXITSTATUS(c.status);
    return 128 + (WIFSIGNALED(c.status) ? WTERMSIG(c.status) : 0);
}

Child start_to_file(const std::string& name, const std::vector<std::string>& args, const std::string& out_path,
                    bool no_stderr, pid_t group) {
    int out = -1;
    if (!out_path.empty()) {
        out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (out < 0) throw IoError("cannot write " + out_path + ": " + std::strerror(errno));
    }
    try {
        Child c = spawn(name, args, -1, out, no_stderr, group);
        if (out >= 0) ::close(out);
        return c;
    } catch (...) {
        if (out >= 0) ::close(out);
        throw;
    }
}

// Runs a tool to completion with stdout to `out_path` (empty: inherited).
int run_to_file(const std::string& name, const std::vector<std::string>& args, const std::string& out_path,
                bool no_stderr, pid_t group) {
    std::vector<Child> kids{start_to_file(name, args, out_path, no_stderr, group)};
    wait_all(kids);
    return exit_code_of(kids[0]);
}

}  // namespace frontier
