// Child processes of a tool (frontier-crawl runs the other tools): spawned
// with their standard input and output redirected, waited for together, and
// told to stop at SIGINT/SIGTERM.
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
// standard error to /dev/null when `no_stderr`.
struct Child {
    std::string name;
    pid_t pid = -1;
    int status = 0;
    bool done = false;
};

Child spawn(const std::string& name, const std::vector<std::string>& args, int in, int out, bool no_stderr = false);

// Waits for every child, calling `tick` about once a second. On SIGINT/SIGTERM
// the pipeline's head is told to stop (a terminal's ^C reaches all of them
// anyway): frontier-lease stops leasing, fetch finishes what it holds,
// frontier-done records it.
void wait_all(std::vector<Child>& kids, const std::function<void()>& tick = {});

// The exit code of a child that ended (128 + the signal that killed it).
int exit_code_of(const Child& c);

// Runs a tool to completion with stdout to `out_path` (empty: inherited).
int run_to_file(const std::string& name, const std::vector<std::string>& args, const std::string& out_path,
                bool no_stderr = false);

}  // namespace frontier
