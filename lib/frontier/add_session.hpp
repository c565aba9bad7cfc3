// frontier-add's run loop (frontier-add(1)): records in, one result line per
// record out, committed in transactions of --batch records (or a second of
// work, or whatever has arrived when the input pauses). No transaction is
// open while it waits for input.
//
// Two stages overlap: while one chunk of records is stored and its results
// printed, a helper thread reads, parses, canonicalises, scopes and scores
// the next (AddBackend::prepare touches no database). Storing and output
// stay in input order. The frontier is reached through AddBackend, so tests
// can run the loop over a stand-in.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "frontier/enqueue.hpp"
#include "frontier/session_io.hpp"
#include "json/json.hpp"
#include "store/store.hpp"

namespace frontier {

// What an add session needs of the frontier.
class AddBackend {
public:
    virtual ~AddBackend() = default;
    // The settings, read once for the whole run.
    virtual const Settings& settings() = 0;
    // The CPU work on a record (Enqueuer::prepare): no database, and it may
    // run on another thread than the other calls (one at a time).
    virtual void prepare(EnqueueResult& e, const Settings& s) = 0;
    virtual void begin() = 0;
    // Reads ahead what storing these records will read (Store::prefetch_for_add).
    virtual void prefetch(const std::vector<uint64_t>& fps, const std::vector<const AddRequest*>& reqs) = 0;
    // Stores one prepared record, inside the transaction (Enqueuer::finish).
    virtual void store(EnqueueResult& e, double now) = 0;
    virtual void commit() = 0;
};

// AddBackend over a Store, through an Enqueuer.
class StoreAddBackend : public AddBackend {
public:
    explicit StoreAddBackend(Store& store);
    const Settings& settings() override { return settings_; }
    void prepare(EnqueueResult& e, const Settings& s) override { enq_.prepare(e, s); }
    void begin() override { store_.begin(); }
    void prefetch(const std::vector<uint64_t>& fps, const std::vector<const AddRequest*>& reqs) override {
        store_.prefetch_for_add(fps, reqs);
    }
    void store(EnqueueResult& e, double now) override { enq_.finish(e, now); }
    void commit() override { store_.commit(); }

private:
    Store& store_;
    Enqueuer enq_;
    const Settings& settings_;
};

struct AddSessionOptions {
    int64_t batch = 100000;  // records per transaction at most
    bool quiet = false;      // no result lines, no summary
    StopCheck stop = signal_stop();
};

class AddSession {
public:
    // Records read and prepared together (two chunks in memory at once).
    static constexpr size_t kChunk = 512;

    AddSession(AddBackend& backend, RecordSource& input, SessionSink& sink, AddSessionOptions o);

    // Adds every input record and says how it went. Returns the exit code
    // (frontier-add(1), EXIT STATUS): 1 for bad input, or when records came
    // and none was accepted; else 0.
    int run();

private:
    struct Item {
        uint64_t line_no = 0;
        EnqueueResult e;  // the record, read, prepared, then stored, in place
    };
    struct Chunk {
        std::vector<Item> items;
        size_t n = 0;        // items in use (the vector keeps its capacity)
        bool pause = false;  // the input paused (or ended) after this chunk
    };

    void read_and_prepare(Chunk& c);
    void read_chunk(Chunk& c);
    void commit();
    void prefetch(const Chunk& c, size_t from);
    void store_chunk(Chunk& c);
    void count(const AddResult& r, const char* status);
    void print_result(uint64_t line_no, const EnqueueResult& r, const char* status);
    int summarise();

    AddBackend& backend_;
    RecordSource& input_;
    SessionSink& sink_;
    const AddSessionOptions o_;
    const Settings& settings_;
    std::map<std::string, int64_t> summary_;
    int64_t rejected_ = 0, out_of_scope_ = 0;
    TxPacer pacer_;
    bool open_ = false;  // a transaction is open
    bool eof_ = false;
    InputLine line_;
    JsonWriter w_;
    double now_ = 0;
    std::vector<uint64_t> fps_;
    std::vector<const AddRequest*> reqs_;
};

// An AddSession over `store` (StoreAddBackend): frontier-add's run.
int run_add_session(Store& store, RecordSource& input, SessionSink& sink, AddSessionOptions o);

}  // namespace frontier
