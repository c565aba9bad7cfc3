// The runner every tool's main() uses: CLI11 parsing, common options,
// signal handling, exception-to-exit-code mapping and the stdout check.
//
//   int main(int argc, char** argv) {
//       Opts o;
//       return frontier::run_tool("frontier-add", argc, argv,
//           [&](CLI::App& app) { ...add options... },
//           [&]() { return run_add(o); });
//   }
//
// Exit codes: the run function's value; 2 for usage errors (CLI11 or
// UsageError), 1 for IoError/DbError/other exceptions, 0 on BrokenPipe.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace frontier {

struct CommonOptions {
    std::string frontier;  // -f/--frontier; resolved by frontier_path()
    bool quiet = false;
    bool verbose = false;
    bool progress = false;
    bool no_progress = false;  // --no-progress: none even on a terminal (frontier-crawl draws its own)
};

// Progress lines on stderr: with --progress, or on a terminal unless -q or
// --no-progress.
bool show_progress(const CommonOptions& opts);

// Adds -f/--frontier, -q/--quiet, -v/--verbose and --progress.
void add_common_options(CLI::App& app, CommonOptions& opts, bool with_frontier = true);

// The frontier path: the option, else $FRONTIER, else "./frontier.db".
std::string frontier_path(const CommonOptions& opts);

// The toolkit's version alone ("0.1.0").
std::string toolkit_version();

// "frontier-add 0.1.0 (SQLite 3.40.1, libcurl 7.88.1, simdjson 3.0.1)"
std::string version_string(const std::string& tool);

// Parses argv with `setup`'s options, then calls `run`. Parsing does no I/O
// beyond CLI11's own. `example` (indented lines: "# what" then the command)
// ends --help under "Examples:", after a pointer to the man pages.
int run_tool(const std::string& name, int argc, char** argv,
             const std::function<void(CLI::App&)>& setup,
             const std::function<int()>& run,
             const std::string& description = "",
             const std::string& example = "");

// True when fd 2 is a terminal (progress lines are shown only then, or with --progress).
bool stderr_is_tty();

}  // namespace frontier
