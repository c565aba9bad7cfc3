// Private to the storage module (lib/store/): a process's filter in front
// of the fingerprint probe (frontier(7), FILE FORMAT). A new URL is most
// of what a crawl adds, and proving it new by the fingerprint tables reads
// pages of a large index that no cache of a bounded size holds; a filter
// in memory proves most new URLs new without a read. It lives in one
// process, is built from the fingerprint tables once the process has
// probed enough URLs to pay for the scan (so a short run on a large
// frontier never builds it), and learns of the rows other processes
// committed meanwhile at the start of each transaction that uses it (the
// URL rows past the last id it holds). Only where one transaction writes
// at a time and new rows take ids above every committed row's
// (StoreBackend::url_ids_follow_commits: SQLite); elsewhere it answers no.
// Not thread-safe: one per Store.
#pragma once

#include <cstdint>
#include <memory>

#include "store/fp_filter.hpp"

namespace frontier {

class Statements;
class Store;

// The URL row with the largest id and its fingerprint, or leaves them as
// they are when there is none.
void read_last_url_row(Statements& st, int64_t& id, int64_t& fp);

class SeenFps {
public:
    SeenFps(Statements& st, bool usable) : st_(st), usable_(usable) {}

    // In a write transaction: true only when no URL row has fingerprint
    // `fp`, rows this transaction wrote included (those came through
    // inserted()). Each call counts as a probe towards building the filter.
    bool proves_unseen(uint64_t fp);
    // A URL row with fingerprint `fp` written by this transaction.
    void inserted(uint64_t fp) {
        if (filter_) filter_->add(fp);
    }
    // This transaction's rows written (before its commit): the rows past
    // the last id the filter holds are all its own, in the filter, so the
    // next transaction need not read them back.
    void rows_written();
    // The transaction ended: the next one learns what others committed;
    // after a rollback, the filter (which may hold undone rows, past the
    // last id it trusts) is dropped and built again when it pays.
    void committed() {
        if (written_id_) {
            last_id_ = written_id_;
            last_fp_ = written_fp_;
        }
        written_id_ = 0;
        synced_ = false;
    }
    void rolled_back() {
        filter_.reset();
        written_id_ = 0;
        synced_ = false;
    }

    size_t bytes() const { return filter_ ? filter_->bytes() : 0; }

private:
    void sync();
    void build();
    // Adds the rows past last_id_ (committed by others, or written by this
    // process since) to the filter.
    void catch_up();

    Statements& st_;
    const bool usable_;
    std::unique_ptr<FpFilter> filter_;
    // The URL row with the largest id the filter holds, and its
    // fingerprint: a different fingerprint there later means rows were
    // deleted and the id taken again, and the filter is not trusted.
    int64_t last_id_ = 0, last_fp_ = 0;
    int64_t written_id_ = 0, written_fp_ = 0;  // the same at rows_written
    bool synced_ = false;      // caught up in this transaction
    int64_t probes_ = 0;       // proves_unseen calls since the store opened
    int64_t build_after_ = 0;  // probes_ past which the filter is built
};

// The size of the fingerprint filter `store` holds now, 0 for none (tests).
size_t seen_filter_bytes(Store& store);

}  // namespace frontier
