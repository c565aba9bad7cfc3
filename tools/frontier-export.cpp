// frontier-export: the whole frontier as JSON lines, for frontier-import.
//
// frontier-export: the whole frontier as JSON lines (lib/store/export_format.hpp),
// to stdout or to a file written beside its name and renamed when complete.

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "store/export_format.hpp"
#include "core/output.hpp"
#include "store/store.hpp"
#include "store/store_export.hpp"
#include "core/tool.hpp"

namespace frontier {

struct ExportOptions {
    CommonOptions common;
    std::string output;  // -o/--output FILE (written beside and renamed); empty or "-" = stdout
    bool urls = false;   // --urls: one line per URL for analysis, not the whole frontier
    bool csv = false;    // --csv (with --urls): CSV instead of JSON lines
};
// Writes the whole frontier as JSON lines (lib/store/export_format.hpp). Exit 0,
// or 1 when a text value was not valid UTF-8 (written with U+FFFD).
int run_export(const ExportOptions& o);

namespace {

// Lines to FILE.tmp, renamed to FILE by finish(); removed when destroyed
// unfinished, so a cut-off export never has the final name.
class FileSink {
public:
    explicit FileSink(std::string path) : path_(std::move(path)), tmp_(path_ + ".tmp") {
        f_ = std::fopen(tmp_.c_str(), "wb");
        if (!f_) throw IoError("cannot write " + tmp_ + ": " + std::strerror(errno));
        std::setvbuf(f_, nullptr, _IOFBF, 1 << 20);
    }
    ~FileSink() {
        if (f_) {
            std::fclose(f_);
            std::remove(tmp_.c_str());
        }
    }
    void write(std::string_view line) {
        if (std::fwrite(line.data(), 1, line.size(), f_) != line.size() || std::fputc('\n', f_) == EOF)
            throw IoError("cannot write " + tmp_ + ": " + std::strerror(errno));
    }
    void finish() {
        int rc = std::fflush(f_);
        if (rc == 0 && ::fsync(::fileno(f_)) != 0) rc = -1;  // on disk before it takes the final name
        int err = errno;
        if (std::fclose(f_) != 0 || rc != 0) {
            f_ = nullptr;
            std::remove(tmp_.c_str());
            throw IoError("cannot write " + tmp_ + ": " + std::strerror(rc ? err : errno));
        }
        f_ = nullptr;
        if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
            int e = errno;
            std::remove(tmp_.c_str());
            throw IoError("cannot rename " + tmp_ + " to " + path_ + ": " + std::strerror(e));
        }
    }

private:
    std::string path_, tmp_;
    FILE* f_ = nullptr;
};

int64_t count_of(const RowCounts& counts, std::string_view table) {
    for (auto& [t, n] : counts)
        if (t == table) return n;
    return 0;
}

// The closing line: rows per table, and where they went.
void say_counts(const RowCounts& counts, const std::string& where) {
    int64_t total = 0;
    for (auto& c : counts) total += c.second;
    diag(std::to_string(total) + " rows: " + std::to_string(count_of(counts, "urls")) + " URLs, " +
         std::to_string(count_of(counts, "queues")) + " queues, " + std::to_string(count_of(counts, "hosts")) +
         " hosts" + where);
}

}  // namespace

int run_export(const ExportOptions& o) {
    if (o.csv && !o.urls) throw UsageError("--csv goes with --urls (the full export is JSON lines only)");
    std::string path = frontier_path(o.common);
    Store store(path, Store::Mode::read);
    std::unique_ptr<FileSink> file;
    if (!o.output.empty() && o.output != "-") file = std::make_unique<FileSink>(o.output);

    bool progress = o.common.progress || (stderr_is_tty() && !o.common.no_progress);
    int64_t rows = 0;
    auto last = std::chrono::steady_clock::now();
    auto line = [&](std::string_view l) {
        if (file)
            file->write(l);
        else
            out().write_line(l);
        if (progress && (++rows & 0xffff) == 0) {
            auto t = std::chrono::steady_clock::now();
            if (t - last >= std::chrono::seconds(1)) {
                diag(std::to_string(rows) + " rows written");
                last = t;
            }
        }
    };

    if (o.urls) {
        int64_t n = export_url_table(store, o.csv, line);
        if (file)
            file->finish();
        else
            out().flush();
        if (!o.common.quiet)
            diag(std::to_string(n) + " URLs" + (file ? " written to " + o.output : std::string()));
        return 0;
    }
    ExportHeader h;
    h.schema_version = kSchemaVersion;
    h.tool_version = toolkit_version();
    h.exported_at = frontier::now();
    line(export_header_line(h));
    int64_t invalid_utf8 = 0;
    RowCounts counts = export_rows(store, line, invalid_utf8);
    line(export_end_line(counts));
    if (file)
        file->finish();
    else
        out().flush();

    if (!o.common.quiet) say_counts(counts, file ? " written to " + o.output : std::string());
    if (invalid_utf8 > 0) {
        diag(std::to_string(invalid_utf8) +
             " text values were not valid UTF-8 and were written with U+FFFD: the export is not exact");
        return 1;
    }
    return 0;
}

}  // namespace frontier

int main(int argc, char** argv) {
    frontier::ExportOptions o;
    return frontier::run_tool(
        "frontier-export", argc, argv,
        [&](CLI::App& app) {
            frontier::add_common_options(app, o.common);
            app.add_option("-o,--output", o.output,
                           "write to FILE (created beside it and renamed when complete) instead of stdout");
            app.add_flag("--urls", o.urls,
                         "one line per URL for analysis (url, state, reason, queue, depth, status, ...) instead of "
                         "the whole frontier");
            app.add_flag("--csv", o.csv, "with --urls: CSV with a header line instead of JSON lines");
        },
        [&] { return frontier::run_export(o); },
        "Write the whole frontier (settings, budgets, queues, hosts, URLs with their leases) as JSON lines, "
        "from one consistent snapshot.",
        "  # copy a frontier, even while a crawl runs on it\n"
        "  frontier-export -f crawl.db | frontier-import -f copy.db\n"
        "  # a compressed backup\n"
        "  frontier-export -f crawl.db | gzip > crawl.jsonl.gz");
}
