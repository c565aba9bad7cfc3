// frontier-import's rows (frontier-import(1)): the lines after the header,
// inserted into a frontier that holds no data yet in transactions of
// --batch rows, each rejection printed once its batch is committed. The
// frontier is reached through ImportBackend, so tests can use a stand-in.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontier/session_io.hpp"
#include "store/store.hpp"
#include "store/store_export.hpp"

namespace frontier {

class ImportBackend {
public:
    virtual ~ImportBackend() = default;
    virtual void begin() = 0;
    virtual void commit() = 0;
    virtual void rollback() = 0;
    // The data tables that already hold rows (RowImporter::non_empty_tables).
    virtual std::vector<std::string> non_empty_tables() = 0;
    // Inserts one row; the clash's message when refused (RowImporter::insert).
    virtual std::string insert(const ImportRow& row) = 0;
};

// ImportBackend over a Store, through a RowImporter.
class StoreImportBackend : public ImportBackend {
public:
    StoreImportBackend(Store& store, RowImporter& importer) : store_(store), importer_(importer) {}
    void begin() override { store_.begin(); }
    void commit() override { store_.commit(); }
    void rollback() override { store_.rollback(); }
    std::vector<std::string> non_empty_tables() override { return importer_.non_empty_tables(); }
    std::string insert(const ImportRow& row) override { return importer_.insert(row); }

private:
    Store& store_;
    RowImporter& importer_;
};

struct ImportSessionOptions {
    int64_t batch = 100000;  // rows per transaction
    bool quiet = false;      // no rejection lines
    bool progress = false;   // "N lines read" about every second
    StopCheck stop = signal_stop();
};

class ImportSession {
public:
    ImportSession(ImportBackend& backend, RecordSource& input, SessionSink& sink, ImportSessionOptions o);
    // Over `store`, through `importer` (StoreImportBackend).
    ImportSession(Store& store, RowImporter& importer, RecordSource& input, SessionSink& sink,
                  ImportSessionOptions o);

    // The data tables of a target that is not empty (nothing is then
    // written: frontier-import fills a new frontier only); empty otherwise,
    // and then every row is read and committed.
    std::vector<std::string> run();

    RowCounts imported;     // rows per table
    int64_t rejected = 0;   // lines rejected
    bool end_seen = false;  // the end line was read
    Record end;             // and this is it

private:
    struct Rejection {
        std::string reason, table, field, detail;
    };
    void read_rows();
    void read_line();
    int64_t& slot(const ExportTable* t);
    void reject(const Rejection& r);

    std::unique_ptr<ImportBackend> own_backend_;  // the second constructor's
    ImportBackend& backend_;
    RecordSource& input_;
    SessionSink& sink_;
    const ImportSessionOptions o_;
    InputLine line_;
    ImportRow row_;
    int64_t in_batch_ = 0, rows_ = 0;
};

}  // namespace frontier
