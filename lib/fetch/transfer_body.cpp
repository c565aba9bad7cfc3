// The body of a transfer (lib/fetch/transfer.hpp): what libcurl delivers,
// kept while the body budget grants it, hashed, and held in pieces mapped
// apart until it is joined at the end. The rest of Transfer is in
// transfer.cpp.
#include "fetch/transfer.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>

#include "web/robots.hpp"

namespace frontier {

size_t Transfer::on_body(char* p, size_t size, size_t n, void* self) {
    auto* t = static_cast<Transfer*>(self);
    size_t len = size * n;
    if (t->res_.job.robots) {
        if (t->res_.bytes + len > kRobotsMaxBytes) {
            // Keep the first kRobotsMaxBytes and stop: finish() reports the
            // prefix as the body of a successful fetch.
            size_t part = kRobotsMaxBytes - t->res_.bytes;
            t->keep(p, part);  // within the robots record's guaranteed share
            t->res_.bytes += part;
            t->robots_cut_ = true;
            return 0;  // != len: libcurl aborts with CURLE_WRITE_ERROR
        }
    } else if (t->res_.bytes + len > t->opt_.max_size) {
        t->too_large_ = true;
        return 0;  // != len: libcurl aborts with CURLE_WRITE_ERROR
    }
    XXH3_64bits_update(t->xxh_, p, len);
    t->keep(p, len);
    t->res_.bytes += len;
    return len;
}

// The body's bytes from res_.bytes on: kept while the budget grants them;
// from the first refusal on, the kept body stays a prefix (body_cut) and,
// with --warc, the rest goes to the spill file.
void Transfer::keep(const char* p, size_t len) {
    if (res_.bytes >= keep_limit_) return;
    size_t want = static_cast<size_t>(std::min<uint64_t>(len, keep_limit_ - res_.bytes));
    size_t kept = 0;
    if (!res_.body_cut) {
        kept = budget_ ? static_cast<size_t>(budget_->grant(res_.charge, want)) : want;
        if (kept > 0 && res_.body.empty() && pieces_.empty() && kept < keep_limit_) {
            // Room for the whole body at once when its length is announced (no
            // copies as the string grows; a compressed length is a lower bound),
            // up to 4 MiB and what the budget guarantees: an announced length is
            // not trusted further.
            curl_off_t announced = -1;
            uint64_t room = std::min<uint64_t>(
                {keep_limit_, uint64_t{4} << 20,
                 budget_ ? std::max<uint64_t>(res_.charge.held(), budget_->share()) : keep_limit_});
            if (curl_easy_getinfo(easy(), CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &announced) == CURLE_OK &&
                announced > static_cast<curl_off_t>(kept))
                res_.body.reserve(std::min<uint64_t>(static_cast<uint64_t>(announced), room));
        }
        size_t appended = append_kept(p, kept);
        if (appended < kept) {  // no memory for it after all: give the rest back
            res_.charge.unkeep(kept - appended);
            kept = appended;
        }
        if (kept < want) res_.body_cut = true;
    }
    if (kept < want && res_.warc) {
        if (!res_.spill) res_.spill = BodySpill::create();
        res_.spill->append(p + kept, want - kept);
    }
}

// A string that outgrows its capacity is copied into one twice as large:
// for a large body, memory would be up to twice what it keeps (and what the
// budget counts). So res_.body grows only up to kPieceBytes (or the room
// reserved for an announced length); the rest goes into pieces of
// kPieceBytes, mapped apart (resident as far as written, given back to the
// system when freed, where glibc would keep such blocks in its heaps for
// later), joined once at the end, piece by piece. A piece that cannot be
// mapped ends the kept body there, as the budget would.
Transfer::Piece::Piece() {
    void* p = ::mmap(nullptr, kPieceBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    data = p == MAP_FAILED ? nullptr : static_cast<char*>(p);
}

Transfer::Piece::~Piece() {
    if (data) ::munmap(data, kPieceBytes);
}

size_t Transfer::append_kept(const char* p, size_t n) {
    size_t done = 0;
    if (pieces_.empty()) {
        size_t limit = std::max(res_.body.capacity(), kPieceBytes);
        done = std::min(n, limit - std::min(limit, res_.body.size()));
        res_.body.append(p, done);
    }
    while (done < n) {
        if (pieces_.empty() || pieces_.back()->size == kPieceBytes) {
            auto piece = std::make_unique<Piece>();
            if (!piece->data) break;
            pieces_.push_back(std::move(piece));
        }
        Piece& piece = *pieces_.back();
        size_t m = std::min(n - done, kPieceBytes - piece.size);
        std::memcpy(piece.data + piece.size, p + done, m);
        piece.size += m;
        done += m;
    }
    return done;
}

void Transfer::join_pieces() {
    if (pieces_.empty()) return;
    size_t total = res_.body.size();
    for (const auto& piece : pieces_) total += piece->size;
    std::string joined;
    joined.reserve(total);
    joined.append(res_.body);
    std::string().swap(res_.body);
    for (auto& piece : pieces_) {
        joined.append(piece->data, piece->size);
        piece.reset();
    }
    pieces_.clear();
    res_.body = std::move(joined);
}

}  // namespace frontier
