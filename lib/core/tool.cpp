#include "core/tool.hpp"

#include <cstdlib>
#include <simdjson.h>
#include <sqlite3.h>
#include <unistd.h>

#include "core/error.hpp"
#include "core/ondemand.hpp"
#include "core/output.hpp"
#include "core/signals.hpp"

#ifndef FRONTIER_VERSION
#define FRONTIER_VERSION "0.1.0"
#endif

namespace frontier {

namespace {

// What -q, -v and --progress do in each tool, for --help; "" where a flag
// does nothing there: it is still accepted (scripts pass it to every tool)
// but not offered.
struct CommonHelp {
    const char* tool;
    const char* quiet;
    const char* verbose;
    const char* progress;
};
const CommonHelp kCommonHelp[] = {
    {"frontier-add", "no result lines and no summary", "", ""},
    {"frontier-lease", "no messages on stderr (leases are still printed)", "",
     "progress lines on stderr with --follow, even when it is not a terminal"},
    {"frontier-done", "no output lines (results are still applied)", "the summary on stderr at the end",
     "progress lines on stderr even when it is not a terminal"},
    {"frontier-config", "", "", ""},
    {"frontier-budget", "with --apply: no lines for skipped report rows; no notes", "say how many queues --unretire moved", ""},
    {"frontier-report", "", "", ""},
    {"frontier-export", "no summary on stderr", "", "progress lines on stderr even when it is not a terminal"},
    {"frontier-import", "no rejection lines and no summary", "", "progress lines on stderr even when it is not a terminal"},
    {"fetch", "no summary line and no progress", "also report each host marked down",
     "progress lines on stderr even when it is not a terminal"},
    {"frontier-crawl", "no messages on stderr (errors excepted)", "",
     "the crawl's progress line even when stderr is not a terminal"},
};

}  // namespace

void add_common_options(CLI::App& app, CommonOptions& opts, bool with_frontier) {
    if (with_frontier)
        app.add_option("-f,--frontier", opts.frontier,
                       "frontier file (default: $FRONTIER, else ./frontier.db)");
    CommonHelp help{"", "print no per-record output or summary", "more diagnostics on stderr",
                    "progress lines on stderr even when it is not a terminal"};
    for (const CommonHelp& h : kCommonHelp)
        if (tool_name() == h.tool) help = h;
    auto flag = [&](const char* names, bool& value, const char* text) {
        CLI::Option* o = app.add_flag(names, value, *text ? text : "no effect in this tool");
        if (!*text) o->group("");  // accepted, not offered
    };
    flag("-q,--quiet", opts.quiet, help.quiet);
    flag("-v,--verbose", opts.verbose, help.verbose);
    flag("--progress", opts.progress, help.progress);
    if (*help.progress) app.add_flag("--no-progress", opts.no_progress, "no progress lines, even on a terminal")->group("");
}

bool show_progress(const CommonOptions& opts) {
    return opts.progress || (stderr_is_tty() && !opts.quiet && !opts.no_progress);
}

std::string frontier_path(const CommonOptions& opts) {
    if (!opts.frontier.empty()) return opts.frontier;
    if (const char* env = std::getenv("FRONTIER"); env && *env) return env;
    return "./frontier.db";
}

std::string toolkit_version() { return FRONTIER_VERSION; }

std::string version_string(const std::string& tool) {
    std::string v = tool + " " + FRONTIER_VERSION + " (SQLite " + sqlite3_libversion();
    // --version names the libraries loaded on demand too (lib/core/ondemand.hpp).
    auto loaded = [](const auto& load) -> std::string {
        try {
            return load();
        } catch (const IoError& e) {
            return std::string("not loadable: ") + e.what();
        }
    };
    v += ", libcurl " + loaded([] { return std::string(curl_api().curl_version_info(CURLVERSION_NOW)->version); });
    v += ", simdjson " + std::to_string(simdjson::SIMDJSON_VERSION_MAJOR) + "." + std::to_string(simdjson::SIMDJSON_VERSION_MINOR) + "." + std::to_string(simdjson::SIMDJSON_VERSION_REVISION);
    v += ", libpq " + loaded([] {
        int n = pq_api().PQlibVersion();
        return std::to_string(n / 10000) + "." + std::to_string(n % 10000);
    }) + ")";
    return v;
}

bool stderr_is_tty() { return ::isatty(2) == 1; }

namespace {

// Each tool's exit codes, for --help (the man pages' EXIT STATUS in short).
std::string exit_status_help(const std::string& tool) {
    static const std::pair<const char*, const char*> kCodes[] = {
        {"frontier-add", "0 all processed (out of scope is data); 1 some bad input (the rest added), nothing accepted at "
                         "all, or an error; 2 usage"},
        {"frontier-lease", "0 leases emitted, or --follow finished; 1 error; 2 usage; 3 nothing ready now, work remains; "
                           "4 paused at finish (budgets); 5 finished, nothing left"},
        {"frontier-done", "0 all applied or stale; 1 some record rejected (the rest applied) or an error; 2 usage"},
        {"frontier-config", "0 success; 1 error (missing file, database); 2 usage or a bad value (nothing written)"},
        {"frontier-budget", "0 shown or applied; 1 a rejected --apply line, no such queue or domain (see --create), or "
                            "an error; 2 usage or a bad value"},
        {"frontier-report", "0 printed; 1 error, or --check found a violation; 2 usage"},
        {"frontier-export", "0 the whole stream written; 1 error, or text that was not UTF-8; 2 usage"},
        {"frontier-import", "0 imported and checked; 1 rejected lines, a cut-off stream, a failed check or an error; 2 usage"},
        {"fetch", "0 all input valid (failed fetches are data); 1 some bad input or an error; 2 usage"},
        {"frontier-crawl", "0 finished (or stopped by a signal); 1 error; 2 usage; 4 paused at finish (budgets)"},
    };
    for (auto& [name, codes] : kCodes)
        if (tool == name)
            return std::string("Exit status: ") + codes +
                   (tool == "fetch" ? "" : "; 75 lost the PostgreSQL connection (run again)") + "\n\n";
    return "";
}

}  // namespace

int run_tool(const std::string& name, int argc, char** argv,
             const std::function<void(CLI::App&)>& setup,
             const std::function<int()>& run,
             const std::string& description,
             const std::string& example) {
    set_tool_name(name);
    install_signal_handlers();
    CLI::App app(description, name);
    app.set_version_flag("-V,--version", [name] { return version_string(name); }, "print version and library versions");
    if (!example.empty())
        app.footer("Manual: man " + name + "; concepts: man 7 frontier\n\n" + exit_status_help(name) + "Examples:\n" +
                   example);
    setup(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        diag(e.what());
        diag("Try '" + name + " --help'.");
        return 2;
    }
    int rc = 1;
    try {
        rc = run();
        out().flush();
    } catch (const BrokenPipe&) {
        return 0;
    } catch (const UsageError& e) {
        try { out().flush(); } catch (...) {}
        diag(e.what());
        diag("Try '" + name + " --help'.");
        return 2;
    } catch (const ConnectionLost& e) {
        try { out().flush(); } catch (...) {}
        diag(e.what());
        return kExitConnectionLost;
    } catch (const std::exception& e) {
        try { out().flush(); } catch (...) {}
        diag(e.what());
        return 1;
    }
    return rc;
}

}  // namespace frontier
