// frontier-import's rows (import_session.hpp).

#include "frontier/import_session.hpp"

#include <chrono>

#include "core/output.hpp"
#include "json/json.hpp"
#include "store/export_format.hpp"

namespace frontier {

ImportSession::ImportSession(ImportBackend& backend, RecordSource& input, SessionSink& sink,
                             ImportSessionOptions o)
    : backend_(backend), input_(input), sink_(sink), o_(std::move(o)) {
    for (const ExportTable& t : export_tables()) imported.emplace_back(t.name, 0);
}

ImportSession::ImportSession(Store& store, RowImporter& importer, RecordSource& input, SessionSink& sink,
                             ImportSessionOptions o)
    : own_backend_(std::make_unique<StoreImportBackend>(store, importer)),
      backend_(*own_backend_),
      input_(input),
      sink_(sink),
      o_(std::move(o)) {
    for (const ExportTable& t : export_tables()) imported.emplace_back(t.name, 0);
}

std::vector<std::string> ImportSession::run() {
    backend_.begin();
    std::vector<std::string> used = backend_.non_empty_tables();
    if (!used.empty()) {
        backend_.rollback();
        return used;
    }
    read_rows();
    return {};
}

// The rows, committed every --batch rows or once the held rejections pass
// HeldOutput::kMaxHeldOutput.
void ImportSession::read_rows() {
    auto last = std::chrono::steady_clock::now();
    while (!o_.stop() && input_.next(line_)) {
        read_line();
        if (in_batch_ >= o_.batch || out().size() >= HeldOutput::kMaxHeldOutput) {
            backend_.commit();
            sink_.flush();
            in_batch_ = 0;
            backend_.begin();
        }
        if (o_.progress && (++rows_ & 0xffff) == 0) {
            auto t = std::chrono::steady_clock::now();
            if (t - last >= std::chrono::seconds(1)) {
                sink_.message(std::to_string(rows_) + " lines read");
                last = t;
            }
        }
    }
    backend_.commit();
    sink_.flush();
}

void ImportSession::read_line() {
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
    } else if (std::string clash = backend_.insert(row_); !clash.empty()) {
        reject({"conflict", row_.table->name, "", clash});
    } else {
        ++slot(row_.table);
        ++in_batch_;
    }
}

int64_t& ImportSession::slot(const ExportTable* t) {
    for (auto& c : imported)
        if (c.first == t->name) return c.second;
    return imported.back().second;  // not reached: every table has a slot
}

void ImportSession::reject(const Rejection& r) {
    ++rejected;
    if (o_.quiet) return;
    JsonWriter w;
    w.begin();
    w.field("line", static_cast<int64_t>(line_.line_no));
    w.field("status", "rejected");
    w.field("reason", r.reason);
    if (!r.table.empty()) w.field("table", r.table);
    if (!r.field.empty()) w.field("field", r.field);
    if (!r.detail.empty()) w.field("detail", r.detail);
    w.end();
    sink_.line(w.str());
}

}  // namespace frontier
