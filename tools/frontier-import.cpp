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

// The header first: a stream that is not an export creates nothing. False
// (said) when the first line is not a header this version reads.
bool read_header(LineReader& reader, InputLine& line, ExportHeader& header) {
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

// Whether the target already holds data (said; the transaction is rolled
// back): frontier-import fills a new frontier only.
bool target_in_use(Store& store, RowImporter& importer, const std::string& path) {
    auto used = importer.non_empty_tables();
    if (used.empty()) return false;
    store.rollback();
    std::string what;
    for (auto& u : used) what += (what.empty() ? "" : ", ") + u;
    diag(frontier_display_name(path) + " is not empty (" + what +
         "): frontier-import fills a new frontier file only; nothing was imported");
    return true;
}

// The rows read after the header, committed every --batch rows.
class RowReader {
public:
    RowReader(const ImportOptions& o, LineReader& reader, InputLine& line, Store& store, RowImporter& importer)
        : o_(o), reader_(reader), line_(line), store_(store), importer_(importer),
          progress_(o.common.progress || (stderr_is_tty() && !o.common.no_progress)),
          last_(std::chrono::steady_clock::now()) {
        for (const ExportTable& t : export_tables()) imported.emplace_back(t.name, 0);
    }

    void run() {
        while (!stop_requested() && reader_.next(line_)) {
            read_line();
            if (in_batch_ >= o_.batch || out().size() >= HeldOutput::kMaxHeldOutput) {
                store_.commit();
                out().flush();
                in_batch_ = 0;
                store_.begin();
            }
            if (progress_ && (++rows_ & 0xffff) == 0) {
                auto t = std::chrono::steady_clock::now();
                if (t - last_ >= std::chrono::seconds(1)) {
                    diag(std::to_string(rows_) + " lines read");
                    last_ = t;
                }
            }
        }
        store_.commit();
        out().flush();
    }

    RowCounts imported;
    int64_t rejected = 0;
    bool end_seen = false;
    Record end;

private:
    void read_line() {
        if (!line_.error.empty()) {
            reject({line_.error});
        } else if (end_seen) {
            reject({"after-end"});
        } else if (is_export_header(line_.record)) {
            reject({"unexpected-header"});
        } else if (is_export_end(line_.record)) {
            end_seen = true;
            end = line_.record;
        } else if (RowProblem p = decode_row(line_.record, row_); !p.reason.empty()) {
            const JsonValue* t = line_.record.find("table");
            reject({p.reason, t && t->kind == JsonValue::Kind::string ? t->s : "", p.field});
        } else if (std::string clash = importer_.insert(row_); !clash.empty()) {
            reject({"conflict", row_.table->name, "", clash});
        } else {
            ++slot(row_.table);
            ++in_batch_;
        }
    }

    int64_t& slot(const ExportTable* t) {
        for (auto& c : imported)
            if (c.first == t->name) return c.second;
        return imported.back().second;  // not reached: every table has a slot
    }

    void reject(const Rejection& r) {
        ++rejected;
        if (!o_.common.quiet) print_rejection(line_.line_no, r);
    }

    const ImportOptions& o_;
    LineReader& reader_;
    InputLine& line_;
    Store& store_;
    RowImporter& importer_;
    ImportRow row_;
    int64_t in_batch_ = 0, rows_ = 0;
    const bool progress_;
    std::chrono::steady_clock::time_point last_;
};

// After the rows: the summary, what went wrong, and the exit code.
int finish_import(const ImportOptions& o, const std::string& path, const RowReader& rows,
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
    LineReader reader(o.inputs.empty() ? std::vector<std::string>{"-"} : o.inputs, kMaxImportLine);
    InputLine line;
    ExportHeader header;
    if (!read_header(reader, line, header)) return 1;

    std::string path = frontier_path(o.common);
    Store store(path, Store::Mode::create);
    RowImporter importer(store);
    store.begin();
    if (target_in_use(store, importer, path)) return 1;

    RowReader rows(o, reader, line, store, importer);
    HeldOutput held;  // rejection records are printed once their batch is committed
    rows.run();

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
