// SeenFps: the fingerprint filter kept in step with the urls table
// (seen_fps.hpp).
#include "store/seen_fps.hpp"

#include <algorithm>

#include "store/statements.hpp"
#include "store/store_connection.hpp"
#include "store/store_impl.hpp"

namespace frontier {

namespace {
// The filter is built once this process has probed a URL for every this
// many rows: the scan then costs about what the probes did.
constexpr int64_t kRowsPerProbe = 32;
// Its smallest size, in fingerprints.
constexpr uint64_t kMinCapacity = 4096;
}  // namespace

bool SeenFps::proves_unseen(uint64_t fp) {
    if (!usable_) return false;
    if (!synced_) sync();
    ++probes_;
    if (!filter_) {
        if (probes_ <= build_after_) return false;
        build();
    }
    return !filter_->may_contain(fp);
}

// The first use in a transaction, which holds the write lock: no other
// process commits until it ends.
void SeenFps::sync() {
    synced_ = true;
    if (filter_ && last_id_ > 0) {
        Stmt& st = st_.q("SELECT fp FROM urls WHERE id = ?");
        st.bind(1, last_id_);
        const bool same = st.step() && st.i64(0) == last_fp_;
        st.reset();
        if (!same) filter_.reset();
    }
    if (filter_) catch_up();
    if (filter_ && filter_->overloaded()) filter_.reset();
    if (filter_) return;
    Stmt& rows = st_.q("SELECT max(id) FROM urls");
    const int64_t n = rows.step() && !rows.is_null(0) ? rows.i64(0) : 0;
    rows.reset();
    build_after_ = n / kRowsPerProbe;
    if (probes_ >= build_after_) build();
}

void SeenFps::catch_up() {
    Stmt& st = st_.q("SELECT id, fp FROM urls WHERE id > ? ORDER BY id");
    st.bind(1, last_id_);
    while (st.step()) {
        last_id_ = st.i64(0);
        last_fp_ = st.i64(1);
        filter_->add(static_cast<uint64_t>(last_fp_));
    }
    st.reset();
}

// Unflushed: a held write never changes a row's id or fingerprint.
void read_last_url_row(Statements& statements, int64_t& id, int64_t& fp) {
    Stmt& st = statements.q_unflushed("SELECT id, fp FROM urls ORDER BY id DESC LIMIT 1");
    if (st.step()) {
        id = st.i64(0);
        fp = st.i64(1);
    }
    st.reset();
}

void SeenFps::rows_written() {
    if (filter_ && synced_) read_last_url_row(st_, written_id_, written_fp_);
}

// From the fingerprint tables, which hold a pair for every URL row (this
// transaction's too), sized for the rows (by the largest id), so that
// it is built again once about as many more were added
// (FpFilter::overloaded).
void SeenFps::build() {
    last_id_ = last_fp_ = 0;
    read_last_url_row(st_, last_id_, last_fp_);
    filter_ = std::make_unique<FpFilter>(std::max<uint64_t>(kMinCapacity, static_cast<uint64_t>(last_id_)));
    Stmt all = st_.db.prepare("SELECT fp FROM url_fps UNION ALL SELECT fp FROM url_fps_new");
    while (all.step()) filter_->add(static_cast<uint64_t>(all.i64(0)));
}

size_t seen_filter_bytes(Store& store) { return StoreConnection::impl_of(store).urls.seen.bytes(); }

}  // namespace frontier
