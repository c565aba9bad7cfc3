// frontier-import: a frontier-export stream into a new frontier file.
//
// frontier-import: a frontier-export stream into a new frontier file, then
// the invariant check of `frontier-report --check` (lib/store/store_check.hpp).

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/output.hpp"
#include "core/signals.hpp"
#include "core/tool.hpp"
#include "frontier/check_json.hpp"
#include "frontier/import_session.hpp"
#include "json/json.hpp"
#include "store/export_format.hpp"
#include "store/store_check.hpp"

namespace frontier {

struct ImportOptions {
    CommonOptions common;
    std::vector<std::string> inputs;  // one file, "-" = stdin (default)
    int64_t batch = 100000;           // rows per transaction
};
// Reads a frontier-export stream into a frontier that holds no data yet,
// then checks its invariants. Exit 0; 1 when a line was rejected, the
// stream was cut off, the check failed, the target was not empty or the
// header was refused (nothing imported in the last two cases).
int run_import(const ImportOptions& o);

namespace {

// Longest line read: a URL row holds the URL, `via` and `meta` (each from a
// line of at most 1 MiB; `meta` is written as a string, so its quotes are
// escaped) and a host row up to 500 KiB of robots.txt rules, escaped. The
// reader's buffer is this size, so it is most of the tool's own memory.
constexpr size_t kMaxImportLine = 8u << 20;

void print_summary(const RowCounts& imported, int64_t rejected, bool complete, const CheckResult& c) {
    JsonWriter w;
    w.begin();
    w.field("total", write_row_counts(w, "imported", imported));
    w.field("rejected", rejected);
    w.field("complete", complete);
    w.key("check");
    w.begin_object();
    write_check_fields(w, c);
    w.end_object();
    w.end();
    out().write_line(w.str());
}

// The header first: a stream that is not an export creates nothing. False
// (said) when the first line is not a header this version reads.
bool read_header(RecordSource& reader, InputLine& line, ExportHeader& header) {
    if (!reader.next(line)) {
        diag("the input is empty: no frontier-export header; nothing was imported");
        return false;
    }
    std::string bad =
        !line.error.empty() ? "the first line is not a frontier-export header (" + line.error + ")"
        : !is_export_header(line.record) ? "not a frontier-export stream: the first line must be its header "
                                           "{\"format\":\"frontier-export\",...}"
                                         : read_export_header(line.record, kSchemaVersion, header);
    if (!bad.empty()) {
        diag(bad + "; nothing was imported");
        return false;
    }
    return true;
}

// A target that already holds data (said): frontier-import fills a new
// frontier only.
void say_target_in_use(const std::string& path, const std::vector<std::string>& used) {
    std::string what;
    for (auto& u : used) what += (what.empty() ? "" : ", ") + u;
    diag(frontier_display_name(path) + " is not empty (" + what +
         "): frontier-import fills a new frontier file only; nothing was imported");
}

// After the rows: the summary, what went wrong, and the exit code.
int finish_import(const ImportOptions& o, const std::string& path, const ImportSession& rows,
                  const std::vector<std::string>& problems, const CheckResult& check) {
    if (!o.common.quiet) {
        print_summary(rows.imported, rows.rejected, problems.empty(), check);
        out().flush();
    }
    for (auto& p : problems) diag(p);
    int64_t total = 0, violations = 0;
    for (auto& c : rows.imported) total += c.second;
    for (auto& c : check.checks) violations += c.second;
    if (!o.common.quiet)
        diag(std::to_string(total) + " rows imported into " + frontier_display_name(path) + ", " +
             std::to_string(rows.rejected) + " rejected; check " + (check.ok() ? "ok" : "FAILED"));
    for (auto& v : check.violations) diag("check " + v.check + ": " + v.detail);
    if (!check.ok())
        diag(frontier_display_name(path) + " violates " + std::to_string(violations) + " invariant" +
             (violations == 1 ? "" : "s") + " (frontier-report --check)");
    return rows.rejected > 0 || !problems.empty() || !check.ok() ? 1 : 0;
}

}  // namespace

int run_import(const ImportOptions& o) {
    if (o.inputs.size() > 1) throw UsageError("frontier-import reads one stream (a FILE or -)");
    if (o.batch < 1) throw UsageError("--batch must be 1 or more");
    ReaderSource reader(o.inputs, kMaxImportLine);
    InputLine line;
    ExportHeader header;
    if (!read_header(reader, line, header)) return 1;

    std::string path = frontier_path(o.common);
    Store store(path, Store::Mode::create);
    RowImporter importer(store);
    StdoutSink sink(true);  // rejection records are printed once their batch is committed
    ImportSessionOptions so;
    so.batch = o.batch;
    so.quiet = o.common.quiet;
    so.progress = o.common.progress || (stderr_is_tty() && !o.common.no_progress);
    ImportSession rows(store, importer, reader, sink, so);
    if (std::vector<std::string> used = rows.run(); !used.empty()) {
        say_target_in_use(path, used);
        return 1;
    }

    std::vector<std::string> problems;
    if (stop_requested())
        problems.push_back("interrupted: the import is incomplete");
    else if (!rows.end_seen)
        problems.push_back("the stream has no end line: it was cut off, the import is incomplete");
    else
        problems = check_export_end(rows.end, rows.imported);

    importer.finish();
    // The check runs at the snapshot's time: a lease that was valid in the
    // exported file is valid in the copy.
    CheckResult check = check_frontier(store, header.exported_at > 0 ? header.exported_at : frontier::now());
    return finish_import(o, path, rows, problems, check);
}

}  // namespace frontier

int main(int argc, char** argv) {
    frontier::ImportOptions o;
    return frontier::run_tool(
        "frontier-import", argc, argv,
        [&](CLI::App& app) {
            frontier::add_common_options(app, o.common);
            app.add_option("--batch", o.batch, "rows per transaction (default 100000)")
                ->check(CLI::PositiveNumber);
            app.add_option("input", o.inputs, "the frontier-export stream (default: stdin; - = stdin)");
        },
        [&] { return frontier::run_import(o); },
        "Read a frontier-export stream into a new, empty frontier file, then check its invariants.",
        "  # copy a frontier\n"
        "  frontier-export -f crawl.db | frontier-import -f copy.db\n"
        "  # restore a compressed backup\n"
        "  gunzip -c crawl.jsonl.gz | frontier-import -f crawl.db");
}
