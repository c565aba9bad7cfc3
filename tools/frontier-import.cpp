// frontier-import: a frontier-export stream into a new frontier file.
//
// frontier-import: a frontier-export stream into a new frontier file, then
// the invariant check of `frontier-report --check` (lib/store/store_check.hpp).

#include <chrono>

#include "core/clock.hpp"
#include "frontier/check_json.hpp"
#include "core/error.hpp"
#include "store/export_format.hpp"
#include "json/json.hpp"
#include "core/output.hpp"
#include "core/signals.hpp"
#include "store/store.hpp"
#include "store/store_check.hpp"
#include "store/store_export.hpp"
#include "core/tool.hpp"

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

struct Rejection {
    std::string reason, table, field, detail;
};

void print_rejection(uint64_t line_no, const Rejection& r) {
    JsonWriter w;
    w.begin();
    w.field("line", static_cast<int64_t>(line_no));
    w.field("status", "rejected");
    w.field("reason", r.reason);
    if (!r.table.empty()) w.field("table", r.table);
    if (!r.field.empty()) w.field("field", r.field);
    if (!r.detail.empty()) w.field("detail", r.detail);
    w.end();
    out().write_line(w.str());
}

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

}  // namespace

int run_import(const ImportOptions& o) {
    if (o.inputs.size() > 1) throw UsageError("frontier-import reads one stream (a FILE or -)");
    if (o.batch < 1) throw UsageError("--batch must be 1 or more");
    LineReader reader(o.inputs.empty() ? std::vector<std::string>{"-"} : o.inputs, kMaxImportLine);
    InputLine line;

    // The header first: a stream that is not an export creates nothing.
    ExportHeader header;
    if (!reader.next(line)) {
        diag("the input is empty: no frontier-export header; nothing was imported");
        return 1;
    }
    std::string bad =
        !line.error.empty() ? "the first line is not a frontier-export header (" + line.error + ")"
        : !is_export_header(line.record) ? "not a frontier-export stream: the first line must be its header "
                                           "{\"format\":\"frontier-export\",...}"
                                         : read_export_header(line.record, kSchemaVersion, header);
    if (!bad.empty()) {
        diag(bad + "; nothing was imported");
        return 1;
    }

    std::string path = frontier_path(o.common);
    Store store(path, Store::Mode::create);
    RowImporter importer(store);
    store.begin();
    if (auto used = importer.non_empty_tables(); !used.empty()) {
        store.rollback();
        std::string what;
        for (auto& u : used) what += (what.empty() ? "" : ", ") + u;
        diag(frontier_display_name(path) + " is not empty (" + what +
             "): frontier-import fills a new frontier file only; nothing was imported");
        return 1;
    }

    RowCounts imported;
    for (const ExportTable& t : export_tables()) imported.emplace_back(t.name, 0);
    auto slot = [&](const ExportTable* t) -> int64_t& {
        for (auto& c : imported)
            if (c.first == t->name) return c.second;
        return imported.back().second;  // not reached: every table has a slot
    };
    int64_t rejected = 0, in_batch = 0, rows = 0;
    bool end_seen = false;
    Record end;
    ImportRow row;
    bool progress = o.common.progress || (stderr_is_tty() && !o.common.no_progress);
    auto last = std::chrono::steady_clock::now();
    HeldOutput held;  // rejection records are printed once their batch is committed
    auto reject = [&](const Rejection& r) {
        ++rejected;
        if (!o.common.quiet) print_rejection(line.line_no, r);
    };
    while (!stop_requested() && reader.next(line)) {
        if (!line.error.empty()) {
            reject({line.error});
        } else if (end_seen) {
            reject({"after-end"});
        } else if (is_export_header(line.record)) {
            reject({"unexpected-header"});
        } else if (is_export_end(line.record)) {
            end_seen = true;
            end = line.record;
        } else if (RowProblem p = decode_row(line.record, row); !p.reason.empty()) {
            const JsonValue* t = line.record.find("table");
            reject({p.reason, t && t->kind == JsonValue::Kind::string ? t->s : "", p.field});
        } else if (std::string clash = importer.insert(row); !clash.empty()) {
            reject({"conflict", row.table->name, "", clash});
        } else {
            ++slot(row.table);
            ++in_batch;
        }
        if (in_batch >= o.batch || out().size() >= HeldOutput::kMaxHeldOutput) {
            store.commit();
            out().flush();
            in_batch = 0;
            store.begin();
        }
        if (progress && (++rows & 0xffff) == 0) {
            auto t = std::chrono::steady_clock::now();
            if (t - last >= std::chrono::seconds(1)) {
                diag(std::to_string(rows) + " lines read");
                last = t;
            }
        }
    }
    store.commit();
    out().flush();

    std::vector<std::string> problems;
    if (stop_requested())
        problems.push_back("interrupted: the import is incomplete");
    else if (!end_seen)
        problems.push_back("the stream has no end line: it was cut off, the import is incomplete");
    else
        problems = check_export_end(end, imported);

    importer.finish();
    // The check runs at the snapshot's time: a lease that was valid in the
    // exported file is valid in the copy.
    CheckResult check = check_frontier(store, header.exported_at > 0 ? header.exported_at : frontier::now());
    if (!o.common.quiet) {
        print_summary(imported, rejected, problems.empty(), check);
        out().flush();
    }
    for (auto& p : problems) diag(p);
    int64_t total = 0, violations = 0;
    for (auto& c : imported) total += c.second;
    for (auto& c : check.checks) violations += c.second;
    if (!o.common.quiet)
        diag(std::to_string(total) + " rows imported into " + frontier_display_name(path) + ", " + std::to_string(rejected) +
             " rejected; check " + (check.ok() ? "ok" : "FAILED"));
    for (auto& v : check.violations) diag("check " + v.check + ": " + v.detail);
    if (!check.ok())
        diag(frontier_display_name(path) + " violates " + std::to_string(violations) + " invariant" + (violations == 1 ? "" : "s") +
             " (frontier-report --check)");
    return rejected > 0 || !problems.empty() || !check.ok() ? 1 : 0;
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
