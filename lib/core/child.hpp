// Child processes of a tool (frontier-crawl runs the other tools): spawned
// with their standard input and output redirected, optionally in a process
// group of their own (out of reach of a terminal's ^C, which the parent then
// passes on as it sees fit), and waited for together.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

namespace frontier {

// The path of a sibling tool: the directory of this executable when it is
// there (an installed or built tree), else the bare name (looked up on PATH).
std::string tool_path(const std::string& name);

// A child process with its standard input and output redirected (-1: keep),
// standard error to /dev/null when `no_stderr`. `group`: -1 this process's
// group, 0 a new group led by the child, else that group (its pgid).
struct Child {
    std::string name;
    pid_t pid = -1;
    int status = 0;
    bool done = false;
};

Child spawn(const std::string& name, const std::vector<std::string>& args, int in, int out, bool no_stderr = false,
            pid_t group = -1);

// Notes the children that ended (without blocking); true while any runs.
bool reap(std::vector<Child>& kids);

// Waits for every child, calling `tick` about once a second. A signal to
// this process does not end the wait: the children end on their own (those
// in this process group received it too).
void wait_all(std::vector<Child>& kids, const std::function<void()>& tick = {});

// The exit code of a child that ended (128 + the signal that killed it).
int exit_code_of(const Child& c);

// Starts a tool with stdout to `out_path` (created or truncated; empty:
// inherited), in `group` as spawn() takes it.
Child start_to_file(const std::string& name, const std::vector<std::string>& args, const std::string& out_path,
                    bool no_stderr = false, pid_t group = -1);

// Runs a tool to completion with stdout to `out_path` (empty: inherited),
// in `group` as spawn() takes it.
int run_to_file(const std::string& name, const std::vector<std::string>& args, const std::string& out_path,
                bool no_stderr = false, pid_t group = -1);

}  // namespace frontier
